package algo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// The choices for an algorithm an earlier process left running.
const (
	OnRestartResume  = "resume"  // go on to its target
	OnRestartCancel  = "cancel"  // cancel its children; keep what filled
	OnRestartFlatten = "flatten" // cancel its children and close what it opened
)

// OnRestartChoices are the choices, for a flag's help.
var OnRestartChoices = []string{OnRestartResume, OnRestartCancel, OnRestartFlatten}

// Runner is an algorithm that can be run to its end.
type Runner interface {
	ID() string
	Run(ctx context.Context) (Progress, error)
}

// Running lists the algorithms an earlier process left running, oldest first. Call it after the
// executor's Recover has settled every intent left open.
func Running(ctx context.Context, d *Deps) ([]journal.Algo, error) {
	return d.Journal.Algos(ctx, true)
}

// Restart applies choice to algorithm a, left running (or paused) by an earlier process: resume gives back a
// Runner to run to its end (nil for an algorithm that has nothing left to do); cancel and flatten
// finish it here and return its progress. Nothing is sent twice: its children are found by their
// client ids, the live one adopted, and its next child takes the next child number.
func Restart(ctx context.Context, d *Deps, a journal.Algo, choice string) (Runner, Progress, error) {
	if err := d.check(); err != nil {
		return nil, Progress{}, err
	}
	switch choice {
	case OnRestartResume, OnRestartCancel, OnRestartFlatten:
	default:
		return nil, Progress{}, fmt.Errorf("on restart %q: give %s", choice, strings.Join(OnRestartChoices, ", "))
	}
	if a.State != journal.AlgoRunning && a.State != journal.AlgoPaused {
		return nil, Progress{}, fmt.Errorf("algorithm %s is %s: nothing to resume, cancel or flatten", text.Quote(a.ID), a.State)
	}
	rn, p, err := restart(ctx, d, a, choice)
	if err == nil && rn != nil && a.State == journal.AlgoPaused {
		// Resumed by the trader's choice: running again in the journal before it acts.
		_, err = d.Journal.SwitchAlgo(ctx, a.ID, journal.AlgoPaused, journal.AlgoRunning)
	}
	return rn, p, err
}

func restart(ctx context.Context, d *Deps, a journal.Algo, choice string) (Runner, Progress, error) {
	switch a.Kind {
	case "chase":
		c, err := resumeChase(ctx, d, a)
		if err != nil {
			return nil, Progress{}, err
		}
		if choice == OnRestartResume {
			return c, c.progress(journal.AlgoRunning, "resumed"), nil
		}
		p, err := c.finish(ctx, choice)
		return nil, p, err
	case "scale":
		p, err := restartScale(ctx, d, a, choice)
		return nil, p, err
	case "trail":
		t, err := resumeTrail(ctx, d, a)
		if err != nil {
			return nil, Progress{}, err
		}
		if choice == OnRestartResume {
			return t, t.progress(journal.AlgoRunning, "resumed"), nil
		}
		p, err := t.finish(ctx)
		return nil, p, err
	case "twap":
		t, err := resumeTWAP(ctx, d, a)
		if err != nil {
			return nil, Progress{}, err
		}
		if choice == OnRestartResume {
			return t, t.progress(journal.AlgoRunning, "resumed"), nil
		}
		p, err := t.finish(ctx, choice)
		return nil, p, err
	}
	return nil, Progress{}, fmt.Errorf("algorithm %s: kind %q is not known to this version", a.ID, a.Kind)
}

// children rebuilds an algorithm's children from the journal and the exchange: each child whose
// order the journal says was placed is looked up by its client id; one never placed is skipped.
func (d *Deps) children(ctx context.Context, a journal.Algo) ([]*child, error) {
	es, err := d.Journal.Children(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	var out []*child
	for _, en := range es {
		if en.Intent.Kind != "place" && en.Intent.Kind != "batch" {
			continue
		}
		for _, cloid := range en.Intent.Cloids {
			if en.Outcome == nil || !en.Outcome.Settled {
				return nil, fmt.Errorf("child %s of %s is not resolved: %w", cloid, a.ID, ErrUnresolved)
			}
			rec, err := api.FindCloid(ctx, d.Read, d.Account, cloid)
			if err != nil {
				return nil, err
			}
			if rec == nil {
				if en.Outcome.Oid > 0 && len(en.Intent.Cloids) == 1 {
					return nil, fmt.Errorf("child %s of %s was placed (order %d) and is not found now: check the exchange by hand", cloid, a.ID, en.Outcome.Oid)
				}
				continue // never placed (rejected, refused, or not at the exchange after it expired)
			}
			ch := &child{cloid: cloid}
			if err := d.lookup(ctx, ch); err != nil {
				return nil, err
			}
			out = append(out, ch)
		}
	}
	return out, nil
}

// resumeChase rebuilds a chase from the journal and the exchange.
func resumeChase(ctx context.Context, d *Deps, a journal.Algo) (*Chase, error) {
	var p ChaseParams
	if err := json.Unmarshal(a.Params, &p); err != nil {
		return nil, fmt.Errorf("chase %s: its parameters cannot be read: %v", a.ID, err)
	}
	st, err := d.Market.Store(ctx, p.Instrument)
	if err != nil {
		return nil, err
	}
	inst, ok := st.FindInstrument(p.Instrument)
	if !ok {
		return nil, fmt.Errorf("chase %s: no instrument %s", a.ID, p.Instrument)
	}
	c := &Chase{d: d, id: a.ID, p: p, inst: inst}
	if c.children, err = d.children(ctx, a); err != nil {
		return nil, err
	}
	for _, ch := range c.children {
		if !ch.final {
			if c.live != nil {
				return nil, fmt.Errorf("chase %s has two live children (%s, %s): check the exchange by hand", a.ID, c.live.cloid, ch.cloid)
			}
			c.live = ch
		}
	}
	return c, nil
}

// finish cancels the chase's live child and, for flatten, closes what it filled with a market
// order the other way.
func (c *Chase) finish(ctx context.Context, choice string) (Progress, error) {
	if c.live != nil {
		if err := c.d.cancelChild(ctx, c.id, c.inst.ID, c.live); err != nil {
			return c.progress(journal.AlgoRunning, err.Error()), err
		}
		c.live = nil
	}
	if err := c.d.confirmAll(ctx, c.children); err != nil {
		return c.progress(journal.AlgoRunning, err.Error()), err
	}
	if choice == OnRestartCancel {
		return c.end(ctx, StateCancelled, "cancelled on restart")
	}
	detail, err := c.d.flatten(ctx, c.id, c.inst, c.p.Side, committed(c.children))
	if err != nil {
		return c.end(ctx, StateFailed, "flatten: "+err.Error())
	}
	return c.end(ctx, StateFlattened, detail)
}

// flatten sends a market order the other way for size (what an algorithm opened on side).
func (d *Deps) flatten(ctx context.Context, id string, inst state.Instrument, side string, size decimal.Decimal) (string, error) {
	if !size.IsPositive() {
		return "nothing filled: nothing to close", nil
	}
	other := "sell"
	if side == "sell" {
		other = "buy"
	}
	in := state.OrderIntent{Instrument: inst.Name, Side: other, Type: state.Market, Size: size.String()}
	ch, err := d.place(ctx, id, in, fmt.Sprintf("flatten %s %s %s", other, size, inst.Name))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("closed %s of %s with a market %s (%s)", ch.filled, size, other, ch.cloid), nil
}

// restartScale: its rungs rest at the exchange on their own; resume keeps them, cancel cancels
// them, flatten cancels them and closes what filled.
func restartScale(ctx context.Context, d *Deps, a journal.Algo, choice string) (Progress, error) {
	var p ScaleParams
	if err := json.Unmarshal(a.Params, &p); err != nil {
		return Progress{}, fmt.Errorf("scale %s: its parameters cannot be read: %v", a.ID, err)
	}
	kids, err := d.children(ctx, a)
	if err != nil {
		return Progress{}, err
	}
	pr := Progress{ID: a.ID, Kind: "scale", Instrument: p.Instrument, Side: p.Side, Target: p.Size, Children: len(kids)}
	st, detail := StateDone, fmt.Sprintf("%d of %d rungs at the exchange", len(kids), len(p.Rungs))
	if choice != OnRestartResume {
		n, err := CancelGroup(ctx, d, a.ID)
		if err != nil {
			return pr, err
		}
		st, detail = StateCancelled, fmt.Sprintf("cancelled %d rungs on restart", n)
		if kids, err = d.children(ctx, a); err != nil {
			return pr, err
		}
	}
	if err := d.confirmAll(ctx, kids); err != nil {
		return pr, err
	}
	if choice == OnRestartFlatten {
		s, err := d.Market.Store(ctx, p.Instrument)
		if err != nil {
			return pr, err
		}
		inst, _ := s.FindInstrument(p.Instrument)
		if detail, err = d.flatten(ctx, a.ID, inst, p.Side, committed(kids)); err != nil {
			return pr, err
		}
		st = StateFlattened
	}
	pr.Filled, pr.AvgPrice, pr.Fee = total(kids)
	pr.State, pr.Detail = st, detail
	return pr, d.setEnded(ctx, a.ID, st, summary(pr))
}
