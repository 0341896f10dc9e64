package algo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tradedesk/tradedesk/state/journal"
)

// resumeTrail rebuilds a trailing stop from the journal and the exchange: its live stop is found
// by client id and adopted, never placed again; its high-water mark is taken back from that stop.
func resumeTrail(ctx context.Context, d *Deps, a journal.Algo) (*Trail, error) {
	var p TrailParams
	if err := json.Unmarshal(a.Params, &p); err != nil {
		return nil, fmt.Errorf("trail %s: its parameters cannot be read: %v", a.ID, err)
	}
	st, err := d.Market.Store(ctx, p.Instrument)
	if err != nil {
		return nil, err
	}
	inst, ok := st.FindInstrument(p.Instrument)
	if !ok {
		return nil, fmt.Errorf("trail %s: no instrument %s", a.ID, p.Instrument)
	}
	t := &Trail{d: d, id: a.ID, p: p, inst: inst}
	if t.children, err = d.children(ctx, a); err != nil {
		return nil, err
	}
	for _, ch := range t.children {
		if !ch.final {
			if t.live != nil {
				return nil, fmt.Errorf("trail %s has two live stops (%s, %s): check the exchange by hand", a.ID, t.live.cloid, ch.cloid)
			}
			t.live = ch
		}
	}
	if t.live == nil {
		return nil, fmt.Errorf("trail %s has no live stop at the exchange: it fired or was cancelled; cancel it (--on-restart cancel)", a.ID)
	}
	t.stop = t.live.trigger
	t.best = t.stop.Add(p.Dist)
	if p.Side == "buy" {
		t.best = t.stop.Sub(p.Dist)
	}
	return t, nil
}

// finish ends a trail left running, on restart: its stop is cancelled (cancel and flatten alike:
// a trail opens nothing of its own).
func (t *Trail) finish(ctx context.Context) (Progress, error) {
	if t.live != nil {
		if err := t.d.cancelChild(ctx, t.id, t.inst.ID, t.live); err != nil {
			return t.progress(journal.AlgoRunning, err.Error()), err
		}
		t.live = nil
	}
	return t.end(ctx, StateCancelled, "its stop cancelled on restart")
}
