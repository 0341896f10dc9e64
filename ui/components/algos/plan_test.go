package algos

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// planStore is a store with BTC-PERP (tick 0.1, lot 0.001) quoted 99,990 / 100,010, marked at
// 100,005.
func planStore(t *testing.T) (*state.Store, state.Instrument) {
	t.Helper()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	d := decimal.RequireFromString
	st := state.New(func() time.Time { return now })
	st.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MaxLeverage: decimal.NewFromInt(20)}}}})
	st.Apply(state.TickersMsg{Gen: 1, At: now, Tickers: []api.Ticker{{Symbol: "BTC-PERP", BestBidPrice: d("99990"), BestAskPrice: d("100010"),
		MarkPrice: d("100005"), MidPrice: d("100000")}}})
	inst, err := st.ResolveInstrument("BTC-PERP")
	if err != nil {
		t.Fatal(err)
	}
	return st, inst
}

// TestThePlansPreviewFromTheQuote: each algorithm's preview is priced from the quote it is fed
// (a chase from the best bid, its bound from there; a TWAP's default band 1% around the mid; a
// scale's rungs, the middle ones elided past five; a trail's distance from the mark); an
// unknown kind is refused; the start action confirms the preview and says what start said.
func TestThePlansPreviewFromTheQuote(t *testing.T) {
	store, inst := planStore(t)
	q := QuoteOf(store, "BTC-PERP")
	d := decimal.RequireFromString
	if !q.Bid.Equal(d("99990")) || !q.Ask.Equal(d("100010")) || !q.Mark.Equal(d("100005")) {
		t.Fatalf("quote %+v", q)
	}
	styles := common.NewStyles(commontest.Theme)
	r := NewRunner(nil, nil)
	plan := func(c state.AlgoCommand) string {
		t.Helper()
		lines, start, err := r.Plan(c, inst, q, styles)
		if err != nil || start == nil {
			t.Fatalf("%+v: %v", c, err)
		}
		return strings.Join(lines, "\n")
	}
	chase := plan(state.AlgoCommand{Kind: "chase", Side: "buy", Size: d("0.5"), Offset: 1, MaxDistance: "0.1%", For: time.Minute})
	for _, want := range []string{"at the best bid (1 ticks off)", "Now          99,990.0", "(0.1% from 99,990.0)", "after 1m0s; its working order is cancelled"} {
		if !strings.Contains(chase, want) {
			t.Errorf("chase preview lacks %q:\n%s", want, chase)
		}
	}
	twap := plan(state.AlgoCommand{Kind: "twap", Side: "sell", Size: d("1"), Duration: 10 * time.Minute, Slices: 5})
	if !strings.Contains(twap, "5 IOC limit slices of about 0.2") || !strings.Contains(twap, "about 99,000.0 to 101,000.0") ||
		!strings.Contains(twap, "Worst price  99,000.0") {
		t.Errorf("twap preview:\n%s", twap)
	}
	scale := plan(state.AlgoCommand{Kind: "scale", Side: "buy", Size: d("1"), From: d("99000"), To: d("99900"), Count: 10, Distribution: "flat"})
	if !strings.Contains(scale, "10 limit orders as one request") || !strings.Contains(scale, "… 6 more") || !strings.Contains(scale, "rung 10 ") ||
		strings.Contains(scale, "rung 5 ") {
		t.Errorf("scale preview:\n%s", scale)
	}
	trail := plan(state.AlgoCommand{Kind: "trail", Distance: "1%"})
	if !strings.Contains(trail, "mark about 100,005.0, distance 1,000.1") {
		t.Errorf("trail preview:\n%s", trail)
	}
	if _, _, err := r.Plan(state.AlgoCommand{Kind: "grid"}, inst, q, styles); err == nil {
		t.Error("an unknown kind is planned")
	}
	c := state.AlgoCommand{Kind: "chase", Side: "buy", Size: d("0.5"), Instrument: "BTC"}
	a := StartAction(c, inst, []string{"preview"}, func(context.Context, *exec.Executor) (string, error) { return "chase c1 started", nil }, styles)
	if !a.Confirm || a.Title != "Start chase" || a.What != "chase buy 0.5 BTC-PERP" || a.Lines[len(a.Lines)-1] != "preview" {
		t.Fatalf("start action %+v", a)
	}
	if _, err := a.Run(context.Background(), nil, exec.Ask{}); err != nil {
		t.Fatal(err)
	}
	if said, failed := a.Read(action.DoneMsg{}); said != "chase c1 started" || failed {
		t.Fatalf("read %q %v", said, failed)
	}
	if said, failed := a.Read(action.DoneMsg{Err: errors.New("refused")}); !failed || !strings.HasPrefix(said, "chase buy 0.5 BTC-PERP not started: ") {
		t.Fatalf("read of a failure %q %v", said, failed)
	}
}
