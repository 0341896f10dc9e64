package algo

import (
	"os"
	"testing"

	"github.com/tradedesk/tradedesk/state/testrun"
)

// TestMain lets eight tests run at once unless -parallel says otherwise: each owns its
// simulator and journal and spends its time waiting on them (answers, fills, a TWAP's
// schedule). Not under the race detector: there every request costs several times the CPU, the
// cores are busy already, and more at once only makes each answer later (a TWAP's IOC then
// misses a book that moved on).
func TestMain(m *testing.M) {
	if !raceDetector {
		testrun.Parallel(8)
	}
	os.Exit(m.Run())
}
