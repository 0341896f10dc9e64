package alert

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// place sends one order through the preview's check and returns its id.
func (e *simEnv) place(t *testing.T, in state.OrderIntent) api.OrderID {
	t.Helper()
	e.load(t)
	co, errs := e.store.CheckOrder(in, state.Guard{})
	if len(errs) > 0 {
		t.Fatalf("%+v: %v", in, errs)
	}
	resp, err := e.client.PlaceOrders(context.Background(), []api.OrderWire{co.Wire})
	must(t, err)
	os, err := e.client.OpenOrders(context.Background(), e.client.Address(), api.PageParams{})
	must(t, err)
	for _, o := range os.Data {
		if o.Cloid == co.Wire.Cloid {
			return o.OrderID
		}
	}
	t.Fatalf("order %+v not open: %+v", in, resp)
	return 0
}

// pollOrders polls the open orders and the order history's newest page into the store, as a
// session without a stream does, and checks the engine.
func (e *simEnv) pollOrders(t *testing.T, eng *Engine, gen uint64) []Event {
	t.Helper()
	ctx, user := context.Background(), e.client.Address()
	os, err := e.client.OpenOrders(ctx, user, api.PageParams{})
	must(t, err)
	h, err := e.client.OrderHistory(ctx, user, api.PageParams{Page: 1, Limit: 50})
	must(t, err)
	msgs := []state.Msg{state.OrdersMsg{Gen: gen, At: e.clock.Now(), Orders: os.Data}, state.HistoryMsg{Gen: gen, At: e.clock.Now(), Page: h}}
	for _, m := range msgs {
		e.store.Apply(m)
	}
	return eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, msgs...)
}

// TestCancelAndTriggerAlertsFromPollsAlone (issue #37): with no stream, an order cancelled and a
// trigger order fired on the simulator (its market moved through the control) each fire their
// alert once, read off the polled order history; the same cancel streamed afterwards, and later
// polls, fire nothing more; an order cancelled before the start is not news. Mutant
// alert/closed-twice.
func TestCancelAndTriggerAlertsFromPollsAlone(t *testing.T) {
	e := newSimEnv(t, 100000)
	e.control(t, `{"instrument":"BTC-PERP","pause":true}`)
	mark := e.control(t, `{"instrument":"BTC-PERP","index":"100000"}`)
	limit := func(px string) state.OrderIntent {
		return state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: state.Limit, Price: px, Size: "0.01"}
	}
	old := e.place(t, limit("90000"))
	_, err := e.client.CancelByOid(context.Background(), []api.CancelOid{{Oid: old, InstrumentID: e.store.Instruments()[0].ID}})
	must(t, err)
	eng := New()
	eng.Set([]Rule{mustParse(t, "btc cancel"), mustParse(t, "btc trigger"), mustParse(t, "eth cancel")})
	if evs := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, e.load(t)...); len(evs) != 0 {
		t.Fatalf("before the history: %+v", evs)
	}
	if evs := e.pollOrders(t, eng, 1); len(evs) != 0 {
		t.Fatalf("a cancel from before the start fired: %+v", evs)
	}
	resting := e.place(t, limit("90000"))
	e.place(t, state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: state.Trigger, Price: "95000", TriggerPx: mark.Mul(decimal.RequireFromString("1.02")).Round(0).String(), Size: "0.01", Tpsl: "sl"})
	_, err = e.client.CancelByOid(context.Background(), []api.CancelOid{{Oid: resting, InstrumentID: e.store.Instruments()[0].ID}})
	must(t, err)
	e.control(t, `{"instrument":"BTC-PERP","index":"103000"}`)
	e.clock.Add(time.Second)
	fired := e.pollOrders(t, eng, 2)
	if len(fired) != 2 || fired[0].Rule != "BTC cancel" || fired[1].Rule != "BTC trigger" || fired[1].Threshold != "102000" {
		t.Fatalf("a cancel and a trigger, polled, fired %+v", fired)
	}
	var hist []api.OrderRecord
	for _, o := range e.store.History() {
		if o.OrderID == resting {
			hist = append(hist, o)
		}
	}
	if len(hist) != 1 || hist[0].State != api.StateCancelled {
		t.Fatalf("history of the cancelled order: %+v", hist)
	}
	stream := state.OrderUpdateMsg{At: e.clock.Now(), Record: hist[0]}
	e.store.Apply(stream)
	again := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, stream)
	again = append(again, e.pollOrders(t, eng, 3)...)
	if len(again) != 0 {
		t.Fatalf("the cancel streamed after its poll, and a later poll, fired %+v", again)
	}
	t.Logf("%s; %s", fired[0].Text, fired[1].Text)
}

// TestOlderPagesAreNotNews (issue #37): the rows of an older page (a fills, history or Funding
// view scrolled down in the console) fire nothing; a new row of the newest page still fires.
func TestOlderPagesAreNotNews(t *testing.T) {
	s := state.New(func() time.Time { return t0 })
	eng := New()
	eng.Set([]Rule{mustParse(t, "fills"), mustParse(t, "cancel"), mustParse(t, "funding payment > 1")})
	at := func(min int) api.Time { return api.Time{Time: t0.Add(time.Duration(min) * time.Minute)} }
	fill := func(id int, min int) api.Fill {
		return api.Fill{Instrument: "BTC-PERP", OrderID: api.OrderID(id), TradeID: api.TradeID(id), Price: decimal.NewFromInt(1), Size: decimal.NewFromInt(1), BlockTime: at(min)}
	}
	pay := func(min int) api.FundingPayment {
		return api.FundingPayment{InstrumentID: 1, Payment: decimal.NewFromInt(-5), Time: at(min)}
	}
	gone := func(id int, min int) api.OrderRecord {
		return api.OrderRecord{OrderID: api.OrderID(id), Instrument: "BTC-PERP", State: api.StateCancelled, Size: decimal.NewFromInt(1), Timestamp: at(min)}
	}
	check := func(msgs ...state.Msg) []Event {
		for _, m := range msgs {
			s.Apply(m)
		}
		return eng.Check(t0, s, Link{ExchangeUp: true}, msgs...)
	}
	page := func(n int) (api.Page[api.Fill], api.Page[api.FundingPayment], api.Page[api.OrderRecord]) {
		return api.Page[api.Fill]{Page: n, HasNext: n == 1}, api.Page[api.FundingPayment]{Page: n, HasNext: n == 1}, api.Page[api.OrderRecord]{Page: n, HasNext: n == 1}
	}
	f1, p1, h1 := page(1)
	f1.Data, p1.Data, h1.Data = []api.Fill{fill(10, 10)}, []api.FundingPayment{pay(60)}, []api.OrderRecord{gone(10, 10)}
	if evs := check(state.FillsMsg{Gen: 1, Page: f1}, state.FundingMsg{Gen: 1, Page: p1}, state.HistoryMsg{Gen: 1, Page: h1}); len(evs) != 0 {
		t.Fatalf("at start: %+v", evs)
	}
	f2, p2, h2 := page(2)
	f2.Data, p2.Data, h2.Data = []api.Fill{fill(5, 5)}, []api.FundingPayment{pay(0)}, []api.OrderRecord{gone(5, 5)}
	if evs := check(state.FillsMsg{Gen: 2, Page: f2}, state.FundingMsg{Gen: 2, Page: p2}, state.HistoryMsg{Gen: 2, Page: h2}); len(evs) != 0 {
		t.Fatalf("older pages fired %+v", evs)
	}
	f1.Data = append([]api.Fill{fill(11, 20)}, f1.Data...)
	if evs := check(state.FillsMsg{Gen: 3, Page: f1}); len(evs) != 1 {
		t.Fatalf("a new fill on the newest page fired %+v", evs)
	}
}
