package headless

import (
	"fmt"
	"os"
	"runtime/debug"
	"testing"

	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/state/testrun"
)

// TestMain points HOME and XDG_STATE_HOME at a temporary directory: a test that gives no
// Env.StateDir writes its journal there, never into the user's own state directory. Keystores
// are written light for the whole run, quick to open (a user's never are: keyfile's tests hold the
// standard cost), set once here so no test sets it under another running in parallel: scrypt N 16,
// P 1, as ui's TestNoSecretInAnythingWritten (at geth's light cost, 4096 and 6, the scrypt of each
// command that opens a keystore was four fifths of TestAgentWorkflow's CPU under -race). Sixteen
// parallel tests run at once (testrun.Parallel): they wait on simulators and the guard's clocks.
// (56d5896 went back to four when TestStreamBook saw its record before the stream's "up": that was
// api.Stream's, which now holds a new connection's records until its status says up.) The
// collector runs at a fifth of its default pace (GOGC 400): the tests build a command tree for
// each command line and keep little, so at the default a fifth of the package's CPU was the
// collector's (TestPastedKeyNeverEchoed's thousands of command lines the most); the heap is
// bounded all the same, a few hundred MB.
func TestMain(m *testing.M) {
	testrun.Parallel(16)
	debug.SetGCPercent(400)
	keyfile.Scrypt.N, keyfile.Scrypt.P = 1<<4, 1
	dir, err := os.MkdirTemp("", "tradedesk-headless-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("HOME", dir)
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
