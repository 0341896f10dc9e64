package testrun

import (
	"bytes"
	"os"
	osexec "os/exec"
	"strings"
	"testing"
	"time"
)

// InChild runs the calling test alone in a child process of the test binary, for a test that
// must have the process to itself (it measures the heap or goroutines) or a working directory of
// its own, yet should not run serially (go test runs the serial tests first, one at a time,
// holding every parallel test back). env names the variable that tells the child which test it
// runs; dir, when not "", is the child's working directory. In the child it returns true and the
// caller goes on with the test; in this process it starts the child at once (while the serial
// tests run), marks the test parallel, waits for the child, logs what it printed, fails with it
// if the test failed there or did not run (skips if it skipped), and returns false (the caller
// returns).
func InChild(t *testing.T, env, dir string) bool {
	t.Helper()
	if os.Getenv(env) == t.Name() {
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
	cmd.Env = append(os.Environ(), env+"="+t.Name())
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
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
