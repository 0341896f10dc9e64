package orderentry

import (
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestDataThatChangedNothingChecksNothing: the market and account kinds of one streamed batch
// each tell the form; once checked, the next ones with nothing new compute no preview and keep
// the drawn form. A new mark checks again and is drawn; prices going stale with no data, and a
// kind the check reads but the form is not told of (the open orders), check again too. Guards:
// the form checking the order (fees, margin, liquidation) and drawing itself for every kind of
// every batch (issue #34's idle profile).
func TestDataThatChangedNothingChecksNothing(t *testing.T) {
	now := t0
	p, s := batchForm(t, &now)
	ticker := func(mark string) { s.Apply(markAt(now, mark)) }
	batch := func() {
		for _, k := range []state.Kind{state.KindTickers, state.KindMids, state.KindAccount, state.KindPositions} {
			p.Update(common.DataMsg{Kind: k})
		}
	}
	batch()
	_ = p.View()
	sentinel := d("-1")
	p.checked.Preview.Fee = sentinel // a check would replace it
	batch()
	if !p.checked.Preview.Fee.Equal(sentinel) || !p.drawn {
		t.Fatalf("a batch with nothing new checked the order again (fee %s) or drew the form again (drawn %v)", p.checked.Preview.Fee, p.drawn)
	}
	ticker("97100")
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if p.checked.Preview.Fee.Equal(sentinel) || !strings.Contains(p.View(), "mark 97,100") {
		t.Fatalf("a new mark was not checked or drawn:\n%s", p.View())
	}
	p.checked.Preview.Fee = sentinel
	s.Apply(state.OrdersMsg{Gen: 1, At: now})
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if p.checked.Preview.Fee.Equal(sentinel) {
		t.Fatal("the open orders changed (margin the check counts) and the order was not checked again")
	}
	now = now.Add(time.Hour)
	p.Update(common.DataMsg{Kind: state.KindMids})
	if v := p.View(); !strings.Contains(v, "stale") || len(p.checked.Warnings) == 0 {
		t.Fatalf("prices an hour old with no data since: no stale warning or marker (%v %v %v):\n%s", p.checked.Warnings, p.errs, p.checked.PricesStale, v)
	}
}

// batchForm is a form with a limit order typed over a store whose clock is *now.
func batchForm(t testing.TB, now *time.Time) (*Pane, *state.Store) {
	clock := func() time.Time { return *now }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	s.Apply(markAt(t0, "97000"))
	s.Apply(state.AccountMsg{Gen: 1, At: t0, Summary: api.AccountSummary{TotalAccountEquity: d("100000"),
		MarginBalance: d("100000"), AvailableBalance: d("100000")}})
	p := New(commontest.NewCommon(t, s, clock), "DEMO", new(bool))
	p.SetSize(46, 24)
	p.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	return p, s
}

// markAt is the tickers with BTC-PERP at mark.
func markAt(at time.Time, mark string) state.TickersMsg {
	return state.TickersMsg{Gen: 1, At: at, Tickers: []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: d(mark),
		LastPrice: d(mark), MidPrice: d(mark), BestBidPrice: d(mark), BestAskPrice: d(mark)}}}
}

// BenchmarkFormBatch is the form's part of a streamed batch that moved its mark: the batch's four
// kinds told to the form, then its view.
func BenchmarkFormBatch(b *testing.B) {
	now := t0
	p, s := batchForm(b, &now)
	marks := [2]state.TickersMsg{markAt(now, "97000"), markAt(now, "97000.5")}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Apply(marks[i%2])
		for _, k := range []state.Kind{state.KindTickers, state.KindMids, state.KindAccount, state.KindPositions} {
			p.Update(common.DataMsg{Kind: k})
		}
		_ = p.View()
	}
}

// TestCompletionIsFoundOnceForATypedText: the instrument field's completion is looked for once
// for a text typed and the instruments known (the form draws it with every move of the market),
// and again when either changes. Guards: every draw scanning every instrument's name (500 with
// --markets 500, issue #34).
func TestCompletionIsFoundOnceForATypedText(t *testing.T) {
	now := t0
	p, s := batchForm(t, &now)
	p.SetValue(FieldInstrument, "BT")
	if c, n := p.completion(); c != "BTC-PERP" || n != 1 {
		t.Fatalf("completion of BT: %q (%d)", c, n)
	}
	p.found.first = "SENTINEL" // a scan would replace it
	if c, _ := p.completion(); c != "SENTINEL" {
		t.Fatalf("the completion was looked for again (%q) with nothing changed", c)
	}
	s.Apply(state.InstrumentsMsg{Gen: 2, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001")}, {ID: 2, Name: "BTT-PERP", TickSize: d("0.1"), LotSize: d("0.001")}}}})
	if c, n := p.completion(); c != "BTC-PERP" || n != 2 {
		t.Fatalf("after the instruments changed, the completion of BT is %q (%d), want BTC-PERP of 2", c, n)
	}
	p.SetValue(FieldInstrument, "BTT")
	if c, n := p.completion(); c != "BTT-PERP" || n != 1 {
		t.Fatalf("completion of BTT: %q (%d)", c, n)
	}
}

// TestAStopAtMarketFollowsTheMidsAge: a stop that executes at market reads its prices' age as a
// market order does (the mids' when they are the older and stale): with the tickers fresh and the
// mids stale, a batch with nothing new still checks and draws the older age. Guards: the check's
// key holding the prices' age as a limit order reads it only, the form's marker then frozen.
func TestAStopAtMarketFollowsTheMidsAge(t *testing.T) {
	now := t0
	p, s := batchForm(t, &now)
	s.Apply(state.MidsMsg{Gen: 1, At: now, Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("97000")}}})
	p.SetOrderType("sl")
	p.SetValue(FieldTrigger, "96000")
	p.SetValue(FieldPrice, "")
	now = now.Add(time.Minute)
	s.Apply(markAt(now, "97000")) // the tickers fresh, the mids a minute old
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if v := p.View(); !strings.Contains(v, "stale 1m00s") {
		t.Fatalf("a stop at market with the mids a minute old shows no stale marker:\n%s", v)
	}
	now = now.Add(2 * time.Second)
	p.Update(common.DataMsg{Kind: state.KindMids})
	if v := p.View(); !strings.Contains(v, "stale 1m02s") {
		t.Fatalf("two seconds later the marker was not drawn again:\n%s", v)
	}
}
