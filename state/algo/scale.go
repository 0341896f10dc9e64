package algo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// ScaleParams are a scale's parameters, as the journal keeps them.
type ScaleParams struct {
	Instrument string          `json:"instrument"`
	Side       string          `json:"side"`
	Size       decimal.Decimal `json:"size"`
	From       decimal.Decimal `json:"from"`
	To         decimal.Decimal `json:"to"`
	Count      int             `json:"count"`
	// Distribution is flat, inc (growing toward To), dec (shrinking toward To) or geo (each rung
	// GeoRatio times the one before).
	Distribution string `json:"distribution"`
	Rungs        []Rung `json:"rungs,omitempty"`
}

// Rung is one order of a scale.
type Rung struct {
	Price decimal.Decimal `json:"price"`
	Size  decimal.Decimal `json:"size"`
}

// GeoRatio is how much larger each rung of a geometric scale is than the one before.
var GeoRatio = decimal.RequireFromString("1.5")

// Distributions are the scale's size distributions.
var Distributions = []string{"flat", "inc", "dec", "geo"}

// PlanScale works out a scale's rungs: prices evenly from From to To rounded to the tick, sizes
// by the distribution in whole lots adding up to Size exactly. A rung under the minimum order
// value, two rungs on one price, or more than exec.MaxBatch rungs refuse the scale, saying what to
// change; a rung that would cross the book (bid, ask) is a warning.
func PlanScale(inst state.Instrument, p ScaleParams, bid, ask decimal.Decimal) ([]Rung, []string, error) {
	if err := p.valid(inst); err != nil {
		return nil, nil, err
	}
	n := p.Count
	weights := make([]decimal.Decimal, n)
	var sum decimal.Decimal
	for i := range weights {
		weights[i] = weightOf(p.Distribution, i, n)
		sum = sum.Add(weights[i])
	}
	lots := p.Size.Div(inst.LotSize).IntPart()
	rungs := make([]Rung, n)
	var given int64
	for i := range rungs {
		step := p.To.Sub(p.From)
		if n > 1 {
			step = step.Mul(decimal.NewFromInt(int64(i))).Div(decimal.NewFromInt(int64(n - 1)))
		} else {
			step = decimal.Zero
		}
		rungs[i].Price = state.RoundToStep(p.From.Add(step), inst.TickSize)
		l := weights[i].Mul(decimal.NewFromInt(lots)).Div(sum).IntPart()
		rungs[i].Size, given = decimal.NewFromInt(l), given+l
	}
	// The lots rounding left over go one each to the heaviest rungs.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return weights[order[a]].GreaterThan(weights[order[b]]) })
	for k := 0; given < lots; k++ {
		rungs[order[k%n]].Size = rungs[order[k%n]].Size.Add(decimal.NewFromInt(1))
		given++
	}
	var warns []string
	for i := range rungs {
		rungs[i].Size = rungs[i].Size.Mul(inst.LotSize)
		if err := rungOK(inst, rungs, i); err != nil {
			return nil, nil, err
		}
		if w := crossing(p.Side, i, rungs[i].Price, bid, ask); w != "" {
			warns = append(warns, w)
		}
	}
	return rungs, warns, nil
}

func (p ScaleParams) valid(inst state.Instrument) error {
	switch {
	case p.Side != "buy" && p.Side != "sell":
		return fmt.Errorf("side %q: give buy or sell", p.Side)
	case !p.Size.IsPositive() || !p.Size.Equal(state.FloorToStep(p.Size, inst.LotSize)):
		return fmt.Errorf("size %s: give a positive multiple of the lot %s", p.Size, inst.LotSize)
	case !p.From.IsPositive() || !p.To.IsPositive():
		return errors.New("from and to: give two prices above zero")
	case p.Count < 1 || p.Count > exec.MaxBatch:
		return fmt.Errorf("count %d: give 1 to %d rungs (one placeOrder)", p.Count, exec.MaxBatch)
	case !validDistribution(p.Distribution):
		return fmt.Errorf("distribution %q: give one of %s", p.Distribution, strings.Join(Distributions, ", "))
	}
	return nil
}

func validDistribution(s string) bool {
	for _, d := range Distributions {
		if s == d {
			return true
		}
	}
	return false
}

// weightOf is rung i's share of n under the distribution.
func weightOf(dist string, i, n int) decimal.Decimal {
	switch dist {
	case "inc":
		return decimal.NewFromInt(int64(i + 1))
	case "dec":
		return decimal.NewFromInt(int64(n - i))
	case "geo":
		return GeoRatio.Pow(decimal.NewFromInt(int64(i)))
	}
	return decimal.NewFromInt(1)
}

// rungOK refuses rung i when it is empty, under the minimum order value, or on the price of the
// rung before.
func rungOK(inst state.Instrument, rungs []Rung, i int) error {
	r := rungs[i]
	value := r.Size.Mul(r.Price)
	switch {
	case !r.Size.IsPositive() || inst.MinNotional.IsPositive() && value.LessThan(inst.MinNotional):
		return fmt.Errorf("rung %d: %s at %s is worth %s, under the minimum order value %s: give fewer rungs (--count) or a larger size",
			i+1, r.Size, r.Price, value.Round(2), inst.MinNotional)
	case i > 0 && r.Price.Equal(rungs[i-1].Price):
		return fmt.Errorf("rungs %d and %d are both at %s (the tick is %s): give fewer rungs or a wider range", i, i+1, r.Price, inst.TickSize)
	}
	return nil
}

// crossing warns of a rung that would take liquidity at once.
func crossing(side string, i int, px, bid, ask decimal.Decimal) string {
	switch {
	case side == "buy" && ask.IsPositive() && px.GreaterThanOrEqual(ask):
		return fmt.Sprintf("rung %d at %s crosses the book (best ask %s): it fills at once, as a taker", i+1, px, ask)
	case side == "sell" && bid.IsPositive() && px.LessThanOrEqual(bid):
		return fmt.Sprintf("rung %d at %s crosses the book (best bid %s): it fills at once, as a taker", i+1, px, bid)
	}
	return ""
}

// ScaleResult is what became of a scale's one placeOrder.
type ScaleResult struct {
	ID    string
	Rungs []Rung
	Batch exec.BatchResult
}

// PlaceScale commits the scale and its rungs to the journal, then checks every rung and sends
// them as one signed placeOrder with the client ids ID-1 ... ID-n (CancelScale cancels them as
// one). id "" takes a new one.
func PlaceScale(ctx context.Context, d *Deps, id string, p ScaleParams, rungs []Rung) (ScaleResult, error) {
	if err := d.check(); err != nil {
		return ScaleResult{}, err
	}
	st, err := d.Market.Store(ctx, p.Instrument)
	if err != nil {
		return ScaleResult{}, err
	}
	p.Rungs = rungs
	raw, _ := json.Marshal(p)
	if id, err = d.Journal.BeginAlgo(ctx, journal.Algo{ID: id, Kind: "scale", Params: raw}); err != nil {
		return ScaleResult{}, err
	}
	res := ScaleResult{ID: id, Rungs: rungs}
	first, _, err := d.freeCloid(ctx, id)
	if err != nil {
		return res, err
	}
	cs := make([]exec.Checked, len(rungs))
	for i, r := range rungs {
		cloid, err := journal.ChildCloid(id, first+i)
		if err != nil {
			return res, err
		}
		c, errs := d.Exec.Check(st, state.OrderIntent{Instrument: p.Instrument, Side: p.Side, Type: state.Limit,
			Price: r.Price.String(), Size: r.Size.String(), Cloid: cloid})
		if len(errs) > 0 {
			_ = d.Journal.SetAlgo(ctx, id, StateFailed, fmt.Sprintf("rung %d refused, nothing sent: %v", i+1, errs))
			return res, fmt.Errorf("rung %d refused, nothing sent: %v", i+1, errs)
		}
		cs[i] = c
	}
	what := fmt.Sprintf("scale %s %s %s %s-%s x%d %s", p.Side, p.Size, p.Instrument, p.From, p.To, p.Count, p.Distribution)
	if err := d.Limits.wait(ctx); err != nil {
		return res, err
	}
	res.Batch, err = d.Exec.PlaceBatch(ctx, cs, exec.Ask{Who: journal.WhoAlgorithm, What: what, Confirmed: true, Parent: id,
		Numbers: journal.Numbers{From: first, To: first + len(rungs) - 1}})
	d.Limits.reads.drop()
	if err != nil {
		return res, err
	}
	if !res.Batch.Settled() {
		return res, ErrUnresolved
	}
	if res.Batch.Kind == exec.Refused { // the trader's limits: nothing sent, and the algorithm says which
		why := "refused, nothing sent: " + res.Batch.Reason
		if err := d.Journal.SetAlgo(ctx, id, StateFailed, why); err != nil {
			return res, err
		}
		return res, errors.New(why)
	}
	return res, d.Journal.SetAlgo(ctx, id, StateDone, "placed: "+res.Batch.Reason)
}
