package headless

import (
	"fmt"
	"os"
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
// api.Stream's, which now holds a new connection's records until its status says up.)
func TestMain(m *testing.M) {
	testrun.Parallel(16)
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
