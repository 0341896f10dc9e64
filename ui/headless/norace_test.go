//go:build !race

package headless

// parallelTests is how many parallel tests run at once: most of their time is waiting on
// simulators, a chase's once-a-second reprice and the guard's clocks, so the package's CPU is
// the same at 4, 8 and 16 and its wall time falls from 18 s to 11 s.
const parallelTests = 16
