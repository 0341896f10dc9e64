package ladder

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

func keyOf(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func ownOrder(id uint64, side, px, sz string) api.OrderRecord {
	return api.OrderRecord{OrderID: api.OrderID(id), Instrument: "BTC-PERP", InstrumentID: 1, Side: side, LimitPrice: decimal.RequireFromString(px),
		Size: decimal.RequireFromString(sz), Unfilled: decimal.RequireFromString(sz), State: "open", Tif: api.TifGTC}
}

// tradePrice is the price b asks the form for.
func tradePrice(t *testing.T, p *Pane) string {
	t.Helper()
	cmd := p.Update(keyOf("b"))
	if cmd == nil {
		t.Fatal("b did nothing")
	}
	m, ok := cmd().(TradeMsg)
	if !ok {
		t.Fatalf("b sent %T", cmd())
	}
	return m.Price.String()
}

// TestLadderCursorStaysOnItsPrice (#31 point 9): the cursor is on a price; the book moves under it
// before b (a new level above it shifts the rows; then its own level goes): b still takes the price
// the trader chose, which keeps its row (no book size) while the cursor rests on it.
func TestLadderCursorStaysOnItsPrice(t *testing.T) {
	p, s := newLadder(t)
	if !p.MoveToPrice(api.SideBuy, decimal.RequireFromString("99.6")) {
		t.Fatal("no 99.6 row")
	}
	b := book()
	b.Bids = append([]api.BookLevel{lv("100.0", "1")}, b.Bids...) // a better bid: every bid row shifts down
	b.Bids[1] = lv("99.9", "4")
	b.Asks = b.Asks[1:]
	s.Apply(state.BookMsg{Gen: 2, At: t0, Book: b})
	p.Update(common.DataMsg{Kind: state.KindBook})
	if got := tradePrice(t, p); got != "99.6" {
		t.Fatalf("after the book moved b takes %s, want the chosen 99.6:\n%s", got, p.View())
	}
	b2 := book()
	b2.Bids = append(b2.Bids[:2], b2.Bids[3:]...) // 99.6's level goes
	s.Apply(state.BookMsg{Gen: 3, At: t0, Book: b2})
	p.Update(common.DataMsg{Kind: state.KindBook})
	if got := tradePrice(t, p); got != "99.6" {
		t.Fatalf("with its level gone b takes %s, want the chosen 99.6:\n%s", got, p.View())
	}
	if f := strings.Fields(strings.TrimLeft(rowOf(p.View(), "99.6"), " ›")); len(f) < 2 || f[1] != "—" {
		t.Errorf("the cursor's price without a level = %q, want no book size", rowOf(p.View(), "99.6"))
	}
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	if _, px, _ := p.Cursor(); px.String() != "99.4" {
		t.Errorf("↓ from 99.6 went to %s, want the next level 99.4", px)
	}
}

// TestLadderGoesToTheTradersOrders: n goes to the trader's orders top to bottom and round again,
// however far out (the far row of the side shows it after a gap line); ↑ past the top row scrolls
// a level at a time.
func TestLadderGoesToTheTradersOrders(t *testing.T) {
	p, s := newLadder(t) // nine rows a side, ten levels a side in the book
	b := book()
	for i := 10; i < 40; i++ {
		b.Bids = append(b.Bids, api.BookLevel{Price: decimal.New(1000-2*int64(i), -1), Size: decimal.NewFromInt(1)})
	}
	s.Apply(state.BookMsg{Gen: 2, At: t0, Book: b})
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{ownOrder(1, api.SideBuy, "99.8", "0.1"),
		ownOrder(2, api.SideBuy, "93.0", "0.1"), ownOrder(3, api.SideSell, "101.9", "0.1")}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	for _, want := range []string{"99.8", "93.0", "101.9", "99.8"} { // from the best bid, down and round
		p.Update(keyOf("n"))
		_, px, ok := p.Cursor()
		if !ok || !px.Equal(decimal.RequireFromString(want)) {
			t.Fatalf("n: cursor on %s (ok %v), want %s:\n%s", px, ok, want, p.View())
		}
		if !strings.Contains(rowOf(p.View(), want), "◆0.100") {
			t.Fatalf("n: the order at %s is not on screen:\n%s", want, p.View())
		}
	}
	p.Update(keyOf("n")) // 93.0: beyond the bids that fit
	if !strings.Contains(p.View(), "⋮") {
		t.Errorf("no gap line before a far order:\n%s", p.View())
	}
	cmd := p.Update(keyOf("x"))
	if m, ok := cmd().(action.RequestMsg); !ok || m.Act.Cancel.Oid != 2 {
		t.Errorf("x on the far order asks %+v, want order 2 cancelled", m)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	if _, px, _ := p.Cursor(); px.String() != "92.8" {
		t.Errorf("↓ from 93.0 went to %s, want the next level down 92.8", px)
	}
	if !p.MoveToPrice(api.SideSell, decimal.RequireFromString("101.5")) {
		t.Fatalf("no 101.5 row:\n%s", p.View())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyUp})
	p.Update(tea.KeyMsg{Type: tea.KeyUp})
	if _, px, _ := p.Cursor(); px.String() != "101.9" {
		t.Errorf("↑ past the top row: %s, want 101.9", px)
	}
}

// TestLadderGroupingIsPerInstrument: + on one instrument is kept for it; another starts ungrouped,
// and coming back finds the grouping chosen.
func TestLadderGroupingIsPerInstrument(t *testing.T) {
	p, s := newLadder(t)
	s.Apply(state.InstrumentsMsg{Gen: 2, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")},
		{ID: 2, Name: "ETH-PERP", TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")}}}})
	p.Update(keyOf("+"))
	p.Update(keyOf("+"))
	for _, c := range []struct {
		sym   string
		group int64
	}{{"ETH-PERP", 1}, {"BTC-PERP", 5}} {
		p.SetInstrument(c.sym)
		p.Update(common.DataMsg{Kind: state.KindInstruments})
		if p.Group() != c.group {
			t.Errorf("%s: group %d, want %d", c.sym, p.Group(), c.group)
		}
	}
}

// TestLadderAsksWhichOrderOnAGroupedRow: x on a grouped row holding two of the trader's orders
// cancels neither at once: it asks which; its number cancels that one, Esc none.
func TestLadderAsksWhichOrderOnAGroupedRow(t *testing.T) {
	p, s := newLadder(t)
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{ownOrder(7, api.SideBuy, "99.6", "0.25"), ownOrder(8, api.SideBuy, "99.8", "0.5")}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	p.Update(keyOf("+"))
	p.Update(keyOf("+")) // ×5: 99.8 and 99.6 share the 99.5 row
	if !p.MoveToPrice(api.SideBuy, decimal.RequireFromString("99.5")) {
		t.Fatalf("no 99.5 row:\n%s", p.View())
	}
	if cmd := p.Update(keyOf("x")); cmd != nil {
		t.Fatalf("x on two orders sent %T without asking", cmd())
	}
	if !p.Capturing() || !strings.Contains(p.View(), "cancel which?") {
		t.Fatalf("x on two orders does not ask which:\n%s", p.View())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if p.Capturing() {
		t.Fatal("Esc left the question open")
	}
	p.Update(keyOf("x"))
	var want api.OrderID
	for i, o := range p.choosing {
		if o.OrderID == 8 {
			want = o.OrderID
			cmd := p.Update(keyOf(string(rune('1' + i))))
			if m, ok := cmd().(action.RequestMsg); !ok || m.Act.Cancel.Oid != want {
				t.Fatalf("picking order 8 asks %+v", m)
			}
		}
	}
	if want == 0 || p.Capturing() {
		t.Fatalf("order 8 not offered, or the question stayed open")
	}
}
