package api

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain lets eight tests marked t.Parallel run at once unless -parallel was given (go test's
// default is GOMAXPROCS, two here): the slow ones wait out a Retry-After, a retry's backoff, a
// ping's timeout or a stream's pause, and two at a time left the rest queued behind them. It
// does what testrun.Parallel does for the packages above: api sits below state and imports
// nothing of it, not even in its tests.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(max(8, runtime.GOMAXPROCS(0))))
	}
	os.Exit(m.Run())
}
