package alert

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// d is a decimal from a string.
func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestEachPriceFieldAndDirection (issue #37): `last <` reads the last price, `mid >` the mid
// (from the mids when there are, else the ticker's), `funding >` and `funding <` the ticker's
// funding rate; each fires on its own value crossing, not on the others'.
func TestEachPriceFieldAndDirection(t *testing.T) {
	now := t0
	s := state.New(func() time.Time { return now })
	e := New()
	e.Set([]Rule{mustParse(t, "btc-perp last < 90000"), mustParse(t, "btc-perp mid > 101000"),
		mustParse(t, "btc-perp funding > 0.01%"), mustParse(t, "btc-perp funding < -0.01%")})
	step := func(mark, last, mid, rate string) []string {
		now = now.Add(time.Minute)
		tk := state.TickersMsg{Gen: uint64(now.Unix()), At: now, Tickers: []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: d(mark), LastPrice: d(last),
			MidPrice: d(mark), FundingRate: d(rate), LastUpdated: api.Time{Time: now}}}}
		mids := state.MidsMsg{Gen: uint64(now.Unix()), At: now, Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d(mid)}}}
		s.Apply(tk)
		s.Apply(mids)
		var out []string
		for _, ev := range e.Check(now, s, Link{ExchangeUp: true}, tk, mids) {
			out = append(out, ev.Rule)
		}
		return out
	}
	if got := step("100000", "100000", "100000", "0"); len(got) != 0 {
		t.Fatalf("at start: %v", got)
	}
	if got := step("89000", "95000", "100000", "0"); len(got) != 0 {
		t.Fatalf("the mark under 90,000 fired %v (the rule reads the last price)", got)
	}
	if got := step("95000", "89000", "100000", "0.0002"); len(got) != 2 || got[0] != "BTC-PERP last < 90000" || got[1] != "BTC-PERP funding > 0.01%" {
		t.Fatalf("last under 90,000 and the rate over 0.01%%: %v", got)
	}
	if got := step("102000", "100000", "100000", "0"); len(got) != 0 {
		t.Fatalf("the mark over 101,000 fired %v (the rule reads the mid)", got)
	}
	if got := step("100000", "100000", "101500", "-0.0002"); len(got) != 2 || got[0] != "BTC-PERP mid > 101000" || got[1] != "BTC-PERP funding < -0.01%" {
		t.Fatalf("the mid over 101,000 and the rate under -0.01%%: %v", got)
	}
}

// TestMarginReassertsAtStart (issue #37): an account already over `margin > 50%` fires at the
// first check of each start (the process cannot know how long it was away), once; a price rule
// already past its level at start does not.
func TestMarginReassertsAtStart(t *testing.T) {
	s := state.New(func() time.Time { return t0 })
	acct := state.AccountMsg{Gen: 1, At: t0, Summary: api.AccountSummary{MarginBalance: d("1000"), InitialMargin: d("600")}}
	s.Apply(acct)
	for range 2 {
		e := New()
		e.Set([]Rule{mustParse(t, "margin > 50%")})
		evs := e.Check(t0, s, Link{ExchangeUp: true}, acct)
		if len(evs) != 1 || evs[0].Value != "60" || evs[0].Threshold != "50" {
			t.Fatalf("at start: %+v", evs)
		}
		if evs := e.Check(t0.Add(time.Hour), s, Link{ExchangeUp: true}, acct); len(evs) != 0 {
			t.Fatalf("said twice: %+v", evs)
		}
	}
}

// TestAPartialFill (issue #37): a fill that leaves its order open fires `partial` and `fills`; the
// fill that ends the order fires `fills` only.
func TestAPartialFill(t *testing.T) {
	s := state.New(func() time.Time { return t0 })
	e := New()
	e.Set([]Rule{mustParse(t, "partial"), mustParse(t, "btc fills")})
	order := api.OrderRecord{OrderID: 7, Instrument: "BTC-PERP", State: api.StateOpen, Size: d("1"), Unfilled: d("1")}
	fill := func(trade int, size string) api.Fill {
		return api.Fill{Instrument: "BTC-PERP", OrderID: 7, TradeID: api.TradeID(trade), Size: d(size), Price: d("100000")}
	}
	check := func(gen uint64, open []api.OrderRecord, fills ...api.Fill) []string {
		msgs := []state.Msg{state.OrdersMsg{Gen: gen, At: t0, Orders: open}, state.FillsMsg{Gen: gen, At: t0, Page: api.Page[api.Fill]{Page: 1, Data: fills}}}
		for _, m := range msgs {
			s.Apply(m)
		}
		var out []string
		for _, ev := range e.Check(t0, s, Link{ExchangeUp: true}, msgs...) {
			out = append(out, ev.Rule+": "+ev.Text)
		}
		return out
	}
	if got := check(1, []api.OrderRecord{order}); len(got) != 0 {
		t.Fatalf("at start: %v", got)
	}
	order.Unfilled = d("0.6")
	if got := check(2, []api.OrderRecord{order}, fill(1, "0.4")); len(got) != 2 || got[0] != "partial: BTC-PERP order partly filled: 0.4 @ 100000" ||
		got[1] != "BTC fill: BTC-PERP order partly filled: 0.4 @ 100000" {
		t.Fatalf("a partial fill: %q", got)
	}
	if got := check(3, nil, fill(2, "0.6"), fill(1, "0.4")); len(got) != 1 || got[0] != "BTC fill: BTC-PERP order filled: 0.6 @ 100000" {
		t.Fatalf("the last fill: %q", got)
	}
}
