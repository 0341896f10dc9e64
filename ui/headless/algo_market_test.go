package headless

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestAnEndedAlgorithmKeepsItsMarket (issue #41): a chase run to its end by `tradedesk chase`
// leaves the market of its interval (trades, volume, VWAP) in the journal as it ends, with no
// report read: the exchange's tape is short, and a report read later still knows the
// algorithm's participation. Guards: the algorithm's Ended hook not set, or the market kept
// only when a report or card is first read.
func TestAnEndedAlgorithmKeepsItsMarket(t *testing.T) {
	t.Parallel() // waits on the simulator while the others run
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	go h.taker(ctx)
	code, out, errs := h.runCtx(context.Background(), "chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.003", "--aggressive", "--json")
	cancel()
	ps := progressLines(t, out)
	last := ps[len(ps)-1]
	if code != 0 || last.State != "done" {
		t.Fatalf("exit %d, last %+v, stderr %q", code, last, errs)
	}
	j, err := journal.Open(h.journalFile())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	m, ok, err := j.AlgoMarketOf(context.Background(), last.ID)
	if err != nil || !ok {
		t.Fatalf("the ended chase's market is not kept: %v", err)
	}
	if m.Trades == 0 || m.Volume.LessThan(decimal.RequireFromString("0.003")) || !m.VWAP.IsPositive() || m.To.Before(m.From) {
		t.Fatalf("kept market %+v: its own fills (0.003) are among the interval's trades", m)
	}
}
