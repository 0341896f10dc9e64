package ui

import (
	"testing"

	"github.com/tradedesk/tradedesk/state/testrun"
)

// ownProcessTests is how many tests call ownProcess: parallelForWaits adds a parallel slot for
// each, as they hold one while they wait for their child (five of eight, they left the tests
// declared last to start 50 s late under -race).
const ownProcessTests = 5

// ownProcessEnv names the test a child process of the test binary runs (ownProcess).
const ownProcessEnv = "UI_TEST_OWN_PROCESS"

// ownProcess is for a test that measures the whole process (its live heap, its goroutines):
// such a test must have the process to itself, so it cannot run beside the others, and run
// serially it held every other test back (go test runs the serial tests first, one at a time).
// ownProcess runs it instead in a child process of this test binary, with only that test: in
// the child it returns true and the caller goes on with the test; in this process it starts the
// child at once (while the serial tests run), marks the test parallel, waits for the child, logs
// what it printed, fails with it if the test failed there or did not run (skips if it skipped),
// and returns false (the caller returns).
func ownProcess(t *testing.T) bool {
	t.Helper()
	return testrun.InChild(t, ownProcessEnv, "")
}
