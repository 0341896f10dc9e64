package algo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TrailParams are a trailing stop's parameters, as the journal keeps them.
type TrailParams struct {
	Instrument string `json:"instrument"`
	// Distance is as given: a price (500), a percent of the mark (1.5%) or ticks (40t).
	Distance string `json:"distance"`
	// Dist is the distance in price, from Distance at the start.
	Dist decimal.Decimal `json:"dist"`
	// Every is the least time between two moves of the stop (0: 5 s).
	Every time.Duration `json:"every"`
	// Side is the stop's side: sell for a long, buy for a short.
	Side    string          `json:"side"`
	Arrival decimal.Decimal `json:"arrival"`
}

// Trail keeps a reduce-only stop, a real trigger order at the exchange, the distance behind the
// best mark since it started, moving it only toward profit (cancel, a definitive answer, then
// place), until it fires or the position is gone.
type Trail struct {
	d        *Deps
	id       string
	p        TrailParams
	inst     state.Instrument
	children []*child
	live     *child
	stop     decimal.Decimal // the live stop's trigger price
	best     decimal.Decimal // the high-water (long) or low-water (short) mark
	moves    int
	lastMove time.Time
	misses   int
	hold     hold
}

// DistanceOf reads a trail distance at mark: a price, N% of the mark, or Nt ticks.
func DistanceOf(s string, mark, tick decimal.Decimal) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("distance %q: give a price (500), a percent of the mark (1.5%%) or ticks (40t)", s)
	var v decimal.Decimal
	var err error
	switch {
	case strings.HasSuffix(s, "%"):
		if v, err = decimal.NewFromString(strings.TrimSuffix(s, "%")); err == nil {
			v = state.RoundToStep(mark.Mul(v).Div(decimal.NewFromInt(100)), tick)
		}
	case strings.HasSuffix(s, "t"):
		if v, err = decimal.NewFromString(strings.TrimSuffix(s, "t")); err == nil {
			v = v.Mul(tick)
		}
	default:
		v, err = decimal.NewFromString(s)
	}
	if err != nil || !v.IsPositive() || v.GreaterThanOrEqual(mark) {
		return v, bad
	}
	return v, nil
}

// NewTrail reads the position on the instrument and its mark, works out the first stop, refuses
// one that would lie beyond the estimated liquidation price, commits the trail to the journal and
// places its stop. id "" takes a new one.
func NewTrail(ctx context.Context, d *Deps, id string, p TrailParams) (*Trail, error) {
	st, inst, err := d.open(ctx, p.Instrument)
	if err != nil {
		return nil, err
	}
	p.Instrument = inst.Name
	pos, ok := st.Position(inst.Name)
	liq, known := st.PositionLiquidation(inst.Name)
	if !ok || pos.Size.IsZero() || !known {
		return nil, fmt.Errorf("no position on %s (or no mark for it): a trailing stop protects a position", inst.Name)
	}
	p.Side = "sell"
	if pos.Size.IsNegative() {
		p.Side = "buy"
	}
	if p.Dist, err = DistanceOf(p.Distance, liq.Mark, inst.TickSize); err != nil {
		return nil, err
	}
	p.Arrival = liq.Mark
	if p.Every <= 0 {
		p.Every = 5 * time.Second
	}
	t := &Trail{d: d, p: p, inst: inst, best: liq.Mark}
	t.stop = t.stopAt(liq.Mark)
	if liq.Price.IsPositive() && (p.Side == "sell" && !t.stop.GreaterThan(liq.Price) || p.Side == "buy" && !t.stop.LessThan(liq.Price)) {
		return nil, fmt.Errorf("the stop at %s would lie beyond the estimated liquidation price %s: it would never fire first; give a smaller distance", t.stop, liq.Price)
	}
	raw, _ := json.Marshal(p)
	if t.id, err = d.Journal.BeginAlgo(ctx, journal.Algo{ID: id, Kind: "trail", Params: raw}); err != nil {
		return nil, err
	}
	return t, t.place(ctx, pos.Size.Abs())
}

// ID is the trail's id in the journal.
func (t *Trail) ID() string { return t.id }

// stopAt is the stop the distance behind mark, on the tick, on the safe side.
func (t *Trail) stopAt(mark decimal.Decimal) decimal.Decimal {
	if t.p.Side == "sell" {
		return state.FloorToStep(mark.Sub(t.p.Dist), t.inst.TickSize)
	}
	return state.CeilToStep(mark.Add(t.p.Dist), t.inst.TickSize)
}

// place sends the stop for size at t.stop: a reduce-only trigger order at market.
func (t *Trail) place(ctx context.Context, size decimal.Decimal) error {
	in := state.OrderIntent{Instrument: t.inst.Name, Side: t.p.Side, Type: state.Trigger, TriggerPx: t.stop.String(),
		Size: size.String(), ReduceOnly: true, Tpsl: "sl"}
	ch, err := t.d.place(ctx, t.id, in, fmt.Sprintf("trail stop %s %s %s @ %s", t.p.Side, size, t.inst.Name, t.stop))
	if ch != nil && ch.cloid != "" {
		t.children = append(t.children, ch)
		if !ch.final {
			t.live = ch
		}
	}
	t.report("")
	if err == nil && t.live == nil {
		err = fmt.Errorf("the stop at %s was not placed", t.stop)
	}
	return err
}

// Run follows the mark until the stop fires, the position is gone, or ctx ends (the stop stays
// at the exchange: it still protects). It returns the progress.
func (t *Trail) Run(ctx context.Context) (Progress, error) {
	if err := t.d.Limits.enter(); err != nil {
		return t.progress("running", err.Error()), err
	}
	defer t.d.Limits.leave()
	for {
		st, detail, err := t.held(ctx)
		if err == nil && !t.hold.paused {
			st, detail, err = t.step(ctx)
		}
		if errors.As(err, new(transient)) && t.misses < maxMisses {
			t.misses, err = t.misses+1, nil
		} else if err == nil {
			t.misses = 0
		}
		if errors.Is(err, ErrUnresolved) {
			return t.progress("running", err.Error()), err
		}
		if err != nil {
			st, why := endOf(ctx, err, "")
			return t.end(ctx, st, why)
		}
		if st != "" {
			return t.end(ctx, st, detail)
		}
		t.d.waitStep(ctx)
	}
}

// held looks for a pause or a resume: paused, the stop stays where it is at the exchange (it
// still protects) and is not moved until the trail is resumed.
func (t *Trail) held(ctx context.Context) (string, string, error) {
	changed, err := t.d.look(ctx, t.id, &t.hold)
	if err != nil {
		return "", "", err
	}
	if changed {
		t.report("")
	}
	if t.hold.paused && ctx.Err() != nil {
		return StateStopped, fmt.Sprintf("the stop stays at %s", t.stop), nil
	}
	return "", "", nil
}
