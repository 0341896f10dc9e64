package action

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// recheckStore is a store of BTC-PERP at mark 97,000 on a clock the test moves, a funded account
// and one resting buy (order 7).
func recheckStore(now *time.Time) *state.Store {
	s := state.New(func() time.Time { return *now })
	dec := decimal.RequireFromString
	s.Apply(state.InstrumentsMsg{Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: dec("0.1"), LotSize: dec("0.001"), MinNotionalUSD: dec("10"), MaxLeverage: dec("50")}}}})
	setMark(s, "97000")
	s.Apply(state.AccountMsg{Summary: api.AccountSummary{TotalAccountEquity: dec("100000"), MarginBalance: dec("100000"), AvailableBalance: dec("100000")}})
	s.Apply(state.OrdersMsg{Orders: []api.OrderRecord{{OrderID: 7, Instrument: "BTC-PERP", InstrumentID: 1, Side: api.SideBuy,
		LimitPrice: dec("96000"), Size: dec("0.1"), Unfilled: dec("0.1"), State: api.StateOpen, Tif: api.TifGTC}}})
	return s
}

func setMark(s *state.Store, mark string) {
	m := decimal.RequireFromString(mark)
	tick := decimal.RequireFromString("0.1")
	s.Apply(state.TickersMsg{Tickers: []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: m, MidPrice: m, BestBidPrice: m.Sub(tick), BestAskPrice: m.Add(tick)}}})
	s.Apply(state.MidsMsg{Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: m}}})
}

// TestCheckAgainOnEnter (issue #31 #6): a confirmed order is checked again against the store on
// Enter. Nothing moved within 10 s: it is sent as confirmed. The worst price moved against the
// buyer, prices turned stale, or the dialog was open over 10 s (by the store's clock, stepped):
// it is built again and asked again, saying why; a move in the buyer's favour is sent. A move of
// a resting order whose order has partly filled or gone since is asked again or refused. Guards
// the confirmation built on open and sent on Enter however much later.
func TestCheckAgainOnEnter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := recheckStore(&now)
	st := common.NewStyles(commontest.Theme)
	g := state.DefaultGuard()
	in := state.OrderIntent{Instrument: "BTC-PERP", Side: api.SideBuy, Type: state.Market, Size: "0.01", Cloid: state.NewCloid()}
	recheck := RecheckOrder(s, g, st, KindPlace, state.BracketIntent{Entry: in})
	a, refused := recheck()
	if refused != "" {
		t.Fatal(refused)
	}
	a.Recheck = recheck
	opened := now
	again := func(what string, want string) Again {
		t.Helper()
		ag := CheckAgain(a, opened, now)
		switch {
		case want == "" && !ag.Send:
			t.Errorf("%s: not sent (%q %q)", what, ag.Why, ag.Refused)
		case want != "" && (ag.Send || ag.Fresh == nil || !strings.Contains(ag.Why, want)):
			t.Errorf("%s: send %v, why %q; want %q", what, ag.Send, ag.Why, want)
		}
		return ag
	}
	now = now.Add(4 * time.Second)
	setMark(s, "97000")
	again("nothing moved in 4s", "")
	setMark(s, "97100")
	ag := again("the mark up 100", "the worst price moved from ")
	if !ag.Fresh.Confirm || ag.Fresh.Recheck == nil || ag.Fresh.Order.Wire.Cloid != in.Cloid {
		t.Errorf("the refreshed action: confirm %v, recheck %v, cloid %q", ag.Fresh.Confirm, ag.Fresh.Recheck != nil, ag.Fresh.Order.Wire.Cloid)
	}
	setMark(s, "96900")
	again("the mark down 100 (the buyer's favour)", "")
	now = now.Add(30 * time.Second)
	opened = now.Add(-time.Second)
	again("prices 30s old", "prices are now 30s old")
	setMark(s, "96900")
	opened = now.Add(-11 * time.Second)
	again("open 11s", "it was open 11s")

	// A move of order 7: partly filled since, then gone.
	opened = now
	old := s.Orders()[0]
	mv, why := AmendOf(s, g, st, old, "96100", "")
	if why != "" {
		t.Fatal(why)
	}
	if ag := CheckAgain(mv, opened, now); !ag.Send {
		t.Errorf("an unchanged move is not sent: %q %q", ag.Why, ag.Refused)
	}
	part := old
	part.Unfilled = decimal.RequireFromString("0.04")
	s.Apply(state.OrdersMsg{Orders: []api.OrderRecord{part}})
	if ag := CheckAgain(mv, opened, now); ag.Fresh == nil || !strings.Contains(ag.Why, "the size is now 0.040, not 0.100") {
		t.Errorf("a move of a partly filled order: send %v, why %q", ag.Send, ag.Why)
	}
	s.Apply(state.OrdersMsg{Orders: []api.OrderRecord{}})
	if ag := CheckAgain(mv, opened, now); ag.Refused != "order not moved: order 7 is no longer open" {
		t.Errorf("a move of an order gone: %+v", ag)
	}
}

// TestMovedReadsEachKind: the second check compares a bracket's legs, and a position's
// take-profit and stop-loss, not only the entry order they carry. Guards a leg that moved behind
// an entry that did not.
func TestMovedReadsEachKind(t *testing.T) {
	dec := decimal.RequireFromString
	in := state.Instrument{Name: "BTC-PERP", TickSize: dec("0.1"), LotSize: dec("0.001")}
	entry := state.CheckedOrder{Wire: api.OrderWire{Side: api.SideBuy}, Instrument: in, Price: dec("97000"), Size: dec("0.1")}
	b := &Action{Bracket: state.CheckedBracket{Entry: entry, TP: dec("99000"), Wires: []api.OrderWire{{}}}, Order: entry}
	fb := &Action{Bracket: b.Bracket, Order: entry}
	fb.Bracket.TP = dec("99100")
	if got := strings.Join(Moved(b, fb), "; "); got != "the take-profit moved from 99,000.0 to 99,100.0" {
		t.Errorf("a bracket whose take-profit moved: %q", got)
	}
	pt := state.PositionTpsl{Instrument: in, Position: api.Position{Size: dec("0.1")}, SL: dec("95000")}
	a := &Action{Kind: KindPositionTpsl, Tpsl: pt, Order: entry}
	fresh := &Action{Kind: KindPositionTpsl, Tpsl: pt, Order: entry}
	fresh.Tpsl.SL = dec("95100")
	if got := strings.Join(Moved(a, fresh), "; "); got != "the stop-loss moved from 95,000.0 to 95,100.0" {
		t.Errorf("a position's stop that moved: %q", got)
	}
}
