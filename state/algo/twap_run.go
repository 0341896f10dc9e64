package algo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
)

// Run works the TWAP's slices until its size is filled, its last slice is worked, or ctx ends.
// A book older than MaxBookAge pauses it (the slice is not spent). It returns the progress;
// ErrUnresolved leaves it running in the journal, for a restart to resume.
func (t *TWAP) Run(ctx context.Context) (Progress, error) {
	if err := t.d.Limits.enter(); err != nil {
		return t.progress("running", err.Error()), err
	}
	defer t.d.Limits.leave()
	for {
		st, err := t.held(ctx)
		if err == nil && !t.hold.paused {
			st, err = t.step(ctx)
		}
		if errors.As(err, new(transient)) && t.misses < maxMisses {
			t.misses++
			err = nil
		} else if err == nil {
			t.misses = 0
		}
		if errors.Is(err, ErrUnresolved) {
			return t.progress("running", err.Error()), err
		}
		if err != nil {
			st, why := endOf(ctx, err, t.note)
			return t.end(ctx, st, why)
		}
		if st != "" {
			return t.end(ctx, st, t.note)
		}
		t.d.waitStep(ctx)
	}
}

// held looks for a pause or a resume: paused, no slice is sent; resumed, the schedule moves on
// by the time it was paused (kept in the journal's parameters, so a restart keeps it too).
func (t *TWAP) held(ctx context.Context) (string, error) {
	changed, err := t.d.look(ctx, t.id, &t.hold)
	if err != nil {
		return "", err
	}
	if changed {
		if t.hold.paused {
			t.p.PausedAt = t.hold.since
		} else {
			t.unpause(t.hold.since)
		}
		if err := t.saveParams(ctx); err != nil {
			return "", err
		}
		t.report("")
	}
	if t.hold.paused && ctx.Err() != nil {
		return StateStopped, nil
	}
	return "", nil
}

// unpause moves the schedule on by the time the TWAP was paused, up to now.
func (t *TWAP) unpause(now time.Time) {
	if !t.p.PausedAt.IsZero() && now.After(t.p.PausedAt) {
		t.p.Start = t.p.Start.Add(now.Sub(t.p.PausedAt))
	}
	t.p.PausedAt = time.Time{}
}

// saveParams writes the TWAP's parameters (its schedule's start, its pause) to the journal.
func (t *TWAP) saveParams(ctx context.Context) error {
	raw, err := json.Marshal(t.p)
	if err != nil {
		return err
	}
	return t.d.Journal.SetAlgoParams(ctx, t.id, raw)
}

// lastTries is how many more times the last slice is worked when the market moved away from it.
const lastTries = 5

// step works the slice that is due, if any: it says the state the TWAP ends in ("" to go on).
func (t *TWAP) step(ctx context.Context) (string, error) {
	if ctx.Err() != nil {
		return StateStopped, nil
	}
	if err := t.settle(ctx); err != nil {
		return "", err
	}
	left := t.p.Size.Sub(committed(t.children))
	if left.LessThan(t.inst.LotSize) {
		return StateDone, nil
	}
	i, end := t.slice(left)
	if i < 0 {
		return end, nil
	}
	b, err := t.d.Market.OrderBook(ctx, t.inst.Name, 20)
	if err != nil {
		return "", transient{err}
	}
	if age := t.d.Now().Sub(b.Time.Time); !b.Time.Time.IsZero() && age > MaxBookAge {
		t.note = fmt.Sprintf("paused: the book is %s old", age.Round(time.Second))
		t.report(t.note)
		return "", nil // the slice waits for a fresh book
	}
	t.note = ""
	want := t.cum[i].Sub(committed(t.children))
	if i == t.p.Slices-1 {
		want = left
	}
	want = state.FloorToStep(decimal.Max(want, decimal.Zero), t.inst.LotSize)
	t.done = i + 1
	px, ok := t.slicePrice(b, want)
	if !want.IsPositive() || !ok || t.inst.MinNotional.IsPositive() && want.Mul(px).LessThan(t.inst.MinNotional) && i < t.p.Slices-1 {
		t.report(fmt.Sprintf("slice %d skipped: rolled into the next", i+1))
		return "", nil
	}
	in := state.OrderIntent{Instrument: t.inst.Name, Side: t.p.Side, Type: state.Limit, Price: px.String(), Size: want.String(), Tif: "IOC"}
	ch, err := t.d.place(ctx, t.id, in, fmt.Sprintf("twap slice %d/%d %s %s %s @ %s", i+1, t.p.Slices, t.p.Side, want, t.inst.Name, px))
	if ch != nil && ch.cloid != "" {
		t.children = append(t.children, ch)
	}
	t.report("")
	if errors.As(err, new(refusedError)) {
		return "", nil // refused by the gate: nothing sent, the size rolls on
	}
	return "", err
}

// slice is the index of the slice to work now with left still to fill, or -1 and the state the
// TWAP ends in ("": none is due yet). After the last slice the remainder is worked again, up to
// lastTries times, when the market moved away from it; then it expires.
func (t *TWAP) slice(left decimal.Decimal) (int, string) {
	i := t.due()
	if i >= t.done {
		return i, ""
	}
	if t.done < t.p.Slices {
		return -1, ""
	}
	if t.retries >= lastTries {
		t.note = fmt.Sprintf("the band %s-%s could not fill %s", t.p.BandLo, t.p.BandHi, left)
		return -1, StateExpired
	}
	// The market moved away from the last slice's price: it takes the remainder again.
	t.retries++
	t.done = t.p.Slices - 1
	return t.p.Slices - 1, ""
}

// settle looks up every slice not known to be off the book yet (an IOC whose lookup failed), and
// confirms the fills of those that are: the remainder is only ever computed from final slices.
func (t *TWAP) settle(ctx context.Context) error {
	for _, ch := range t.children {
		if !ch.final {
			if err := t.d.lookup(ctx, ch); err != nil {
				return err
			}
			if !ch.final {
				return transient{fmt.Errorf("slice %s is still open", ch.cloid)}
			}
		}
	}
	return t.d.confirmAll(ctx, t.children)
}

// end records the TWAP's end in the journal and returns its progress.
func (t *TWAP) end(ctx context.Context, st, detail string) (Progress, error) {
	if err := t.settle(context.WithoutCancel(ctx)); err != nil {
		detail = joinDetail(detail, err.Error())
	}
	return t.d.finish(ctx, t.progress(st, detail))
}

// progress is the TWAP's progress from its slices' fills.
func (t *TWAP) progress(st, detail string) Progress {
	filled, avg, fee := total(t.children)
	return Progress{ID: t.id, Kind: "twap", Instrument: t.inst.Name, Side: t.p.Side, Target: t.p.Size, Filled: filled,
		AvgPrice: avg, Fee: fee, Arrival: t.p.Arrival, Children: len(t.children), Slices: t.done, State: st, Detail: detail}
}

func (t *TWAP) report(detail string) {
	if t.d.Report != nil {
		t.d.Report(t.progress(t.hold.running(), detail))
	}
}
