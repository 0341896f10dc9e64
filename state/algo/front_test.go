package algo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
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

// TestFinishRecordsReportsAndFails: an algorithm's end is in the journal (its state and its
// summary) before it is reported and its id handed to Ended; a failure comes back as its detail;
// an end the journal cannot take is returned and not reported.
func TestFinishRecordsReportsAndFails(t *testing.T) {
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.db"))
	must(t, err)
	var reported []Progress
	var ended []string
	d := &Deps{Journal: j, Report: func(p Progress) { reported = append(reported, p) }, Ended: func(id string) { ended = append(ended, id) }}
	for _, id := range []string{"fin-1", "fin-2", "fin-3"} {
		_, err := j.BeginAlgo(bg, journal.Algo{ID: id, Kind: "chase", Params: []byte(`{}`)})
		must(t, err)
	}
	done := Progress{ID: "fin-1", Kind: "chase", Target: dec("0.002"), Filled: dec("0.002"), AvgPrice: dec("97000"), Fee: dec("0.1"), State: StateDone}
	if p, err := d.finish(bg, done); err != nil || p.State != StateDone {
		t.Fatalf("done: %+v %v", p, err)
	}
	failed := Progress{ID: "fin-2", Kind: "chase", Target: dec("0.002"), State: StateFailed, Detail: "book gone"}
	if _, err := d.finish(bg, failed); err == nil || err.Error() != "book gone" {
		t.Fatalf("failed: %v, want its detail", err)
	}
	for id, want := range map[string][2]string{"fin-1": {StateDone, "filled 0.002 of 0.002 at 97000 avg, fee 0.1"}, "fin-2": {StateFailed, "filled 0 of 0.002; book gone"}} {
		a, found, err := j.GetAlgo(bg, id)
		if err != nil || !found || a.State != want[0] || a.Detail != want[1] {
			t.Fatalf("%s in the journal: %q %q (%v), want %q %q", id, a.State, a.Detail, err, want[0], want[1])
		}
	}
	if len(reported) != 2 || reported[0].ID != "fin-1" || reported[1].ID != "fin-2" || strings.Join(ended, " ") != "fin-1 fin-2" {
		t.Fatalf("reported %+v, ended %v", reported, ended)
	}
	must(t, j.Close())
	if _, err := d.finish(bg, Progress{ID: "fin-3", State: StateDone}); err == nil || len(reported) != 2 || len(ended) != 2 {
		t.Fatalf("a closed journal: %v, reported %d, ended %d", err, len(reported), len(ended))
	}
}
