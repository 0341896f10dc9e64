package algos

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Start is what an algorithm command sends, once its preview is confirmed: it starts the
// algorithm with executor e and says what it started.
type Start func(ctx context.Context, e *exec.Executor) (string, error)

// Quote is what a preview prices from: the instrument's best bid and ask (its mid for both while
// the book's best prices are unknown) and its mark (the mid while unknown).
type Quote struct {
	Bid, Ask, Mark decimal.Decimal
}

// QuoteOf is instrument's quote as store holds it (zero when nothing is known).
func QuoteOf(store *state.Store, instrument string) Quote {
	mid, _ := store.Mid(instrument)
	q := Quote{Bid: mid, Ask: mid, Mark: mid}
	if t, ok := store.Ticker(instrument); ok {
		if t.BestBidPrice.IsPositive() && t.BestAskPrice.IsPositive() {
			q.Bid, q.Ask = t.BestBidPrice, t.BestAskPrice
		}
		if t.MarkPrice.IsPositive() {
			q.Mark = t.MarkPrice
		}
	}
	return q
}

// What is command c in one line for the status line and the log.
func What(c state.AlgoCommand, inst state.Instrument) string {
	if c.Kind == "trail" {
		return "trail " + inst.Name + " " + c.Distance
	}
	return fmt.Sprintf("%s %s %s %s", c.Kind, c.Side, c.Size, inst.Name)
}

// Plan is algorithm command c's preview (the confirmation's lines, priced from q) and its
// start on r (the console's runner, or a shadow console's live session's).
func (r *Runner) Plan(c state.AlgoCommand, inst state.Instrument, q Quote, st *common.Styles) ([]string, Start, error) {
	switch c.Kind {
	case "chase":
		return r.chasePlan(c, inst, q)
	case "twap":
		return r.twapPlan(c, inst, q)
	case "scale":
		return r.scalePlan(c, inst, q, st)
	case "trail":
		return r.trailPlan(c, inst, q)
	}
	return nil, nil, fmt.Errorf("%s: not an algorithm this console runs (chase, twap, scale, trail)", text.Clean(c.Kind))
}

// StartAction is the action that confirms command c's preview lines as a market order's
// confirmation is, and whose run calls start: it says what start said, or why it did not start.
func StartAction(c state.AlgoCommand, inst state.Instrument, lines []string, start Start, st *common.Styles) *action.Action {
	what := What(c, inst)
	var said string
	a := &action.Action{Kind: action.KindPlace, Title: "Start " + c.Kind, What: what, Confirm: true, Lane: action.LaneOrder,
		Who: journal.WhoCommandLine, Lines: append([]string{st.Bold.On(strings.ToUpper(what)), ""}, lines...)}
	a.Run = func(ctx context.Context, e action.Executor, _ exec.Ask) (action.Outcome, error) {
		x, _ := e.(*exec.Executor) // the console's executor is one: an algorithm runs on it
		s, err := start(ctx, x)
		said = s
		return action.Outcome{}, err
	}
	a.Read = func(d action.DoneMsg) (string, bool) {
		if d.Err != nil {
			return what + " not started: " + common.PlainError(d.Err), true
		}
		return said, false
	}
	return a
}

// chasePlan is a chase's preview and start.
func (r *Runner) chasePlan(c state.AlgoCommand, inst state.Instrument, q Quote) ([]string, Start, error) {
	p := algo.ChaseParams{Instrument: inst.Name, Side: c.Side, Size: c.Size, Offset: c.Offset, MaxDistance: c.MaxDistance, Keep: c.Keep}
	from := map[string]decimal.Decimal{"buy": q.Bid, "sell": q.Ask}[c.Side]
	worst := "none: it follows the quote as far as it goes (add to 0.1% to bound it)"
	if c.MaxDistance != "" {
		lim, err := algo.LimitOf(c.MaxDistance, c.Side, from, inst.TickSize)
		if err != nil {
			return nil, nil, err
		}
		worst = inst.PriceText(lim) + " (" + c.MaxDistance + " from " + inst.PriceText(from) + ")"
	}
	lines := []string{
		"Sends        one post-only limit of " + inst.SizeText(c.Size) + " at the best " + map[string]string{"buy": "bid", "sell": "ask"}[c.Side] +
			fmt.Sprintf(" (%d ticks off), repriced toward the fill", c.Offset),
		"Now          " + inst.PriceText(from),
		"Worst price  " + worst,
		"Ends         " + endsText(c.For) + keepText(c.Keep),
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		var until time.Time
		if c.For > 0 {
			until = r.Now().Add(c.For)
			p.Until = until
		}
		if r.Remote() {
			return r.Hand(ctx, "chase", p, What(c, inst))
		}
		ch, err := algo.NewChase(ctx, r.Deps(e, &until), "", p)
		if err != nil {
			return "", err
		}
		r.Run(ch, algo.Started(ch.ID(), "chase", inst.Name, c.Side, c.Size), until)
		return "chase " + ch.ID() + " started: " + What(c, inst), nil
	}
	return lines, start, nil
}

func endsText(d time.Duration) string {
	if d <= 0 {
		return "when filled"
	}
	return "when filled or after " + d.String()
}

func keepText(keep bool) string {
	if keep {
		return "; its last order is kept resting if unfilled"
	}
	return "; its working order is cancelled"
}

// twapPlan is a TWAP's preview and start.
func (r *Runner) twapPlan(c state.AlgoCommand, inst state.Instrument, q Quote) ([]string, Start, error) {
	slices, err := algo.SlicesOf(c.Duration, c.Slices, c.Every)
	if err != nil {
		return nil, nil, err
	}
	p := algo.TWAPParams{Instrument: inst.Name, Side: c.Side, Size: c.Size, Duration: c.Duration, Slices: slices, BandLo: c.BandLo, BandHi: c.BandHi, Randomize: c.Random}
	if p.BandHi.LessThan(p.BandLo) {
		p.BandLo, p.BandHi = p.BandHi, p.BandLo
	}
	band := inst.PriceText(p.BandLo) + " to " + inst.PriceText(p.BandHi)
	worst := map[string]decimal.Decimal{"buy": p.BandHi, "sell": p.BandLo}[c.Side]
	if p.BandLo.IsZero() {
		mid := q.Bid.Add(q.Ask).Div(decimal.NewFromInt(2))
		one := decimal.NewFromInt(1)
		lo, hi := mid.Mul(one.Sub(algo.DefaultBand)), mid.Mul(one.Add(algo.DefaultBand))
		band = "1% around the arrival price: about " + inst.PriceText(lo) + " to " + inst.PriceText(hi)
		worst = map[string]decimal.Decimal{"buy": hi, "sell": lo}[c.Side]
	}
	lines := []string{
		fmt.Sprintf("Sends        %d IOC limit slices of about %s, one every %s", slices,
			inst.SizeText(c.Size.Div(decimal.NewFromInt(int64(slices))).Round(inst.SizeDecimals())), (c.Duration / time.Duration(slices)).Round(time.Second)),
		"Band         " + band,
		"Worst price  " + inst.PriceText(worst) + " (the band's edge); a slice the band cannot fill rolls into the next",
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		if r.Remote() {
			return r.Hand(ctx, "twap", p, What(c, inst))
		}
		until := r.Now().Add(c.Duration)
		t, err := algo.NewTWAP(ctx, r.Deps(e, &until), "", p)
		if err != nil {
			return "", err
		}
		r.Run(t, algo.Started(t.ID(), "twap", inst.Name, c.Side, c.Size), until)
		return "twap " + t.ID() + " started: " + What(c, inst), nil
	}
	return lines, start, nil
}

// scalePlan is a scale's preview (its rungs, the first three and the last when there are more
// than five, and PlanScale's warnings) and start.
func (r *Runner) scalePlan(c state.AlgoCommand, inst state.Instrument, q Quote, st *common.Styles) ([]string, Start, error) {
	p := algo.ScaleParams{Instrument: inst.Name, Side: c.Side, Size: c.Size, From: c.From, To: c.To, Count: c.Count, Distribution: c.Distribution}
	rungs, warns, err := algo.PlanScale(inst, p, q.Bid, q.Ask)
	if err != nil {
		return nil, nil, err
	}
	var cost decimal.Decimal
	for _, rung := range rungs {
		cost = cost.Add(rung.Price.Mul(rung.Size))
	}
	lines := []string{
		fmt.Sprintf("Sends        %d limit orders as one request, %s", len(rungs), c.Distribution),
		"Band         " + inst.PriceText(c.From) + " to " + inst.PriceText(c.To),
		"Worst case   all fill: " + inst.SizeText(c.Size) + " at " + inst.PriceText(cost.Div(c.Size)) + " avg, " + common.FmtNum(cost, 2) + " notional",
	}
	for i, rung := range rungs {
		if i == 3 && len(rungs) > 5 {
			lines = append(lines, fmt.Sprintf("  … %d more", len(rungs)-4))
			rung = rungs[len(rungs)-1]
			i = len(rungs) - 1
		} else if i > 3 && len(rungs) > 5 {
			continue
		}
		lines = append(lines, fmt.Sprintf("  rung %-3d %s @ %s", i+1, inst.SizeText(rung.Size), inst.PriceText(rung.Price)))
	}
	for _, w := range warns {
		lines = append(lines, st.Warn.On("! "+w))
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		if r.Remote() {
			return r.Hand(ctx, "scale", p, What(c, inst))
		}
		res, err := algo.PlaceScale(ctx, r.Deps(e, new(time.Time)), "", p, rungs)
		if res.ID != "" {
			row := ScaleRow(p, res)
			row.Session = r.Session
			r.Feed.Begin()
			r.Feed.End(row)
		}
		if err != nil {
			return "", err
		}
		return "scale " + res.ID + ": " + res.Batch.Reason, nil
	}
	return lines, start, nil
}

// trailPlan is a trailing stop's preview (its distance from the mark) and start.
func (r *Runner) trailPlan(c state.AlgoCommand, inst state.Instrument, q Quote) ([]string, Start, error) {
	p := algo.TrailParams{Instrument: inst.Name, Distance: c.Distance}
	dist, err := algo.DistanceOf(c.Distance, q.Mark, inst.TickSize)
	if err != nil {
		return nil, nil, err
	}
	lines := []string{
		"Sends        a reduce-only stop-loss on the whole position, " + c.Distance + " behind its best mark",
		"Now          mark about " + inst.PriceText(q.Mark) + ", distance " + inst.PriceText(dist),
		"Moves        only toward profit, by cancel then place; it stays at the exchange if the console quits",
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		if r.Remote() {
			return r.Hand(ctx, "trail", p, What(c, inst))
		}
		var until time.Time
		t, err := algo.NewTrail(ctx, r.Deps(e, &until), "", p)
		if err != nil {
			return "", err
		}
		r.Run(t, algo.Started(t.ID(), "trail", inst.Name, "", decimal.Zero), until)
		return "trail " + t.ID() + " started on " + inst.Name, nil
	}
	return lines, start, nil
}

// FlattenAction asks, as for a market order, before an earlier run's algorithm id is flattened
// by r's restart rule: its children cancelled and what it opened closed at market. It says what
// the flatten did, or why it failed.
func (r *Runner) FlattenAction(id string, st *common.Styles) *action.Action {
	what := "flatten algorithm " + text.Clean(id)
	var row Row
	a := &action.Action{Kind: action.KindPlace, Title: "Flatten an algorithm", What: what, Confirm: true, Lane: action.LaneOrder,
		Who: journal.WhoCommandLine, Lines: []string{st.Bold.On(strings.ToUpper(what)), "",
			"Cancels   its orders still open (what filled is kept until closed)",
			"Sends     a market order the other way for what it filled: the worst case is the book's depth"}}
	a.Run = func(ctx context.Context, _ action.Executor, _ exec.Ask) (action.Outcome, error) {
		r.Feed.Begin()
		row = r.RestartNow(ctx, id, algo.OnRestartFlatten)
		r.Feed.End(row)
		if row.State == algo.StateFailed {
			return action.Outcome{}, errors.New(row.Detail)
		}
		return action.Outcome{}, nil
	}
	a.Read = func(d action.DoneMsg) (string, bool) {
		if d.Err != nil {
			return what + ": " + common.PlainError(d.Err), true
		}
		return what + ": " + text.Clean(row.Detail), false
	}
	return a
}
