package orders

import (
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

// TestARungsCancelNamesTheBoundCancelAllKey (issue #33): with cancel_all on Z, the confirmation
// of X on a scale's rung offers its algorithm's two orders as one and names Z as the key that
// cancels every order. It fails if the line spells out C again whatever the binding.
func TestARungsCancelNamesTheBoundCancelAllKey(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")}}}})
	rung := func(id uint64, cloid, px string) api.OrderRecord {
		return api.OrderRecord{OrderID: api.OrderID(id), Cloid: cloid, InstrumentID: 1, Instrument: "BTC-PERP", Side: api.SideBuy,
			State: api.StateOpen, LimitPrice: decimal.RequireFromString(px), Size: decimal.RequireFromString("0.01"), Unfilled: decimal.RequireFromString("0.01")}
	}
	s.Apply(state.OrdersMsg{Gen: 1, At: now, Orders: []api.OrderRecord{rung(1, "sc1-1", "99"), rung(2, "sc1-2", "98")}})
	c := commontest.NewCommon(t, s, clock)
	keys := commontest.Rebound(t, map[string][]string{"cancel_all": {"Z"}})
	c.Keys = &keys
	p := New(c)
	p.SetSize(120, 10)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindOrders})
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("X")})
	if cmd == nil {
		t.Fatal("X on a rung asks nothing")
	}
	req, ok := cmd().(action.RequestMsg)
	if !ok {
		t.Fatalf("X on a rung: %#v", cmd())
	}
	lines := strings.Join(req.Act.Lines, "\n")
	if !strings.Contains(lines, "Other orders stay; Z cancels every order.") || !strings.Contains(lines, "2 open orders of sc1") {
		t.Fatalf("the confirmation:\n%s", lines)
	}
}
