package headless

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points HOME and XDG_STATE_HOME at a temporary directory: a test that gives no
// Env.StateDir writes its journal there, never into the user's own state directory.
func TestMain(m *testing.M) {
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
