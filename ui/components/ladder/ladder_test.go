package ladder

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) } // as under NO_COLOR: no colour at all

var t0 = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

func lv(px, sz string) api.BookLevel {
	return api.BookLevel{Price: decimal.RequireFromString(px), Size: decimal.RequireFromString(sz)}
}

// book has ten levels a side around 100, two ticks (0.2) apart.
func book() api.OrderBook {
	b := api.OrderBook{Symbol: "BTC-PERP"}
	for i := range 10 {
		b.Bids = append(b.Bids, api.BookLevel{Price: decimal.New(1000-2*int64(i), -1), Size: decimal.NewFromInt(int64(i + 1))})
		b.Asks = append(b.Asks, api.BookLevel{Price: decimal.New(1001+2*int64(i), -1), Size: decimal.NewFromInt(int64(i + 1))})
	}
	return b
}

func newLadder(t *testing.T) (*Pane, *state.Store) {
	t.Helper()
	s := state.New(func() time.Time { return t0 })
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")}}}})
	s.Apply(state.BookMsg{Gen: 1, At: t0, Book: book()})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.SetInstrument("BTC-PERP")
	p := New(c)
	p.SetSize(60, 20)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindBook})
	return p, s
}

// TestMidStaysCentredAtAnyHeight: at every height the pane is exactly that tall and the mid line
// sits in its middle (guards asks drawn from the top with the mid after however many there are).
func TestMidStaysCentredAtAnyHeight(t *testing.T) {
	p, _ := newLadder(t)
	for h := 3; h <= 60; h++ {
		p.SetSize(60, h)
		lines := strings.Split(p.View(), "\n")
		if len(lines) != h {
			t.Fatalf("height %d: %d lines", h, len(lines))
		}
		mid := -1
		for i, l := range lines {
			if strings.Contains(l, " mid ") {
				mid = i
			}
		}
		if mid < 0 || mid-h/2 > 1 || h/2-mid > 1 {
			t.Fatalf("height %d: mid line at %d, want about %d:\n%s", h, mid, h/2, p.View())
		}
		if w := lipgloss.Width(lines[mid]); w != 60 {
			t.Fatalf("height %d: mid line %d wide", h, w)
		}
	}
}

// TestChangedLevelsAreMarked: a level that grew shows ▲, one that shrank ▼, a new one •, with no
// colour at all (ASCII profile); the markers go when the flash ends.
func TestChangedLevelsAreMarked(t *testing.T) {
	p, s := newLadder(t)
	b := book()
	b.Bids[0].Size = decimal.NewFromInt(9) // grew
	b.Asks[0].Size = decimal.RequireFromString("0.5")
	b.Asks = append(b.Asks[:1], append([]api.BookLevel{lv("100.2", "4")}, b.Asks[1:]...)...)
	if !s.Apply(state.BookMsg{Gen: 2, At: t0, Book: b}) {
		t.Fatal("the store did not take the new book")
	}
	p.Update(common.DataMsg{Kind: state.KindBook})
	if len(p.flashes) != 3 || !p.flashOn {
		t.Fatalf("%d levels flashing (timer armed %v), want 3", len(p.flashes), p.flashOn)
	}
	v := p.View()
	for px, mark := range map[string]string{"100.0": "▲", "100.1": "▼", "100.2": "•", "99.8": " "} {
		if row := rowOf(v, px); !strings.HasPrefix(strings.TrimPrefix(row, "›"), " "+mark) && !strings.HasPrefix(row, "›"+mark) {
			t.Errorf("row %s = %q, want the marker %q:\n%s", px, row, mark, v)
		}
	}
	p.Update(FlashEndMsg{At: t0.Add(flashFor)})
	if v := p.View(); strings.ContainsAny(v, "▲▼•") {
		t.Errorf("markers left after the flash:\n%s", v)
	}
}

// TestOwnOrdersAndGrouping: the trader's bid is marked with its size on its level, and stays
// marked on its group's row after + (a bid groups down: guards grouping it up into the asks' side).
func TestOwnOrdersAndGrouping(t *testing.T) {
	p, s := newLadder(t)
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{{OrderID: 7, Instrument: "BTC-PERP", InstrumentID: 1, Side: api.SideBuy,
		LimitPrice: decimal.RequireFromString("99.6"), Size: decimal.RequireFromString("0.25"), Unfilled: decimal.RequireFromString("0.25"), State: "open"}}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	if !strings.Contains(rowOf(p.View(), "99.6"), "◆0.250") {
		t.Fatalf("own order not marked on 99.6:\n%s", p.View())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
	if p.Group() != 5 || p.Title() != "Ladder ×5" {
		t.Fatalf("group %d title %q after + +", p.Group(), p.Title())
	}
	row := rowOf(p.View(), "99.5")
	if !strings.Contains(row, "◆0.250") || !strings.Contains(row, " 5.000 ") {
		t.Errorf("grouped row 99.5 (99.8 and 99.6: 2+3 lots) = %q:\n%s", row, p.View())
	}
	if row := rowOf(p.View(), "100.5"); !strings.Contains(row, " 6.000 ") {
		t.Errorf("grouped ask row 100.5 (100.1, 100.3 and 100.5 up: 1+2+3 lots) = %q", row)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("-")})
	if p.Group() != 2 {
		t.Errorf("- did not go back to two ticks: %d", p.Group())
	}
}

// TestBadBookIsNotDrawn: a crossed book shows the error, never levels.
func TestBadBookIsNotDrawn(t *testing.T) {
	p, s := newLadder(t)
	b := book()
	b.Bids[0] = lv("100.5", "1")
	s.Apply(state.BookMsg{Gen: 2, At: t0, Book: b})
	p.Update(common.DataMsg{Kind: state.KindBook})
	if v := p.View(); !strings.Contains(v, "book not shown: crossed") || strings.Contains(v, "99.8") {
		t.Errorf("crossed book drawn:\n%s", v)
	}
}

func rowOf(view, price string) string {
	for _, l := range strings.Split(view, "\n") {
		if f := strings.Fields(strings.TrimLeft(l, " ›▲▼•")); len(f) > 0 && f[0] == price {
			return l
		}
	}
	return ""
}

// TestOwnOrderWithoutLevelGetsItsRow: the trader's orders at prices the book has no level at
// (a bid of 99.7 between the 99.8 and 99.6 levels, an ask of 100.4 between 100.3 and 100.5) are
// drawn on rows of their own in price order, with their size and no book size; grouped, the bid
// lands on its group's row (guards dropping an own order whose price is not a book level, and
// inserting it on the wrong side of its neighbours).
func TestOwnOrderWithoutLevelGetsItsRow(t *testing.T) {
	p, s := newLadder(t)
	order := func(id uint64, side, px, sz string) api.OrderRecord {
		return api.OrderRecord{OrderID: api.OrderID(id), Instrument: "BTC-PERP", InstrumentID: 1, Side: side, LimitPrice: decimal.RequireFromString(px),
			Size: decimal.RequireFromString(sz), Unfilled: decimal.RequireFromString(sz), State: "open"}
	}
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{order(7, api.SideBuy, "99.7", "0.25"), order(8, api.SideSell, "100.4", "0.5")}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	v := p.View()
	var prices []string
	for _, l := range strings.Split(v, "\n")[1:] {
		if f := strings.Fields(strings.TrimLeft(l, " ›▲▼•")); len(f) > 1 && f[0] != "─" && !strings.Contains(l, "mid") {
			prices = append(prices, f[0])
		}
	}
	want := " 100.5 100.4 100.3 100.1 100.0 99.8 99.7 99.6 99.4 "
	if got := " " + strings.Join(prices, " ") + " "; !strings.Contains(got, want) {
		t.Fatalf("rows%s, want them to hold%s:\n%s", got, want, v)
	}
	for px, mine := range map[string]string{"99.7": "◆0.250", "100.4": "◆0.500"} {
		row := rowOf(v, px)
		if f := strings.Fields(row); !strings.Contains(row, mine) || len(f) < 2 || f[1] != "—" {
			t.Errorf("own row %s = %q, want no book size and %s", px, row, mine)
		}
	}
	// the cumulative size does not grow on an own row: 99.7 carries 99.8's 3.000
	if row := rowOf(v, "99.7"); !strings.Contains(row, " 3.000 ") {
		t.Errorf("own row 99.7 = %q, want the cumulative 3.000 of the level before it", row)
	}
	p.MoveToPrice(api.SideBuy, decimal.RequireFromString("99.7"))
	if o, ok := p.ownAtCursor(); !ok || o.OrderID != 7 {
		t.Errorf("the cursor on the own row does not find the order: %v %v", o, ok)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")}) // two ticks: 99.7 buckets down to 99.6
	if row := rowOf(p.View(), "99.6"); !strings.Contains(row, "◆0.250") {
		t.Errorf("grouped, the bid of 99.7 is not on the 99.6 row: %q\n%s", row, p.View())
	}
	if strings.Contains(p.View(), "99.7") {
		t.Errorf("grouped, a 99.7 row is left:\n%s", p.View())
	}
}

// TestOwnOrdersBeyondTheLevelsShownAreHinted (QA 13): the trader's orders further out than the
// levels that fit have no row, so the far row of their side says how many there are ("↑ 1 of
// your orders above", "↓ 2 of your orders below"), worded shorter on a narrow pane so it reads
// whole; orders on levels shown are not counted. It fails if hidden orders go unmentioned again,
// if the hint counts a shown order, or if a narrow pane cuts it.
func TestOwnOrdersBeyondTheLevelsShownAreHinted(t *testing.T) {
	p, s := newLadder(t) // 60x20: nine rows a side, ten levels a side in the book
	order := func(id uint64, side, px string) api.OrderRecord {
		return api.OrderRecord{OrderID: api.OrderID(id), Instrument: "BTC-PERP", InstrumentID: 1, Side: side, LimitPrice: decimal.RequireFromString(px),
			Size: decimal.RequireFromString("0.1"), Unfilled: decimal.RequireFromString("0.1"), State: "open"}
	}
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{order(1, api.SideBuy, "99.8"), order(2, api.SideBuy, "98.2"),
		order(3, api.SideBuy, "90"), order(4, api.SideSell, "101.9")}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	lines := strings.Split(p.View(), "\n")
	if got := strings.TrimSpace(lines[1]); got != "↑ 1 of your orders above · n goes to them" {
		t.Errorf("top row %q, want the hint of the ask above:\n%s", got, p.View())
	}
	if got := strings.TrimSpace(lines[len(lines)-1]); got != "↓ 2 of your orders below · n goes to them" {
		t.Errorf("bottom row %q, want the hint of the two bids below:\n%s", got, p.View())
	}
	if !strings.Contains(rowOf(p.View(), "99.8"), "◆") {
		t.Errorf("the order on a level shown lost its mark:\n%s", p.View())
	}
	// Narrower, the hint is worded shorter and reads whole, the key included (at 120x40 the
	// ladder is 34 wide: it read "↓ 1 of your orders below · n go…").
	for _, tc := range []struct {
		w    int
		want string
	}{{34, "↓ 2 of yours below · n jumps"}, {26, "↓ 2 of yours below · n"}, {20, "↓ 2 of yours below"}} {
		p.SetSize(tc.w, 20)
		lines := strings.Split(p.View(), "\n")
		if got := strings.TrimSpace(lines[len(lines)-1]); got != tc.want {
			t.Errorf("%d wide, bottom row %q, want %q", tc.w, got, tc.want)
		}
	}
	p.SetSize(60, 20)
	p.MoveTo(0)
	if _, _, ok := p.Cursor(); !ok {
		t.Errorf("the cursor rests on the hint line")
	}
	s.Apply(state.OrdersMsg{Gen: 2, At: t0, Orders: []api.OrderRecord{order(1, api.SideBuy, "99.8")}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	if strings.Contains(p.View(), "of your orders") {
		t.Errorf("a hint with every order shown:\n%s", p.View())
	}
}

// TestCursorStaysOnTheLevels (QA 13): on a book shorter than the pane, ↓ and ↑ stop at the last
// bid and the top ask: the cursor never rests on a blank row ("no order of yours on this level").
func TestCursorStaysOnTheLevels(t *testing.T) {
	p, s := newLadder(t)
	s.Apply(state.BookMsg{Gen: 2, At: t0, Book: api.OrderBook{Symbol: "BTC-PERP",
		Bids: []api.BookLevel{lv("100.0", "1"), lv("99.8", "2")}, Asks: []api.BookLevel{lv("100.1", "1"), lv("100.3", "2"), lv("100.5", "3")}}})
	p.Update(common.DataMsg{Kind: state.KindBook})
	down := tea.KeyMsg{Type: tea.KeyDown}
	up := tea.KeyMsg{Type: tea.KeyUp}
	for range 20 {
		p.Update(down)
	}
	if side, px, ok := p.Cursor(); !ok || side != api.SideBuy || px.String() != "99.8" {
		t.Errorf("after ↓ past the book: %s %s ok %v, want the last bid 99.8", side, px, ok)
	}
	for range 40 {
		p.Update(up)
	}
	if side, px, ok := p.Cursor(); !ok || side != api.SideSell || px.String() != "100.5" {
		t.Errorf("after ↑ past the book: %s %s ok %v, want the top ask 100.5", side, px, ok)
	}
}

// TestUnchangedOrRequotedBookMarksNothing (QA 13: "•" on nearly every level at each refresh): a
// re-snapshot of the same book, and a book change of another instrument, mark nothing; a book
// whose makers requoted every level at new prices marks no level "•" (every row would be); a
// single new level among levels still there is still marked (TestChangedLevelsAreMarked). It
// fails if the ladder marks levels whose size at their price did not change.
func TestUnchangedOrRequotedBookMarksNothing(t *testing.T) {
	p, s := newLadder(t)
	s.Apply(state.BookMsg{Gen: 2, At: t0, Book: book()})
	other := book()
	other.Symbol = "ETH-PERP"
	if !s.Apply(state.BookMsg{Gen: 3, At: t0, Book: other}) {
		t.Fatal("the store did not take the other instrument's book")
	}
	p.Update(common.DataMsg{Kind: state.KindBook})
	if len(p.flashes) != 0 || strings.ContainsAny(p.View(), "▲▼•") {
		t.Fatalf("an unchanged book marked %d levels:\n%s", len(p.flashes), p.View())
	}
	shifted := book() // the makers moved out a tick each side: every price is new
	tick := decimal.RequireFromString("0.1")
	for i := range shifted.Bids {
		shifted.Bids[i].Price = shifted.Bids[i].Price.Sub(tick)
		shifted.Asks[i].Price = shifted.Asks[i].Price.Add(tick)
		shifted.Bids[i].Size = shifted.Bids[i].Size.Add(decimal.NewFromInt(1))
	}
	if !s.Apply(state.BookMsg{Gen: 4, At: t0, Book: shifted}) {
		t.Fatal("the store did not take the requoted book")
	}
	p.Update(common.DataMsg{Kind: state.KindBook})
	if strings.Contains(p.View(), "•") {
		t.Errorf("a requoted book marks its new levels •:\n%s", p.View())
	}
}

// TestAStreamedTickerLeavesTheLadderDrawn: a change of the tickers (a streamed batch) with the
// same instrument loads no book and draws no ladder again; the tickers' message after the
// instrument changed (the root's word for it) still moves the ladder to the new instrument's
// book. Guards: every ticker batch reloading and redrawing the ladder (issue #34).
func TestAStreamedTickerLeavesTheLadderDrawn(t *testing.T) {
	p, s := newLadder(t)
	before := p.View()
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if p.dirty {
		t.Fatal("a ticker change with the same instrument has the ladder drawn again")
	}
	eth := book()
	eth.Symbol = "ETH-PERP"
	for i := range eth.Bids {
		eth.Bids[i].Price = eth.Bids[i].Price.Add(decimal.NewFromInt(3000))
		eth.Asks[i].Price = eth.Asks[i].Price.Add(decimal.NewFromInt(3000))
	}
	s.Apply(state.BookMsg{Gen: 2, At: t0, Book: eth})
	p.SetInstrument("ETH-PERP")
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if after := p.View(); after == before || !strings.Contains(after, "3,100.1") {
		t.Fatalf("the ladder did not move to ETH-PERP's book:\n%s", after)
	}
}

// BenchmarkLadderTickerBatch is the ladder's part of a streamed ticker batch: the tickers'
// message and the frame after it.
func BenchmarkLadderTickerBatch(b *testing.B) {
	s := state.New(func() time.Time { return t0 })
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")}}}})
	s.Apply(state.BookMsg{Gen: 1, At: t0, Book: book()})
	c := commontest.NewCommon(b, s, func() time.Time { return t0 })
	c.SetInstrument("BTC-PERP")
	p := New(c)
	p.SetSize(50, 54)
	p.Update(common.DataMsg{Kind: state.KindBook})
	b.ReportAllocs()
	for b.Loop() {
		p.Update(common.DataMsg{Kind: state.KindTickers})
		_ = p.View()
	}
}
