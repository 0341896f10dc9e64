package ui

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state"
)

// TestTheConsoleHandsItsStreamToTheAlgorithms: the console's stream reaches its algorithms (the
// feed hands the runner each record): once it is up, a child's store for BTC-PERP takes the
// prices, the account and the positions from it, and the runner holds the chase's quote.
func TestTheConsoleHandsItsStreamToTheAlgorithms(t *testing.T) {
	t.Parallel() // waits on the simulator on wall time while the others run
	m, dr := newTradingStreamConsole(t)
	tape := m.algos.Tape()
	if tape == nil {
		t.Fatal("the runner was not handed the stream")
	}
	if !dr.until(30*time.Second, func() bool { return tape.ApplyTo(state.New(nil), "BTC-PERP") }) {
		t.Fatal("the algorithms never heard the stream's prices, account and positions")
	}
}
