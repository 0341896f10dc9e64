package tickers

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// marketStore holds three perps whose marks are not in name order.
func marketStore(clock func() time.Time) *state.Store {
	s := state.New(clock)
	im, tm := marketMsgs(clock)
	s.Apply(im)
	s.Apply(tm)
	return s
}

// marketMsgs are the messages that fill marketStore.
func marketMsgs(clock func() time.Time) (state.InstrumentsMsg, state.TickersMsg) {
	var ins api.Instruments
	var ts []api.Ticker
	for i, m := range []struct{ name, mark string }{{"BTC-PERP", "97000"}, {"DOGE-PERP", "0.38"}, {"ETH-PERP", "3400"}} {
		ins.Perps = append(ins.Perps, api.PerpInstrument{ID: api.InstrumentID(i + 1), Name: m.name,
			TickSize: decimal.RequireFromString("0.01"), LotSize: decimal.RequireFromString("0.001")})
		px := decimal.RequireFromString(m.mark)
		ts = append(ts, api.Ticker{Symbol: m.name, MarkPrice: px, LastPrice: px, BestBidPrice: px, BestAskPrice: px})
	}
	return state.InstrumentsMsg{Gen: 1, At: clock(), Instruments: ins}, state.TickersMsg{Gen: 1, At: clock(), Tickers: ts}
}

func newPane(t *testing.T, watchlist ...string) (*Pane, *common.Common) {
	t.Helper()
	c := commontest.NewCommon(t, marketStore(func() time.Time { return t0 }), func() time.Time { return t0 })
	p := New(c, watchlist)
	p.SetSize(120, 10)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindTickers})
	return p, c
}

func press(p *Pane, keys ...string) tea.Cmd {
	var last tea.Cmd
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		switch k {
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		}
		last = p.Update(msg)
	}
	return last
}

func TestFavouritesFirstThenByName(t *testing.T) {
	p, _ := newPane(t, "ETH-PERP")
	if got, want := p.Shown(), []string{"ETH-PERP", "BTC-PERP", "DOGE-PERP"}; !slices.Equal(got, want) {
		t.Fatalf("shown %v, want %v", got, want)
	}
}

func TestFilterSortAndFavouritesOnly(t *testing.T) {
	p, _ := newPane(t, "ETH-PERP")
	press(p, "/", "d", "o", "g")
	if got := p.Shown(); !slices.Equal(got, []string{"DOGE-PERP"}) {
		t.Errorf("filter dog: %v", got)
	}
	press(p, "esc")
	if got := p.Shown(); len(got) != 3 {
		t.Errorf("Esc did not clear the filter: %v", got)
	}
	press(p, "o") // sort by mark, favourite first
	if got, want := p.Shown(), []string{"ETH-PERP", "DOGE-PERP", "BTC-PERP"}; !slices.Equal(got, want) {
		t.Errorf("by mark: %v, want %v", got, want)
	}
	if !strings.Contains(p.View(), "Mark▲") {
		t.Errorf("the sorted column is not marked:\n%s", p.View())
	}
	press(p, "w")
	if got := p.Shown(); !slices.Equal(got, []string{"ETH-PERP"}) {
		t.Errorf("favourites only: %v", got)
	}
}

// TestMovingTheCursorSelectsTheInstrument: the pane asks the root to change the current
// instrument; it never writes it itself (Common has one writer).
func TestMovingTheCursorSelectsTheInstrument(t *testing.T) {
	p, c := newPane(t)
	cmd := press(p, "down")
	if cmd == nil {
		t.Fatal("moving the cursor asked for nothing")
	}
	msg, ok := cmd().(common.InstrumentMsg)
	if !ok || msg.Symbol != "DOGE-PERP" || msg.Focus {
		t.Fatalf("down asked for %#v, want DOGE-PERP without focus", msg)
	}
	if c.Instrument() != "" {
		t.Errorf("the pane wrote the current instrument (%q) itself", c.Instrument())
	}
	msg, _ = press(p, "b")().(common.InstrumentMsg)
	if msg.Symbol != "DOGE-PERP" || msg.Side != api.SideBuy || !msg.Focus {
		t.Errorf("b asked for %#v, want a buy of DOGE-PERP in the focused form", msg)
	}
}

func TestAMovedMarkFlashesUntilItsEnd(t *testing.T) {
	p, c := newPane(t)
	ts := slices.Clone(c.Store.Tickers()) // the store's own slice is read-only
	ts[0].MarkPrice = ts[0].MarkPrice.Add(decimal.NewFromInt(5))
	if !c.Store.Apply(state.TickersMsg{Gen: 2, At: t0.Add(time.Second), Tickers: ts}) {
		t.Fatal("the store did not take the moved mark")
	}
	if p.Update(common.DataMsg{Kind: state.KindTickers}) == nil || p.Flashing() != 1 {
		t.Fatalf("%d flashes after one mark moved (and no timer to end them)", p.Flashing())
	}
	if !strings.Contains(p.View(), "97,005.00▲") {
		t.Errorf("the moved mark is not marked up:\n%s", p.View())
	}
	p.Update(FlashEndMsg{At: t0.Add(flashFor)})
	if p.Flashing() != 0 {
		t.Errorf("the flash did not end: %d still flashing", p.Flashing())
	}
}

// A mark is compared with the one the pane took last, at the same index while the list names the
// same instruments in the same order, by name when it does not (a poll that lists them in
// another order, an instrument added): only the marks that moved flash, the way they moved.
// Guards: the index-wise comparison applied to a list in another order (every mark "moved").
func TestOnlyMovedMarksFlashWhateverTheOrder(t *testing.T) {
	p, c := newPane(t)
	ts := slices.Clone(c.Store.Tickers())
	ts[2].MarkPrice = ts[2].MarkPrice.Sub(decimal.NewFromInt(7)) // ETH-PERP down
	slices.Reverse(ts)
	ts = append(ts, api.Ticker{Symbol: "SOL-PERP", MarkPrice: decimal.NewFromInt(200)})
	c.Store.Apply(state.TickersMsg{Gen: 2, At: t0.Add(time.Second), Tickers: ts})
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if p.Flashing() != 1 || !strings.Contains(p.View(), "3,393.00▼") {
		t.Fatalf("%d flashing after ETH-PERP's mark fell in a list in another order, want 1, down:\n%s", p.Flashing(), p.View())
	}
	ts = slices.Clone(ts)
	ts[3].MarkPrice = decimal.NewFromInt(201) // SOL-PERP up, the order kept
	c.Store.Apply(state.TickersMsg{Gen: 3, At: t0.Add(2 * time.Second), Tickers: ts})
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if p.Flashing() != 2 || !strings.Contains(p.View(), "201.00▲") {
		t.Errorf("%d flashing after SOL-PERP's mark rose, want 2 (ETH-PERP's still on), SOL up:\n%s", p.Flashing(), p.View())
	}
}

// selected is the instrument a command asks the root to make current ("" for none).
func selected(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch m := cmd().(type) {
	case common.InstrumentMsg:
		return m.Symbol
	case tea.BatchMsg:
		for _, c := range m {
			if s := selected(c); s != "" {
				return s
			}
		}
	}
	return ""
}

// TestLayoutOfTheFilterAndFavourites (#24 case 6): the filter line is exactly as wide as the
// pane (it was 6 cells short: its escape codes were counted as cells); a filter that hides the
// current instrument makes the row under the cursor current (the form and the chart followed a
// hidden one); toggling a favourite leaves the cursor on its line, so a second f acts on the row
// the trader sees there.
func TestLayoutOfTheFilterAndFavourites(t *testing.T) {
	p, _ := newPane(t)
	press(p, "/")
	for i, l := range strings.Split(p.View(), "\n") {
		if w := ansi.StringWidth(l); w != 120 {
			t.Errorf("line %d is %d cells wide, want 120: %q", i, w, ansi.Strip(l))
		}
	}
	press(p, "e")
	if got := selected(press(p, "t")); got != "ETH-PERP" { // BTC and DOGE hidden
		t.Errorf("filtering out BTC-PERP asked for %q, want ETH-PERP", got)
	}
	press(p, "esc")

	// BTC, DOGE, ETH by name; star then unstar the cursor's row.
	p.tbl.MoveTo(2)
	press(p, "f") // ETH starred: it moves to the top, the cursor stays on line 2 (DOGE now)
	if got := p.Shown(); !slices.Equal(got, []string{"ETH-PERP", "BTC-PERP", "DOGE-PERP"}) || p.Selected() != "DOGE-PERP" {
		t.Fatalf("after f: %v, cursor on %s", got, p.Selected())
	}
	p.tbl.MoveTo(0)
	press(p, "f") // ETH unstarred: back to last; the cursor stays on line 0 (BTC)
	if p.Selected() != "BTC-PERP" || p.favs["BTC-PERP"] {
		t.Fatalf("after unstarring: cursor on %s, favourites %v", p.Selected(), p.favs)
	}
	press(p, "f")
	if !p.favs["BTC-PERP"] || p.favs["ETH-PERP"] {
		t.Errorf("f after unstarring starred the wrong row: %v", p.favs)
	}
}

// TestUnknownWatchlistEntryIsReported (#24 case 7): a watchlist entry that names no instrument is
// reported once the instruments load, not dropped without a word.
func TestUnknownWatchlistEntryIsReported(t *testing.T) {
	c := commontest.NewCommon(t, state.New(func() time.Time { return t0 }), func() time.Time { return t0 })
	p := New(c, []string{"ETH-PERP", "NOPE-PERP"})
	p.SetSize(120, 10)
	if cmd := p.Update(common.DataMsg{Kind: state.KindTickers}); cmd != nil {
		if n, ok := cmd().(common.NoticeMsg); ok {
			t.Fatalf("reported before the instruments loaded: %q", n.Text)
		}
	}
	im, tm := marketMsgs(func() time.Time { return t0 })
	c.Store.Apply(im)
	c.Store.Apply(tm)
	var notice string
	var find func(tea.Msg)
	find = func(msg tea.Msg) {
		switch m := msg.(type) {
		case common.NoticeMsg:
			notice = m.Text
		case tea.BatchMsg:
			for _, cmd := range m {
				if cmd != nil {
					find(cmd())
				}
			}
		}
	}
	if cmd := p.Update(common.DataMsg{Kind: state.KindInstruments}); cmd != nil {
		find(cmd())
	}
	if !strings.Contains(notice, "NOPE-PERP") || strings.Contains(notice, "ETH-PERP") {
		t.Errorf("notice %q, want one naming NOPE-PERP only", notice)
	}
}

// TestSortOnlyOverShownColumns (QA item 15): at a width that shows Instrument and Mark only (the
// Tickers pane at 120x40), o cycles over the columns shown, so the arrow is always in sight; a
// pane narrowed past its sort column goes back to Instrument. Guards the cycle over every column.
func TestSortOnlyOverShownColumns(t *testing.T) {
	p, _ := newPane(t)
	p.SetSize(36, 10)
	for i, want := range []string{"Mark▲", "24h %▲", "Instrument▲", "Mark▲"} {
		press(p, "o")
		if v := ansi.Strip(p.View()); !strings.Contains(v, want) {
			t.Fatalf("after o #%d the header lacks %s:\n%s", i+1, want, v)
		}
	}
	p.SetSize(120, 10)
	press(p, "o") // Last
	p.SetSize(36, 10)
	if v := ansi.Strip(p.View()); !strings.Contains(v, "Instrument▲") {
		t.Errorf("narrowed past its sort column, the header shows no arrow:\n%s", v)
	}
	if got, want := p.Shown(), []string{"BTC-PERP", "DOGE-PERP", "ETH-PERP"}; !slices.Equal(got, want) {
		t.Errorf("narrowed: %v, want by name %v", got, want)
	}
}

// TestNarrowPaneKeepsTheDayChange: the Instrument column is as wide as the longest name (and its
// title with the sort arrow), not a fixed 12 with padding, so a 36-column pane (the tickers at
// 120x40) shows Mark and 24h %; a name longer than 20 is cut with an ellipsis, never widening the
// column past it. Guards fitNameColumn (dropped: 24h % goes; uncapped: a hostile name takes the
// pane).
func TestNarrowPaneKeepsTheDayChange(t *testing.T) {
	p, _ := newPane(t)
	p.SetSize(36, 10)
	if v := ansi.Strip(p.View()); !strings.Contains(v, "24h %") || !strings.Contains(v, "Instrument▲") {
		t.Fatalf("a 36-column pane lacks 24h %% or the whole Instrument title:\n%s", v)
	}
	long := strings.Repeat("X", 40) + "-PERP"
	im, tm := marketMsgs(func() time.Time { return t0 })
	im.Gen, tm.Gen = 2, 2
	im.Instruments.Perps = append(im.Instruments.Perps, api.PerpInstrument{ID: 9, Name: long,
		TickSize: decimal.RequireFromString("0.01"), LotSize: decimal.RequireFromString("0.001")})
	tm.Tickers = append(tm.Tickers, api.Ticker{Symbol: long, MarkPrice: decimal.NewFromInt(1)})
	p.Store.Apply(im)
	p.Store.Apply(tm)
	p.Update(common.DataMsg{Kind: state.KindInstruments})
	p.SetSize(120, 10)
	v := ansi.Strip(p.View())
	if strings.Contains(v, long) || !strings.Contains(v, strings.Repeat("X", 19)+"…") {
		t.Fatalf("a 45-character name is not cut at 20:\n%s", v)
	}
}

// TestNameColumnFitsTickersThatCameAfterTheInstruments: instruments loaded before the first
// tickers leave nothing to fit; the column is fitted again when the tickers come, so a long name
// is not cut at the empty list's width. Guards a fit run only when the instruments change.
func TestNameColumnFitsTickersThatCameAfterTheInstruments(t *testing.T) {
	clock := func() time.Time { return t0 }
	s := state.New(clock)
	im, tm := marketMsgs(clock)
	const name = "LONGNAME12345-PERP" // 18 cells: over the title's 11, under the cap of 20
	im.Instruments.Perps = append(im.Instruments.Perps, api.PerpInstrument{ID: 9, Name: name,
		TickSize: decimal.RequireFromString("0.01"), LotSize: decimal.RequireFromString("0.001")})
	tm.Tickers = append(tm.Tickers, api.Ticker{Symbol: name, MarkPrice: decimal.NewFromInt(1)})
	s.Apply(im)
	p := New(commontest.NewCommon(t, s, clock), nil)
	p.SetSize(120, 10)
	p.Update(common.DataMsg{Kind: state.KindInstruments})
	s.Apply(tm)
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if v := ansi.Strip(p.View()); !strings.Contains(v, name) {
		t.Fatalf("the name is cut after the tickers came:\n%s", v)
	}
}

// TestFundingFootWhereTheColumnDrops (issue #31, 14): where the width leaves the Funding column out
// (it goes before Last and Vol 24h), the last line gives the selected perpetual's funding rate and
// the time to the next payment (on the hour): in words with the open interest when there is room,
// the rate and the countdown at 36 cells; it follows the cursor; where the column is shown there
// is no foot. Guards funding invisible at 200x60 and below.
func TestFundingFootWhereTheColumnDrops(t *testing.T) {
	at := time.Date(2026, 11, 22, 12, 46, 30, 0, time.UTC)
	clock := func() time.Time { return at }
	s := marketStore(clock)
	_, tm := marketMsgs(clock)
	for i := range tm.Tickers {
		tm.Tickers[i].FundingRate = decimal.New(int64(13*(i+1)), -6) // +0.0013%, +0.0026%, +0.0039%
		tm.Tickers[i].OpenInterest = decimal.NewFromInt(1234)
	}
	tm.Gen = 2
	s.Apply(tm)
	p := New(commontest.NewCommon(t, s, clock), nil)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindTickers})
	foot := func() string {
		lines := strings.Split(ansi.Strip(p.View()), "\n")
		return strings.TrimSpace(lines[len(lines)-1])
	}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{86, "BTC-PERP  funding +0.0013%/1h · next in 13m30s · open int. 1,234.00 BTC"}, // 200x60's tickers pane
		{78, "BTC-PERP  funding +0.0013%/1h · next in 13m30s · open int. 1,234.00 BTC"}, // 80x24
		{36, "funding +0.0013%/1h next 13m30s"},                                         // 120x40
	} {
		p.SetSize(tc.w, 8)
		if p.visible(tcFunding) || foot() != tc.want {
			t.Errorf("%d cells: Funding column %v, foot %q, want %q", tc.w, p.visible(tcFunding), foot(), tc.want)
		}
	}
	p.SetSize(86, 8)
	press(p, "down")
	if got := foot(); !strings.HasPrefix(got, "DOGE-PERP  funding +0.0026%/1h") {
		t.Errorf("the foot does not follow the cursor: %q", got)
	}
	p.SetSize(300, 8)
	if got := foot(); !p.visible(tcFunding) || strings.Contains(got, "next in") {
		t.Errorf("with the Funding column shown the foot is %q", got)
	}
}

// streamRig is a pane over 509 instruments and tick, which streams one ticker (a moved mark) to
// the store and has the pane take it.
func streamRig(tb testing.TB) (p *Pane, ts []api.Ticker, tick func()) {
	clock := func() time.Time { return t0 }
	s := state.New(clock)
	var ins api.Instruments
	for i := range 509 {
		name := fmt.Sprintf("S%03d-PERP", i)
		ins.Perps = append(ins.Perps, api.PerpInstrument{ID: api.InstrumentID(i + 1), Name: name,
			TickSize: decimal.RequireFromString("0.01"), LotSize: decimal.RequireFromString("0.001")})
		px := decimal.New(int64(100+i), 0)
		ts = append(ts, api.Ticker{Symbol: name, MarkPrice: px, LastPrice: px, BestBidPrice: px, BestAskPrice: px})
	}
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: ins})
	s.Apply(state.TickersMsg{Gen: 1, At: t0, Tickers: ts})
	p = New(commontest.NewCommon(tb, s, clock), nil)
	p.SetSize(120, 40)
	p.Update(common.DataMsg{Kind: state.KindTickers})
	step := 0
	return p, ts, func() {
		step++
		u := ts[step%len(ts)]
		u.MarkPrice = u.MarkPrice.Add(decimal.New(int64(step), -2))
		s.Apply(state.TickerUpdateMsg{At: t0.Add(time.Duration(step) * time.Millisecond), Ticker: u})
		p.Update(common.DataMsg{Kind: state.KindTickers})
	}
}

// TestAStreamedTickerCopiesNoList: with 509 instruments, a streamed ticker taken by the pane
// allocates a small part of one copy of the list: the pane copies the store's list into the one
// it took two changes before, instead of the store copying the whole list for it at every change
// (issue #34). Guards: the pane back on Store.Tickers, or dropping the list it reuses.
func TestAStreamedTickerCopiesNoList(t *testing.T) {
	p, ts, tick := streamRig(t)
	for range 5 {
		tick() // the pane's two lists are made
	}
	var m0, m1 runtime.MemStats
	const runs = 100
	runtime.ReadMemStats(&m0)
	for range runs {
		tick()
	}
	runtime.ReadMemStats(&m1)
	per := float64(m1.TotalAlloc-m0.TotalAlloc) / runs
	list := float64(unsafe.Sizeof(api.Ticker{})) * float64(len(ts))
	t.Logf("%.0f bytes a streamed ticker; the list is %.0f", per, list)
	if per > list/4 {
		t.Errorf("%.0f bytes allocated a streamed ticker: want under a quarter of the %.0f-byte list", per, list)
	}
	if p.Selected() != "S000-PERP" || len(p.rows) != len(ts) {
		t.Errorf("selected %q of %d rows: want S000-PERP of %d", p.Selected(), len(p.rows), len(ts))
	}
}

// BenchmarkStreamedTicker is one streamed ticker of 509 applied to the store and taken by the
// pane (copied, flashes started, rows sorted), its rows on screen drawn.
func BenchmarkStreamedTicker(b *testing.B) {
	p, _, tick := streamRig(b)
	b.ReportAllocs()
	for b.Loop() {
		tick()
		_ = p.View()
	}
}
