package ui

import (
	"bytes"
	"os"
	osexec "os/exec"
	"strings"
	"testing"
	"time"
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
	if os.Getenv(ownProcessEnv) == t.Name() {
		return true
	}
	args := []string{"-test.run=^" + t.Name() + "$", "-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+time.Until(d).Round(time.Second).String())
	}
	cmd := osexec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), ownProcessEnv+"="+t.Name())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// The child starts now, while the serial tests run; this test then waits for it beside the
	// other parallel tests.
	err := cmd.Start()
	t.Parallel()
	if err == nil {
		err = cmd.Wait()
	}
	switch {
	case err != nil:
		t.Fatalf("%s failed in its own process (%v):\n%s", t.Name(), err, out.String())
	case strings.Contains(out.String(), "--- SKIP: "+t.Name()+" "):
		t.Skipf("skipped in its own process:\n%s", out.String())
	case !strings.Contains(out.String(), "--- PASS: "+t.Name()+" "):
		t.Fatalf("%s did not run in its own process:\n%s", t.Name(), out.String())
	}
	t.Logf("in its own process:\n%s", out.String())
	return false
}
