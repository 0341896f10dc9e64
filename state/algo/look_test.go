package algo

import (
	"fmt"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state/journal"
)

// TestOneJournalReadServesEveryAlgorithmsLook: twenty running algorithms looking for a pause are
// served by one read of the journal's running algorithms: with the journal closed after the first
// look, the other nineteen still see themselves running (read once), and a paused one reads its
// own state (paused), so a pause is still seen.
func TestOneJournalReadServesEveryAlgorithmsLook(t *testing.T) {
	j, err := journal.Open(journal.Path(t.TempDir(), "sim", "0x1111111111111111111111111111111111111111"))
	must(t, err)
	t.Cleanup(func() { _ = j.Close() })
	var ids []string
	for i := range 21 {
		id, err := j.BeginAlgo(bg, journal.Algo{ID: fmt.Sprintf("look-%d", i), Kind: "chase", Params: []byte(`{}`)})
		must(t, err)
		ids = append(ids, id)
	}
	must(t, Pause(bg, j, ids[20]))
	d := &Deps{Journal: j, Limits: &Limits{}, PauseEvery: time.Hour}
	if st, err := d.stateOf(bg, ids[20]); err != nil || st != journal.AlgoPaused {
		t.Fatalf("the paused one: %q %v", st, err)
	}
	if st, err := d.stateOf(bg, ids[0]); err != nil || st != journal.AlgoRunning {
		t.Fatalf("first look: %q %v", st, err)
	}
	must(t, j.Close())
	for _, id := range ids[1:20] {
		if st, err := d.stateOf(bg, id); err != nil || st != journal.AlgoRunning {
			t.Fatalf("%s read the journal again: %q %v", id, st, err)
		}
	}
}
