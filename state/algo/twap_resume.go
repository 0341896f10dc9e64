package algo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tradedesk/tradedesk/state/journal"
)

// resumeTWAP rebuilds a TWAP from the journal and the exchange: its slices found by client id,
// the slice due now worked again for what the schedule still asks (never more).
func resumeTWAP(ctx context.Context, d *Deps, a journal.Algo) (*TWAP, error) {
	var p TWAPParams
	if err := json.Unmarshal(a.Params, &p); err != nil {
		return nil, fmt.Errorf("twap %s: its parameters cannot be read: %v", a.ID, err)
	}
	st, err := d.Market.Store(ctx, p.Instrument)
	if err != nil {
		return nil, err
	}
	inst, ok := st.FindInstrument(p.Instrument)
	if !ok {
		return nil, fmt.Errorf("twap %s: no instrument %s", a.ID, p.Instrument)
	}
	t := newTWAP(d, a.ID, p, inst)
	if t.children, err = d.children(ctx, a); err != nil {
		return nil, err
	}
	if a.State == journal.AlgoPaused {
		// Paused: its schedule moves on by the time it was paused, whichever process paused it.
		if t.p.PausedAt.IsZero() {
			t.p.PausedAt = a.Updated
		}
		t.unpause(d.Now())
		if err := t.saveParams(ctx); err != nil {
			return nil, err
		}
	}
	t.done = max(t.due(), 0)
	return t, nil
}

// finish ends a TWAP left running: cancel keeps what filled; flatten also closes it.
func (t *TWAP) finish(ctx context.Context, choice string) (Progress, error) {
	if err := t.settle(ctx); err != nil {
		return t.progress(journal.AlgoRunning, err.Error()), err
	}
	if choice == OnRestartCancel {
		return t.end(ctx, StateCancelled, "cancelled on restart")
	}
	detail, err := t.d.flatten(ctx, t.id, t.inst, t.p.Side, committed(t.children))
	if err != nil {
		return t.end(ctx, StateFailed, "flatten: "+err.Error())
	}
	return t.end(ctx, StateFlattened, detail)
}
