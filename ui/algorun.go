package ui

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/components/algos"
)

// algoRunner runs the console's algorithms (issue #36): each on a goroutine of its own with the
// console's executor, its progress reaching the Algos view through the view's Feed. Every
// algorithm shares one set of throttles (algo.Limits).
type algoRunner struct {
	ex     api.Exchange
	feed   *algos.Feed
	limits *algo.Limits
	now    func() time.Time

	mu      sync.Mutex
	cancels map[string]context.CancelFunc // the running algorithms, by id
	exec    *exec.Executor
}

func newAlgoRunner(ex api.Exchange, x *exec.Executor) *algoRunner {
	return &algoRunner{ex: ex, feed: algos.NewFeed(), limits: &algo.Limits{}, now: time.Now, cancels: map[string]context.CancelFunc{}, exec: x}
}

// journal is the executor's journal (nil when the console has no executor).
func (r *algoRunner) journal() *journal.Journal {
	if r.exec == nil {
		return nil
	}
	return r.exec.Journal()
}

// deps are an algorithm's dependencies with executor e; its progress is reported with until.
func (r *algoRunner) deps(e *exec.Executor, until *time.Time) *algo.Deps {
	return &algo.Deps{Exec: e, Journal: e.Journal(), Market: consoleMarket{r.ex}, Read: r.ex, Account: r.ex.Address(),
		Now: r.now, Limits: r.limits, Report: func(p algo.Progress) {
			if p.State == journal.AlgoRunning {
				r.feed.Report(algos.Row{Progress: p, Until: *until, Live: true})
			}
		}}
}

// run runs rn to its end on its own goroutine: stop (by id) cancels its context.
func (r *algoRunner) run(rn algo.Runner, first algo.Progress, until time.Time) {
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.cancels[rn.ID()] = cancel
	r.mu.Unlock()
	r.feed.Begin()
	r.feed.Report(algos.Row{Progress: first, Until: until, Live: true})
	go func() {
		defer cancel()
		p, err := rn.Run(ctx)
		if err != nil && p.Detail == "" {
			p.Detail = err.Error()
		}
		if errors.Is(err, algo.ErrUnresolved) {
			p.State = journal.AlgoRunning
		}
		r.mu.Lock()
		delete(r.cancels, rn.ID())
		r.mu.Unlock()
		r.feed.End(algos.Row{Progress: p, Until: until})
	}()
}

// stop stops algorithm id: a running one is told to stop (its child cancelled as it ends); one
// this console does not run has its open children cancelled as one (a scale's rungs).
func (r *algoRunner) stop(id string, live bool) {
	r.mu.Lock()
	cancel, ok := r.cancels[id]
	r.mu.Unlock()
	if ok {
		cancel()
		return
	}
	if r.exec == nil {
		return
	}
	r.feed.Begin()
	go func() {
		ctx, cancelCtx := context.WithTimeout(context.Background(), time.Minute)
		defer cancelCtx()
		d := r.deps(r.exec, new(time.Time))
		row := algos.Row{Progress: algo.Progress{ID: id, State: algo.StateStopped}}
		if a, found, err := d.Journal.GetAlgo(ctx, id); err == nil && found {
			row = journalRowOf(a)
		}
		n, err := algo.CancelGroup(ctx, d, id)
		row.State, row.Detail = algo.StateStopped, fmt.Sprintf("stopped: %d open order(s) cancelled", n)
		if err != nil {
			row.Detail += "; " + err.Error()
		} else {
			_ = d.Journal.SetAlgo(ctx, id, algo.StateStopped, row.Detail)
		}
		r.feed.End(row)
	}()
}

// journalRowOf is a row naming a journal's algorithm (its kind and id; its fills are in Detail).
func journalRowOf(a journal.Algo) algos.Row {
	return algos.Row{Progress: algo.Progress{ID: a.ID, Kind: a.Kind, State: a.State, Detail: a.Detail, Children: a.Children}, Created: a.Created}
}

// consoleMarket reads the market for an algorithm's children: a store of its own, loaded fresh
// for each child (the console's store belongs to the model's goroutine), as the headless order
// command loads one.
type consoleMarket struct{ ex api.Exchange }

// Store implements algo.Market.
func (m consoleMarket) Store(ctx context.Context, symbol string) (*state.Store, error) {
	st := state.New(time.Now)
	ins, err := m.ex.Instruments(ctx, "all")
	if err != nil {
		return nil, err
	}
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	user := m.ex.Address()
	loads := []func() error{
		func() error { t, err := m.ex.Ticker(ctx, "all"); st.Apply(state.TickersMsg{Tickers: t}); return err },
		func() error { x, err := m.ex.Mids(ctx, "all"); st.Apply(state.MidsMsg{Mids: x}); return err },
		func() error {
			a, err := m.ex.AccountSummary(ctx, user)
			st.Apply(state.AccountMsg{Summary: a})
			return err
		},
		func() error {
			p, err := m.ex.Positions(ctx, user)
			st.Apply(state.PositionsMsg{Positions: p})
			return err
		},
		func() error {
			c, err := m.ex.SupportedCollateral(ctx, "all")
			st.Apply(state.CollateralMsg{Collateral: c})
			return err
		},
	}
	for _, l := range loads {
		if err := l(); err != nil {
			return nil, err
		}
	}
	if f, err := m.ex.UserFees(ctx, user); err == nil {
		st.Apply(state.FeesMsg{Fees: f})
	}
	if in, ok := st.FindInstrument(symbol); ok {
		if b, err := m.ex.OrderBook(ctx, in.Name, 0); err == nil {
			st.Apply(state.BookMsg{Book: b})
		}
		if l, err := m.ex.InstrumentLeverage(ctx, user, in.Name); err == nil && !in.Spot {
			st.Apply(state.LeverageMsg{Leverage: l})
		}
	}
	return st, nil
}

// OrderBook implements algo.Market.
func (m consoleMarket) OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error) {
	return m.ex.OrderBook(ctx, symbol, depth)
}

// scaleRow is a placed scale's row: its rungs resting.
func scaleRow(p algo.ScaleParams, res algo.ScaleResult) algos.Row {
	placed := 0
	for _, o := range res.Batch.Orders {
		if o.Outcome.Oid != 0 {
			placed++
		}
	}
	var sum decimal.Decimal
	for _, rg := range res.Rungs {
		sum = sum.Add(rg.Size)
	}
	return algos.Row{Progress: algo.Progress{ID: res.ID, Kind: "scale", Instrument: p.Instrument, Side: p.Side, Target: sum,
		Children: len(res.Rungs), State: algo.StateDone,
		Detail: fmt.Sprintf("%d of %d rungs placed, %s to %s", placed, len(res.Rungs), p.From, p.To)}}
}
