package ui

import (
	"flag"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
)

// TestMain keeps the console's log lines (slog's default logger: "action done", "order lookup")
// out of the test output; a test that reads the log installs its own handler and restores this.
// It also runs more parallel tests at once (parallelForWaits), and collects at GOGC 400: the
// consoles and simulators the tests start keep little, and at the default the collector was
// about a tenth of the binary's CPU. A test that weighs the heap collects first (liveHeap).
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	debug.SetGCPercent(400)
	flag.Parse()
	parallelForWaits()
	os.Exit(m.Run())
}

// parallelForWaits sets -parallel to four times GOMAXPROCS, plus a slot for each test run in its
// own process (ownProcessTests: each holds its slot while it only waits for its child), unless
// the command line gives it. The package's parallel tests mostly wait on wall time (a
// simulator's answers, a stream's backoff, a guard's heartbeat, an algorithm's step), not on the
// CPU: at go test's default, GOMAXPROCS at once, two of them ran at a time on two cores and left
// the cores idle (the package took 49 s at 2, 35 s at 8 on a loaded 2-core machine).
func parallelForWaits() {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)+ownProcessTests))
	}
}
