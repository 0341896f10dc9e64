package algo

import (
	"errors"
	"fmt"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
)

func TestStartedIsRunningAndEmpty(t *testing.T) {
	got := Started("a1", "chase", "BTC-PERP", "buy", decimal.RequireFromString("0.5"))
	want := Progress{ID: "a1", Kind: "chase", Instrument: "BTC-PERP", Side: "buy", Target: decimal.RequireFromString("0.5"), State: journal.AlgoRunning}
	if got.ID != want.ID || got.Kind != want.Kind || got.Instrument != want.Instrument || got.Side != want.Side ||
		!got.Target.Equal(want.Target) || got.State != want.State || !got.Filled.IsZero() || got.Detail != "" || !got.Live() {
		t.Fatalf("Started = %+v, want %+v", got, want)
	}
	if tr := Started("t1", "trail", "ETH-PERP", "", decimal.Zero); tr.Side != "" || !tr.Target.IsZero() || tr.State != journal.AlgoRunning {
		t.Fatalf("a trail's first progress = %+v: no side, no target, running", tr)
	}
}

func TestEndOf(t *testing.T) {
	boom := errors.New("book gone")
	for _, c := range []struct {
		name          string
		p             Progress
		err           error
		state, detail string
	}{
		{"done as it said", Progress{State: StateDone, Detail: "filled"}, nil, StateDone, "filled"},
		{"an error fills an empty detail", Progress{State: StateFailed}, boom, StateFailed, "book gone"},
		{"an error keeps the algorithm's own detail", Progress{State: StateFailed, Detail: "refused twice"}, boom, StateFailed, "refused twice"},
		{"unresolved stays running", Progress{State: StateFailed}, ErrUnresolved, journal.AlgoRunning, ErrUnresolved.Error()},
		{"unresolved, wrapped, stays running", Progress{State: StateStopped, Detail: "x"}, fmt.Errorf("child 3: %w", ErrUnresolved), journal.AlgoRunning, "x"},
	} {
		got := EndOf(c.p, c.err)
		if got.State != c.state || got.Detail != c.detail {
			t.Errorf("%s: EndOf = %q %q, want %q %q", c.name, got.State, got.Detail, c.state, c.detail)
		}
	}
}
