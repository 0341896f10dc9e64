package headless

import (
	"os"
	"testing"

	"github.com/tradedesk/tradedesk/state/testrun"
)

// ownDirEnv names the test a child process of the test binary runs (inOwnDir).
const ownDirEnv = "HEADLESS_TEST_OWN_DIR"

// inOwnDir is for a test that needs a working directory of its own (its commands write files
// named by their flags, relative to it): t.Chdir would make it serial, and go test runs the
// serial tests first, one at a time, before any parallel test starts. inOwnDir runs it instead in
// a child process of this test binary, with only that test, its working directory a temporary
// directory: in the child it returns true and the caller goes on with the test; in this process
// it starts the child, marks the test parallel, waits for the child, logs what it printed, fails
// with it if the test failed there or did not run (skips if it skipped), and returns false (the
// caller returns).
//
// Under -race the package's tests are bound by the CPU, not by waits, so a test beside them
// gains nothing and one core would double its time: there inOwnDir changes the working
// directory (t.Chdir, the test stays serial) and returns true.
func inOwnDir(t *testing.T) bool {
	t.Helper()
	if os.Getenv(ownDirEnv) == t.Name() {
		return true
	}
	if raceBuild {
		t.Chdir(t.TempDir())
		return true
	}
	return testrun.InChild(t, ownDirEnv, t.TempDir())
}
