package algo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tradedesk/tradedesk/state/journal"
)

// Survey is what algorithm a, left running by an earlier process, did so far, from the journal
// and the exchange alone: its fills, its average and its working child, for the trader to choose
// resume, cancel or flatten with. It sends nothing and writes nothing. An algorithm whose
// children cannot be read yet (one not resolved) says so in its Detail.
func Survey(ctx context.Context, d *Deps, a journal.Algo) (Progress, error) {
	if err := d.check(); err != nil {
		return Progress{}, err
	}
	a.State = journal.AlgoRunning // read as it runs: a paused TWAP's schedule is not moved here
	var p Progress
	var err error
	switch a.Kind {
	case "chase":
		var c *Chase
		if c, err = resumeChase(ctx, d, a); err == nil {
			p = c.progress(journal.AlgoRunning, "")
		}
	case "twap":
		var t *TWAP
		if t, err = resumeTWAP(ctx, d, a); err == nil {
			p = t.progress(journal.AlgoRunning, fmt.Sprintf("%d of %d slices due", t.done, t.p.Slices))
		}
	case "trail":
		var t *Trail
		if t, err = resumeTrail(ctx, d, a); err == nil {
			p = t.progress(journal.AlgoRunning, "")
		}
	case "scale":
		p, err = surveyScale(ctx, d, a)
	default:
		err = fmt.Errorf("algorithm %s: kind %q is not known to this version", a.ID, a.Kind)
	}
	if err != nil {
		p = Progress{ID: a.ID, Kind: a.Kind, State: journal.AlgoRunning, Detail: err.Error()}
	}
	return p, err
}

// surveyScale is a scale's rungs: what they filled, and how many still rest.
func surveyScale(ctx context.Context, d *Deps, a journal.Algo) (Progress, error) {
	var p ScaleParams
	if err := json.Unmarshal(a.Params, &p); err != nil {
		return Progress{}, fmt.Errorf("scale %s: its parameters cannot be read: %v", a.ID, err)
	}
	kids, err := d.children(ctx, a)
	if err != nil {
		return Progress{}, err
	}
	if err := d.confirmAll(ctx, kids); err != nil {
		return Progress{}, err
	}
	open := 0
	for _, k := range kids {
		if !k.final {
			open++
		}
	}
	pr := Progress{ID: a.ID, Kind: "scale", Instrument: p.Instrument, Side: p.Side, Target: p.Size, Children: len(kids),
		State: journal.AlgoRunning, Detail: fmt.Sprintf("%d of %d rungs resting", open, len(p.Rungs))}
	pr.Filled, pr.AvgPrice, pr.Fee = total(kids)
	return pr, nil
}
