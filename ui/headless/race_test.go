//go:build race

package headless

// parallelTests is how many parallel tests run at once under -race: the run is CPU-bound there
// (more at once saves no time) and a test that waits on the wall clock gets less of the CPU.
const parallelTests = 4
