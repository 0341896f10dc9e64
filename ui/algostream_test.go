package ui

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
)

// TestTheConsoleHandsItsStreamToTheAlgorithms: the console's stream reaches its algorithms (the
// feed hands the runner each record): once it is up, a child's store for BTC-PERP takes the
// prices, the account and the positions from it, and the runner holds the chase's quote.
func TestTheConsoleHandsItsStreamToTheAlgorithms(t *testing.T) {
	t.Parallel() // waits on the simulator on wall time while the others run
	m, dr, s := newTradingStreamConsoleSim(t)
	tape := m.algos.Tape()
	if tape == nil {
		t.Fatal("the runner was not handed the stream")
	}
	// The simulator's markets are quiet: a ticker streamed before the console knew the instrument,
	// or older than the tape's quote age on a loaded machine, is not heard again unless the
	// market moves, so the test moves it a tick every 20th look (a count, not a clock).
	px, looks := decimal.NewFromInt(97000), 0
	if !dr.until(30*time.Second, func() bool {
		if looks++; looks%20 == 0 {
			px = px.Add(decimal.NewFromInt(1))
			_ = s.SetIndexPrice("BTC-PERP", px)
		}
		return tape.ApplyTo(state.New(nil), "BTC-PERP")
	}) {
		t.Fatal("the algorithms never heard the stream's prices, account and positions")
	}
}
