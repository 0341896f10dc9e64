package cli

import (
	"os"
	"testing"

	"github.com/tradedesk/tradedesk/state/testrun"
)

// TestMain lets the parallel tests (a build, a simulator's lost answers, the help of every
// command) run at once (testrun.Parallel).
func TestMain(m *testing.M) {
	testrun.Parallel(4)
	os.Exit(m.Run())
}
