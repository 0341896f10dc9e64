package headless

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
)

// chaseParams reads the chase's flags.
func (r *runner) chaseParams() (algo.ChaseParams, error) {
	o := r.o
	var p algo.ChaseParams
	side, size, err := r.orderFlags()
	if err != nil {
		return p, err
	}
	offset, err := ticksFlag("offset", o.algo.offset)
	if err != nil {
		return p, err
	}
	refresh, err := ticksFlag("refresh", o.algo.refresh)
	if err != nil {
		return p, err
	}
	dur, err := durationFlag("for", o.algo.forDur, "90s or 5m")
	if err != nil {
		return p, err
	}
	p = algo.ChaseParams{Instrument: o.instrument, Side: side, Size: size, Offset: offset, MaxDistance: o.algo.maxDistance,
		Refresh: refresh, Aggressive: o.algo.aggressive, Keep: o.algo.keep}
	if dur > 0 {
		p.Until = r.now().Add(dur)
	}
	return p, nil
}

func (r *runner) now() time.Time {
	if r.env.Now != nil {
		return r.env.Now()
	}
	return time.Now()
}

func runChase(ctx context.Context, r *runner) error {
	p, err := r.chaseParams()
	if err != nil {
		return err
	}
	return runAlgo(ctx, r, "chase", p, algo.NewChase, algoExit, func(id string) string {
		return fmt.Sprintf("chase %s: %s %s %s from the best %s; Ctrl+C stops it", id, p.Side, p.Size, text.Clean(p.Instrument), map[string]string{"buy": "bid", "sell": "ask"}[p.Side])
	})
}

// runAlgo runs an algorithm of kind with params p: handed to the guard with --guard, else here
// until it ends or Ctrl+C, its progress printed as it goes, after what an earlier run left
// running is settled. start makes it, says is the line that tells what it does, exit picks the
// command's exit from its outcome.
func runAlgo[P any, A algo.Runner](ctx context.Context, r *runner, kind string, p P,
	start func(context.Context, *algo.Deps, string, P) (A, error), exit func(algo.Progress, error) error, says func(id string) string) error {
	if r.o.algo.guard {
		return r.handToGuard(ctx, kind, p)
	}
	d, done, err := r.algoDeps(ctx, func(p algo.Progress) {
		if p.Live() {
			_ = r.printProgress(p, false)
		}
	})
	if err != nil {
		return err
	}
	defer done()
	if err := r.leftRunning(ctx, d); err != nil {
		return err
	}
	a, err := start(ctx, d, "", p)
	if err != nil {
		return err
	}
	fmt.Fprintln(r.env.Stderr, says(a.ID()))
	out, err := a.Run(ctx)
	if perr := r.printProgress(out, true); perr != nil {
		return perr
	}
	return exit(out, err)
}

// algoExit is an algorithm's exit: done is ok; stopped or expired short of its target is
// partial; a failure or an unresolved child is an error.
func algoExit(p algo.Progress, err error) error {
	switch {
	case errors.Is(err, algo.ErrUnresolved):
		return withExit(ExitUnknown, fmt.Errorf("%s %s stopped: %w", p.Kind, p.ID, err))
	case err != nil:
		return err
	case p.State != algo.StateDone && p.Filled.LessThan(p.Target):
		return withExit(ExitPartial, fmt.Errorf("%s %s %s: filled %s of %s", p.Kind, p.ID, p.State, p.Filled, p.Target))
	}
	return nil
}

// scaleParams reads the scale's flags.
func (r *runner) scaleParams() (algo.ScaleParams, error) {
	o := r.o
	var p algo.ScaleParams
	side, size, err := r.orderFlags()
	if err != nil {
		return p, err
	}
	from, err1 := decimal.NewFromString(strings.TrimSpace(o.algo.from))
	to, err2 := decimal.NewFromString(strings.TrimSpace(o.algo.to))
	if err1 != nil || err2 != nil {
		return p, usagef("--from and --to: give the first and last rung's prices, e.g. --from 95000 --to 96000")
	}
	dist := strings.ToLower(strings.TrimSpace(o.algo.distribution))
	if dist == "" {
		dist = "flat"
	}
	return algo.ScaleParams{Instrument: o.instrument, Side: side, Size: size, From: from, To: to, Count: o.algo.count, Distribution: dist}, nil
}

// scaleJSON is the scale command's JSON.
type scaleJSON struct {
	ID       string     `json:"id,omitempty"`
	Sent     bool       `json:"sent"`
	Rungs    []rungJSON `json:"rungs"`
	Warnings []string   `json:"warnings,omitempty"`
	Outcome  string     `json:"outcome"`
}

type rungJSON struct {
	Cloid  string          `json:"cloid,omitempty"`
	Price  decimal.Decimal `json:"price"`
	Size   decimal.Decimal `json:"size"`
	Status string          `json:"status,omitempty"`
	Oid    uint64          `json:"oid,omitempty"`
}

func runScale(ctx context.Context, r *runner) error {
	p, err := r.scaleParams()
	if err != nil {
		return err
	}
	inst, bid, ask, err := r.scaleMarket(ctx, p.Instrument)
	if err != nil {
		return err
	}
	p.Instrument = inst.Name
	rungs, warns, err := algo.PlanScale(inst, p, bid, ask)
	if err != nil {
		return usagef("%v", err)
	}
	out := scaleJSON{Warnings: warns, Outcome: OutcomeWord(ExitOK)}
	for _, rg := range rungs {
		out.Rungs = append(out.Rungs, rungJSON{Price: rg.Price, Size: rg.Size})
	}
	if r.o.yes && r.o.algo.guard {
		return r.handToGuard(ctx, "scale", p)
	}
	if !r.o.yes {
		out.Outcome = OutcomeWord(ExitRefused)
		if err := r.printScale(out); err != nil {
			return err
		}
		return withExit(ExitRefused, fmt.Errorf("nothing sent: add --yes to send these %d orders as one placeOrder", len(rungs)))
	}
	d, done, err := r.algoDeps(ctx, nil)
	if err != nil {
		return err
	}
	defer done()
	if err := r.leftRunning(ctx, d); err != nil {
		return err
	}
	res, err := algo.PlaceScale(ctx, d, "", p, rungs)
	out.ID, out.Sent = res.ID, res.Batch.ID != ""
	for i, o := range res.Batch.Orders {
		out.Rungs[i].Cloid, out.Rungs[i].Status, out.Rungs[i].Oid = o.Cloid, o.Kind.String(), uint64(max(o.Outcome.Oid, 0))
	}
	if err != nil {
		out.Outcome = OutcomeWord(ExitUnknown)
	}
	if perr := r.printScale(out); perr != nil {
		return perr
	}
	return err
}

// scaleMarket is the scale's instrument (name as given) and its best bid and ask (zero when the
// book is empty or cannot be read: the plan then prices without them).
func (r *runner) scaleMarket(ctx context.Context, name string) (state.Instrument, decimal.Decimal, decimal.Decimal, error) {
	st, err := r.orderStore(ctx, name)
	if err != nil {
		return state.Instrument{}, decimal.Zero, decimal.Zero, err
	}
	inst, ok := st.FindInstrument(name)
	if !ok {
		return state.Instrument{}, decimal.Zero, decimal.Zero, usagef("--instrument %q: no such instrument", text.Clean(name))
	}
	bid, ask := bestBidAsk(ctx, r.client, inst.Name)
	return inst, bid, ask, nil
}

// bookReader reads an order book (the client, or an algorithm's market).
type bookReader interface {
	OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error)
}

// bestBidAsk is the best bid and ask of the instrument name: both zero when the book has an
// empty side or cannot be read (a scale's plan then prices without them).
func bestBidAsk(ctx context.Context, books bookReader, name string) (bid, ask decimal.Decimal) {
	if b, err := books.OrderBook(ctx, name, 1); err == nil && len(b.Bids) > 0 && len(b.Asks) > 0 {
		bid, ask = b.Bids[0].Price, b.Asks[0].Price
	}
	return bid, ask
}

// printScale writes the scale's rungs: JSON, or a table and its warnings on stderr.
func (r *runner) printScale(out scaleJSON) error {
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, out)
	}
	for _, w := range out.Warnings {
		fmt.Fprintln(r.env.Stderr, "warning: "+w)
	}
	t := newTable("RUNG>", "PRICE>", "SIZE>", "CLIENT ID", "STATUS")
	for i, rg := range out.Rungs {
		t.add(fmt.Sprint(i+1), rg.Price.String(), rg.Size.String(), orDash(rg.Cloid), orDash(rg.Status))
	}
	if out.ID != "" {
		fmt.Fprintf(r.env.Stdout, "scale %s\n", out.ID)
	}
	return t.write(r.env.Stdout)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return text.Clean(s)
}
