package ladder

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestReboundAmendPriceKeys (issue #33, 5): with text_submit on ctrl+s, the typed amend price is
// not entered by Enter, ctrl+s enters it (one amend asked), and the footer names ctrl+s. It fails
// if the ladder reads Enter as a hard-coded key again.
func TestReboundAmendPriceKeys(t *testing.T) {
	s := state.New(func() time.Time { return t0 })
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")}}}})
	s.Apply(state.BookMsg{Gen: 1, At: t0, Book: book()})
	s.Apply(state.AccountMsg{Gen: 1, At: t0, Summary: api.AccountSummary{TotalAccountEquity: decimal.NewFromInt(100000),
		MarginBalance: decimal.NewFromInt(100000), AvailableBalance: decimal.NewFromInt(100000)}})
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{ownOrder(1, api.SideBuy, "99.8", "0.1")}})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	keys := commontest.Rebound(t, map[string][]string{"text_submit": {"ctrl+s"}})
	c.Keys = &keys
	c.SetInstrument("BTC-PERP")
	p := New(c)
	p.SetSize(60, 20)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindBook})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	p.Update(keyOf("n"))
	p.Update(keyOf("p"))
	for _, r := range "99.6" {
		p.Update(keyOf(string(r)))
	}
	var hints []string
	for _, b := range p.ShortHelp() {
		hints = append(hints, b.Help().Key)
	}
	if !slices.Contains(hints, "ctrl+s") || slices.Contains(hints, "Enter") {
		t.Errorf("typing a price, the footer names %v, want ctrl+s", hints)
	}
	if cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil || !p.Capturing() {
		t.Fatal("Enter entered the price though text_submit is ctrl+s")
	}
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if cmd == nil {
		t.Fatal("ctrl+s did not enter the price")
	}
	if m, ok := cmd().(action.RequestMsg); !ok || m.Act.Amend.OrderID != 1 || p.Capturing() {
		t.Errorf("ctrl+s asks %T %+v, still typing %v; want order 1 amended", cmd(), m, p.Capturing())
	}
}

// TestAmendMovesTheOneOrderATick: K and J move the trader's one order on the cursor's row a tick
// up and down (one amend asked, at 99.9 and 99.7 from 99.8); a typed price equal to the order's
// is refused; on a grouped row holding two orders, K asks nothing; read-only, nothing is asked.
// Guards the tick and its direction, the one-order rule, the read-only check and the refusal of
// a move to where the order is (mutants ladder/amend-*, amend/unchanged-refused).
func TestAmendMovesTheOneOrderATick(t *testing.T) {
	p, s := newLadder(t)
	s.Apply(state.AccountMsg{Gen: 1, At: t0, Summary: api.AccountSummary{TotalAccountEquity: decimal.NewFromInt(100000),
		MarginBalance: decimal.NewFromInt(100000), AvailableBalance: decimal.NewFromInt(100000)}})
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{ownOrder(7, api.SideBuy, "99.6", "0.25"), ownOrder(8, api.SideBuy, "99.8", "0.5")}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	if !p.MoveToPrice(api.SideBuy, decimal.RequireFromString("99.8")) {
		t.Fatalf("no 99.8 row:\n%s", p.View())
	}
	for key, want := range map[string]string{"K": "99.9", "J": "99.7"} {
		cmd := p.Update(keyOf(key))
		m, ok := cmd().(action.RequestMsg)
		if !ok || m.Act.Amend.OrderID != 8 || m.Act.Order.Wire.Price != want {
			t.Errorf("%s asks %+v, want order 8 moved to %s", key, cmd(), want)
		}
	}
	p.Update(keyOf("p"))
	for _, r := range "99.8" {
		p.Update(keyOf(string(r)))
	}
	if n, ok := p.Update(tea.KeyMsg{Type: tea.KeyEnter})().(common.NoticeMsg); !ok || !strings.Contains(n.Text, "the price and size are those it has") {
		t.Errorf("a move to where the order is: %+v", n)
	}
	p.ReadOnly = "watching"
	if n, ok := p.Update(keyOf("K"))().(common.NoticeMsg); !ok || !strings.Contains(n.Text, "read-only") && !strings.Contains(n.Text, "watching") {
		t.Errorf("read-only, K asks %+v", n)
	}
	p.ReadOnly = ""
	p.Update(keyOf("+"))
	p.Update(keyOf("+")) // ×5: 99.8 and 99.6 share the 99.5 row
	if !p.MoveToPrice(api.SideBuy, decimal.RequireFromString("99.5")) {
		t.Fatalf("no 99.5 row:\n%s", p.View())
	}
	if cmd := p.Update(keyOf("K")); cmd != nil {
		if _, ok := cmd().(action.RequestMsg); ok {
			t.Error("K on a row of two orders moved one")
		}
	}
}

// TestReboundPickKeys (issue #33): with ladder_pick on a and s, x on a grouped row holding two of
// the trader's orders lists them as a and s, the footer names "a-s", a digit picks nothing, and
// the key listed beside order 8 cancels it. It fails if the pick reads the digits again.
func TestReboundPickKeys(t *testing.T) {
	p, s := newLadder(t)
	keys := commontest.Rebound(t, map[string][]string{"ladder_pick": {"a", "s"}})
	p.Keys = &keys
	s.Apply(state.OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{ownOrder(7, api.SideBuy, "99.6", "0.25"), ownOrder(8, api.SideBuy, "99.8", "0.5")}})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	p.Update(keyOf("+"))
	p.Update(keyOf("+")) // ×5: 99.8 and 99.6 share the 99.5 row
	if !p.MoveToPrice(api.SideBuy, decimal.RequireFromString("99.5")) {
		t.Fatalf("no 99.5 row:\n%s", p.View())
	}
	p.Update(keyOf("x"))
	if line := p.choiceLine(); !strings.HasPrefix(line, "cancel which? · a buy ") || !strings.Contains(line, " · s buy ") {
		t.Fatalf("the question %q does not list the orders by a and s", line)
	}
	if help := p.ShortHelp()[0].Help(); help.Key != "a-s" || help.Desc != "cancel that one" {
		t.Errorf("the footer names %q %q, want a-s", help.Key, help.Desc)
	}
	if cmd := p.Update(keyOf("1")); cmd != nil || !p.Capturing() {
		t.Fatal("1 picked an order though ladder_pick is a and s")
	}
	pick := "a"
	if p.choosing[1].OrderID == 8 {
		pick = "s"
	}
	cmd := p.Update(keyOf(pick))
	if m, ok := cmd().(action.RequestMsg); !ok || m.Act.Cancel.Oid != 8 || p.Capturing() {
		t.Fatalf("%s asks %+v, still asking %v; want order 8 cancelled", pick, m, p.Capturing())
	}
}
