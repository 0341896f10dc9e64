//go:build !race

package algo

// raceDetector is whether the tests run under the race detector (go test -race), where every
// request costs several times the CPU.
const raceDetector = false

// lanes is how many simulators a test that spreads its runs (acrossSims) works at once: enough
// to keep two cores busy while the runs wait on their simulators, few enough that under the race
// detector (several times the CPU for every request) an answer still comes well inside the
// windows the executor allows (a request's expiry, a lookup's grace).
const lanes = 10
