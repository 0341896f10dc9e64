package algo

import (
	"context"
	"errors"
	"fmt"
)

// step looks at the stop and the mark once: it says the state the trail ends in ("" to go on).
func (t *Trail) step(ctx context.Context) (string, string, error) {
	if ctx.Err() != nil {
		return StateStopped, fmt.Sprintf("the stop stays at %s", t.stop), nil
	}
	if t.live == nil {
		return StateFailed, "no live stop", nil
	}
	if err := t.d.lookup(ctx, t.live); err != nil {
		return "", "", err
	}
	if t.live.final {
		return t.gone()
	}
	st, err := t.d.Market.Store(ctx, t.inst.Name)
	if err != nil {
		return "", "", transient{err}
	}
	liq, ok := st.PositionLiquidation(t.inst.Name)
	pos, _ := st.Position(t.inst.Name)
	if !ok {
		return "", "", transient{errors.New("no mark or position this time")}
	}
	if t.p.Side == "sell" && liq.Mark.GreaterThan(t.best) || t.p.Side == "buy" && liq.Mark.LessThan(t.best) {
		t.best = liq.Mark
	}
	want := t.stopAt(t.best)
	better := t.p.Side == "sell" && want.GreaterThan(t.stop) || t.p.Side == "buy" && want.LessThan(t.stop)
	if !better || t.d.Now().Sub(t.lastMove) < t.p.Every {
		return "", "", nil
	}
	// Move the stop: cancel, a definitive answer, then place at the new price.
	if err := t.d.cancelChild(ctx, t.id, t.inst.ID, t.live); err != nil {
		return "", "", err
	}
	if t.live.filled.IsPositive() || t.live.state == "triggered" {
		return t.gone() // it fired between the look and the cancel
	}
	t.live, t.stop, t.lastMove = nil, want, t.d.Now()
	t.moves++
	if pos.Size.IsZero() {
		return StateDone, "the position is closed", nil
	}
	return "", "", t.place(context.WithoutCancel(ctx), pos.Size.Abs())
}

// gone ends the trail whose stop is off the book: it fired, or someone cancelled it.
func (t *Trail) gone() (string, string, error) {
	ch := t.live
	t.live = nil
	if ch.filled.IsPositive() || ch.state == "triggered" {
		return StateDone, fmt.Sprintf("the stop at %s fired: %s closed", t.stop, ch.filled), nil
	}
	return StateStopped, fmt.Sprintf("the stop %s was cancelled outside the trail: nothing protects the position now", ch.cloid), nil
}

// end records the trail's end; its stop is left at the exchange.
func (t *Trail) end(ctx context.Context, st, detail string) (Progress, error) {
	if err := t.d.confirmAll(context.WithoutCancel(ctx), t.children); err != nil {
		detail = joinDetail(detail, err.Error())
	}
	return t.d.finish(ctx, t.progress(st, detail))
}

// progress is the trail's progress: what its stops closed, from their fills.
func (t *Trail) progress(st, detail string) Progress {
	filled, avg, fee := total(t.children)
	p := Progress{ID: t.id, Kind: "trail", Instrument: t.inst.Name, Side: t.p.Side, Filled: filled, AvgPrice: avg, Fee: fee,
		Arrival: t.p.Arrival, Children: len(t.children), Reprices: t.moves, State: st, Detail: detail}
	if t.live != nil {
		px, sz := t.stop, t.live.size
		p.Working, p.WorkingPrice, p.WorkingSize = t.live.cloid, &px, &sz
	}
	return p
}

func (t *Trail) report(detail string) {
	if t.d.Report != nil {
		t.d.Report(t.progress(t.hold.running(), detail))
	}
}
