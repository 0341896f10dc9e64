package risk

import (
	"context"
	"path/filepath"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
	rules "github.com/tradedesk/tradedesk/state/risk"
)

// created is how many goroutines the process has started.
func created() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestAnIdleReadStartsNoGoroutineAndWritesNothing (issue #34): the console's read of the
// trading state with nothing changed (the same account, observed every Every) writes nothing to
// the journal and starts no goroutine: its one statement, the risk record's point read, runs
// uncut, where under Read's cancellable context database/sql and the driver each started one to
// watch it (a wake-up of the idle console). The first read takes the day's marks (a write).
func TestAnIdleReadStartsNoGoroutineAndWritesNothing(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	j, err := journal.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	eng, err := rules.New(context.Background(), j, rules.Limits{rules.Drawdown: decimal.NewFromInt(100)}, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	acct := &rules.Account{Equity: decimal.NewFromInt(1000), Upnl: decimal.NewFromInt(5)}
	read := Read(eng, acct)
	if m := read().(Msg); m.Report == nil || m.Report.State != rules.Active {
		t.Fatalf("the first read: %+v", m)
	}
	const cycles = 50
	c0, g0 := j.Commits(), created()
	for range cycles {
		now = now.Add(Every)
		if m := read().(Msg); m.Report == nil || m.Text != "" {
			t.Fatalf("an idle read: %+v", m)
		}
	}
	if n := j.Commits() - c0; n != 0 {
		t.Fatalf("%d idle reads committed %d times: nothing changed", cycles, n)
	}
	// A few to spare for the runtime's own (a GC worker); each read started two before.
	if n := created() - g0; n > cycles/10 {
		t.Fatalf("%d idle reads started %d goroutines", cycles, n)
	}
}
