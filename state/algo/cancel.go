package algo

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// cancelTries bounds how often a live child's cancel is sent before the algorithm stops with
// its child's fate unknown.
const cancelTries = 5

// cancelChild cancels a live child and waits for a definitive answer: its order record off the
// book (cancelled, or filled meanwhile). Then the child is final with what its record says filled
// and its fills are confirmed. Until then nothing else is sent for the algorithm: two children
// are never live at once.
func (d *Deps) cancelChild(ctx context.Context, id string, inst api.InstrumentID, ch *child) error {
	ctx = context.WithoutCancel(ctx) // a stop must still find out what became of its child
	for try := 1; try <= cancelTries; try++ {
		if err := d.Limits.wait(ctx); err != nil {
			return err
		}
		_, err := d.Exec.Cancel(ctx, exec.Cancel{InstrumentID: inst, Cloid: ch.cloid},
			exec.Ask{Who: journal.WhoAlgorithm, What: "cancel child " + ch.cloid, Parent: id})
		d.Limits.reads.drop()
		if err != nil {
			return err
		}
		// Whatever the cancel's answer said, the order's record decides: a final one, streamed
		// or read.
		d.awaitRecord(ctx, ch, true)
		if err := d.lookupFinal(ctx, ch); err == nil && ch.final {
			return nil
		}
		time.Sleep(d.Poll)
	}
	return fmt.Errorf("child %s: still open, or not found, after %d cancels: %w", ch.cloid, cancelTries, ErrUnresolved)
}
