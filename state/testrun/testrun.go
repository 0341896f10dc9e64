// Package testrun is for the TestMain of a package whose tests wait on the wall clock far more
// than they compute (simulators on loopback, processes, a guard's cadences).
package testrun

import (
	"flag"
	"runtime"
	"strconv"
)

// Parallel parses the test flags and, unless -parallel was given, lets at least n tests marked
// t.Parallel run at once (go test's default is GOMAXPROCS: two on a 2-core machine, where two
// tests asleep on a timer leave the others waiting). Call it in TestMain before m.Run.
func Parallel(n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(max(n, runtime.GOMAXPROCS(0))))
	}
}
