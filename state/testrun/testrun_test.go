package testrun

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// TestParallel: without -parallel on the command line the tests' parallelism is raised to n (at
// least GOMAXPROCS); a -parallel given stands.
func TestParallel(t *testing.T) {
	f := flag.Lookup("test.parallel")
	old := f.Value.String()
	t.Cleanup(func() { _ = flag.Set("test.parallel", old) })
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	Parallel(64)
	want := strconv.Itoa(max(64, runtime.GOMAXPROCS(0)))
	if given {
		want = old
	}
	if got := f.Value.String(); got != want {
		t.Fatalf("-parallel %s, want %s (given on the command line: %v)", got, want, given)
	}
}

// TestInChild: the test runs again in a child process of the test binary, alone, in the
// directory given, and passes here only because it passed there.
func TestInChild(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "marker"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if !InChild(t, "TESTRUN_IN_CHILD", dir) {
		return
	}
	if os.Getenv("TESTRUN_IN_CHILD") != t.Name() {
		t.Fatal("the test body ran in the parent process")
	}
	if _, err := os.Stat("marker"); err != nil {
		t.Fatalf("the child's working directory is not the one given: %v", err)
	}
}
