package cmdline

import (
	"slices"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state"
)

// TestAlgorithmWordsComplete: Tab on an empty line offers the algorithm commands after the
// order commands.
func TestAlgorithmWordsComplete(t *testing.T) {
	c := Candidates(state.New(time.Now), nil)
	for _, w := range []string{"buy", "chase", "twap", "scale", "trail", "algos"} {
		if !slices.Contains(c, w) {
			t.Errorf("the first word's candidates %v lack %q", c, w)
		}
	}
}
