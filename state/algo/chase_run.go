package algo

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
)

// Run works the chase until its size is filled, its time runs out, or ctx ends (a stop: the
// live child is cancelled unless Keep). Each reprice cancels the child, waits for a definitive
// answer, recomputes the remainder from what filled, then places the next: never two live
// children, never more than the size. It returns the progress; ErrUnresolved leaves the chase
// running in the journal, for a restart to resume.
func (c *Chase) Run(ctx context.Context) (Progress, error) {
	if err := c.d.Limits.enter(); err != nil {
		return c.progress("running", err.Error()), err
	}
	defer c.d.Limits.leave()
	for {
		state, err := c.held(ctx)
		if err == nil && !c.hold.paused {
			state, err = c.step(ctx)
		}
		if errors.As(err, new(transient)) && c.misses < maxMisses {
			c.misses++
			err = nil
		} else if err == nil {
			c.misses = 0
		}
		if err != nil {
			if errors.Is(err, ErrUnresolved) {
				return c.progress("running", err.Error()), err
			}
			st, why := endOf(ctx, err, c.note)
			return c.end(ctx, st, why)
		}
		if state != "" {
			return c.end(ctx, state, c.note)
		}
		c.d.waitStep(ctx)
	}
}

// held looks for a pause or a resume: paused, the live child is cancelled (a definitive answer,
// as for a reprice) and nothing more is sent; a stop while paused ends the chase stopped.
func (c *Chase) held(ctx context.Context) (string, error) {
	changed, err := c.d.look(ctx, c.id, &c.hold)
	if err != nil {
		return "", err
	}
	if changed && c.hold.paused && c.live != nil {
		if err := c.d.cancelChild(ctx, c.id, c.inst.ID, c.live); err != nil {
			return "", err
		}
		c.live = nil
	}
	if changed {
		c.report("")
	}
	if c.hold.paused && ctx.Err() != nil {
		return StateStopped, nil
	}
	return "", nil
}

// maxMisses is how many steps in a row may fail to read the market or the orders before the
// chase fails.
const maxMisses = 50

// step is one look at the chase: it says the state the chase ends in ("" to go on).
func (c *Chase) step(ctx context.Context) (string, error) {
	if err := c.d.confirmAll(ctx, c.children); err != nil && ctx.Err() == nil {
		return "", err
	}
	if ctx.Err() != nil {
		return StateStopped, nil
	}
	if c.live != nil {
		if !c.p.Until.IsZero() && c.d.Now().After(c.p.Until) {
			c.d.Limits.reads.drop() // the last look before it expires reads the exchange afresh
		}
		// Has the live child filled or gone meanwhile?
		if err := c.d.lookup(ctx, c.live); err != nil {
			return "", err
		}
		if c.live.final {
			c.live = nil
			c.report("")
		}
	}
	switch {
	case c.live == nil && c.remaining().LessThan(c.inst.LotSize):
		return StateDone, nil
	case !c.p.Until.IsZero() && c.d.Now().After(c.p.Until):
		return StateExpired, nil
	}
	bid, ask, err := c.d.best(ctx, c.inst.Name)
	if err != nil {
		return "", transient{err}
	}
	px := c.want(bid, ask)
	if min := c.inst.MinNotional; min.IsPositive() && c.live == nil && c.remaining().Mul(px).LessThan(min) {
		c.note = fmt.Sprintf("the remainder %s is under the minimum order value %s", c.remaining(), min)
		return StateDone, nil
	}
	switch {
	case c.live == nil:
		return "", c.placeAt(ctx, px)
	case c.follows(px):
		if err := c.d.cancelChild(ctx, c.id, c.inst.ID, c.live); err != nil {
			return "", err
		}
		c.live, c.lastMove = nil, c.d.Now()
		c.reprices++
		if c.remaining().LessThan(c.inst.LotSize) {
			return StateDone, nil
		}
		return "", c.placeAt(ctx, px)
	}
	return "", nil
}

// maxRefusals is how many children in a row the risk gate may refuse before the chase fails.
const maxRefusals = 20

// placeAt places the next child for the remainder at px, post-only.
func (c *Chase) placeAt(ctx context.Context, px decimal.Decimal) error {
	size := state.FloorToStep(c.remaining(), c.inst.LotSize)
	in := state.OrderIntent{Instrument: c.inst.Name, Side: c.p.Side, Type: state.Limit, Price: px.String(), Size: size.String(), PostOnly: true}
	ch, err := c.d.place(ctx, c.id, in, fmt.Sprintf("chase %s %s %s @ %s", c.p.Side, size, c.inst.Name, px))
	if err == nil {
		c.refusals = 0
	}
	if ch != nil && ch.cloid != "" {
		c.children = append(c.children, ch)
		if !ch.final {
			c.live = ch
		}
	}
	c.report("")
	if errors.As(err, new(refusedError)) {
		c.refusals++
		if c.refusals < maxRefusals {
			return nil // the market moved under the check: look again next time
		}
	}
	return err
}

// end stops the chase in state: its live child cancelled (kept when Keep and the chase did not
// fill), the journal told, the progress returned.
func (c *Chase) end(ctx context.Context, st, detail string) (Progress, error) {
	var err error
	if c.live != nil && !(c.p.Keep && st != StateFailed) {
		if err = c.d.cancelChild(ctx, c.id, c.inst.ID, c.live); err == nil {
			c.live = nil
		}
	}
	if err != nil {
		p := c.progress("running", err.Error())
		c.report(err.Error())
		return p, err
	}
	if c.live != nil {
		detail = joinDetail(detail, "kept "+c.live.cloid+" resting at "+c.live.price.String())
	}
	if cerr := c.d.confirmAll(context.WithoutCancel(ctx), c.children); cerr != nil {
		detail = joinDetail(detail, cerr.Error())
	}
	return c.d.finish(ctx, c.progress(st, detail))
}

// progress is the chase's progress from its children's fills.
func (c *Chase) progress(st, detail string) Progress {
	filled, avg, fee := total(c.children)
	p := Progress{ID: c.id, Kind: "chase", Instrument: c.inst.Name, Side: c.p.Side, Target: c.p.Size, Filled: filled,
		AvgPrice: avg, Fee: fee, Arrival: c.p.Arrival, Children: len(c.children), Reprices: c.reprices, State: st, Detail: detail}
	if c.live != nil {
		px, sz := c.live.price, c.live.size
		p.Working, p.WorkingPrice, p.WorkingSize = c.live.cloid, &px, &sz
	}
	return p
}

func (c *Chase) report(detail string) {
	if c.d.Report != nil {
		c.d.Report(c.progress(c.hold.running(), detail))
	}
}

// summary is the progress in words, for the journal.
func summary(p Progress) string {
	s := fmt.Sprintf("filled %s of %s", p.Filled, p.Target)
	if p.Filled.IsPositive() {
		s += fmt.Sprintf(" at %s avg, fee %s", p.AvgPrice.Round(8), p.Fee)
	}
	return joinDetail(s, p.Detail)
}

func joinDetail(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
