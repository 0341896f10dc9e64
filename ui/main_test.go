package ui

import (
	"log/slog"
	"os"
	"testing"
)

// TestMain keeps the console's log lines (slog's default logger: "action done", "order lookup")
// out of the test output; a test that reads the log installs its own handler and restores this.
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	os.Exit(m.Run())
}
