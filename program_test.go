package main

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state/testrun"
)

// asProgram, set to 1 in a process's environment, makes this test binary run as tradedesk: the
// process tests start the simulator, the guard, the console and the commands from it, so the
// real main runs in each and nothing is compiled while the tests run (under -race, once:
// programBin).
const asProgram = "TRADEDESK_TEST_AS_PROGRAM"

// programEnv is the environment entry that makes programBin the program.
const programEnv = asProgram + "=1"

// asProgramBeat, a duration in the environment of a process run as the program (this test
// binary, not the one built under -race), is how often its console heartbeats its guard
// (guardBeat).
const asProgramBeat = "TRADEDESK_TEST_GUARD_BEAT"

// inChildEnv names the process test a child process of the test binary runs (processTest).
const inChildEnv = "TRADEDESK_TEST_IN_CHILD"

// processTest starts a process test (it runs the program's processes and waits on them): skipped
// with -short; else run in a child process of this test binary, started at once, while this
// package's serial tests run (go test holds a parallel test back until they are done):
// testrun.InChild. It returns true where the test goes on (the child), false in this process,
// which waited for the child and reported it. Under -race the test stays in this process,
// parallel: each child would build the program again (programBin builds it once per process).
func processTest(t *testing.T) bool {
	t.Helper()
	if testing.Short() {
		t.Skip("runs processes")
	}
	if raceBuild {
		t.Parallel()
		return true
	}
	return testrun.InChild(t, inChildEnv, "")
}

// TestMain runs the tests, or the program itself when asProgram says so. The process tests run
// at once (testrun.Parallel): they wait on their processes.
func TestMain(m *testing.M) {
	if os.Getenv(asProgram) == "1" {
		guardBeat, _ = time.ParseDuration(os.Getenv(asProgramBeat)) // "": 0, the console's own
		main()                                                      // exits
	}
	testrun.Parallel(4)
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the program built once per run of the tests under -race (builtProgram).
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// programBin is the binary the process tests run as tradedesk (with programEnv in its
// environment): this test binary, or under -race (raceBuild) the program built once without it,
// since the race detector's slowdown would stretch the timings these tests lean on (a chase
// must still rest when it is killed).
func programBin(t *testing.T) string {
	t.Helper()
	if raceBuild {
		return builtProgram(t)
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// builtProgram builds the program once for the whole run and returns its path.
func builtProgram(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "tradedesk-bin"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "tradedesk")
		built.out, built.err = osexec.Command("go", "build", "-o", built.bin, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("build: %v\n%s", built.err, built.out)
	}
	return built.bin
}
