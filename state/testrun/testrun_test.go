package testrun

import (
	"flag"
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
