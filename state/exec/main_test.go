package exec

import (
	"os"
	"testing"

	"github.com/tradedesk/tradedesk/state/testrun"
)

// TestMain lets eight tests run at once unless -parallel says otherwise (go test's default is
// two here): each owns its simulator, journal and executor and spends its time waiting on them
// (lost answers looked up, a kill's expiry). Not under the race detector, where every request
// costs several times the CPU and more at once only makes each answer later.
func TestMain(m *testing.M) {
	if !raceBuild {
		testrun.Parallel(8)
	}
	os.Exit(m.Run())
}
