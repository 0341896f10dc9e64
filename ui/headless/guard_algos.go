package headless

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/guard"
)

// sendGate lets the guard stop its algorithms between steps without ending them: once drained, a
// send or market read already under way finishes, and any later one waits for ever (the process
// is exiting), so each algorithm stays running in the journal, its last child known to it, for
// the next start to resume by the journal's rules.
type sendGate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n       int
	drained bool
}

func newSendGate() *sendGate {
	g := &sendGate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *sendGate) enter() {
	g.mu.Lock()
	for g.drained {
		g.cond.Wait()
	}
	g.n++
	g.mu.Unlock()
}

func (g *sendGate) leave() {
	g.mu.Lock()
	g.n--
	g.cond.Broadcast()
	g.mu.Unlock()
}

// drain closes the gate and waits for what is under way.
func (g *sendGate) drain() {
	g.mu.Lock()
	g.drained = true
	for g.n > 0 {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

// gatedExec is the executor the guard's algorithms send through.
type gatedExec struct {
	e    *exec.Executor
	gate *sendGate
}

func (x gatedExec) Check(st *state.Store, in state.OrderIntent) (exec.Checked, []state.FieldError) {
	return x.e.Check(st, in)
}

func (x gatedExec) Place(ctx context.Context, c exec.Checked, ask exec.Ask) (exec.Result, error) {
	x.gate.enter()
	defer x.gate.leave()
	return x.e.Place(ctx, c, ask)
}

func (x gatedExec) PlaceBatch(ctx context.Context, cs []exec.Checked, ask exec.Ask) (exec.BatchResult, error) {
	x.gate.enter()
	defer x.gate.leave()
	return x.e.PlaceBatch(ctx, cs, ask)
}

func (x gatedExec) Cancel(ctx context.Context, c exec.Cancel, ask exec.Ask) (exec.Result, error) {
	x.gate.enter()
	defer x.gate.leave()
	return x.e.Cancel(ctx, c, ask)
}

// gatedMarket is the market the guard's algorithms read: a read is where a step begins.
type gatedMarket struct {
	m    algo.Market
	gate *sendGate
}

func (m gatedMarket) Store(ctx context.Context, symbol string) (*state.Store, error) {
	m.gate.enter()
	defer m.gate.leave()
	return m.m.Store(ctx, symbol)
}

// StoreWithoutBook implements algo.BooklessMarket: the market's own, else its Store.
func (m gatedMarket) StoreWithoutBook(ctx context.Context, symbol string) (*state.Store, error) {
	m.gate.enter()
	defer m.gate.leave()
	if b, ok := m.m.(algo.BooklessMarket); ok {
		return b.StoreWithoutBook(ctx, symbol)
	}
	return m.m.Store(ctx, symbol)
}

func (m gatedMarket) OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error) {
	m.gate.enter()
	defer m.gate.leave()
	return m.m.OrderBook(ctx, symbol, depth)
}

// restartAlgos applies --on-restart to each algorithm an earlier run left running: resumed ones
// run here from now on; without the flag the guard refuses to start, naming them.
func (g *guardProc) restartAlgos(ctx context.Context) error {
	run, err := algo.Running(ctx, g.deps)
	if err != nil || len(run) == 0 {
		return err
	}
	choice := g.r.o.algo.onRestart
	if choice == "" {
		var names []string
		for _, a := range run {
			names = append(names, a.Kind+" "+a.ID)
		}
		return usagef("%d algorithm(s) left running by an earlier run (%s): give --on-restart %s", len(run),
			text.Clean(strings.Join(names, ", ")), strings.Join(algo.OnRestartChoices, "|"))
	}
	for _, a := range run {
		rn, p, err := algo.Restart(g.algoCtx, g.deps, a, choice)
		if err != nil {
			return fmt.Errorf("%s %s: %w", a.Kind, text.Clean(a.ID), err)
		}
		g.report(p)
		g.log.Info("on restart", "algo", a.ID, "kind", a.Kind, "choice", choice, "state", p.State)
		if rn != nil {
			fmt.Fprintf(g.r.env.Stderr, "resuming %s %s\n", a.Kind, text.Clean(a.ID))
			g.runAlgo(rn)
		}
	}
	return nil
}

// runAlgo runs an algorithm to its end in the background; stopAlgo (by id) stops it.
func (g *guardProc) runAlgo(rn algo.Runner) {
	ctx, cancel := context.WithCancel(g.algoCtx)
	g.mu.Lock()
	g.cancels[rn.ID()] = cancel
	g.mu.Unlock()
	g.algoWG.Add(1)
	go func() {
		defer g.algoWG.Done()
		defer cancel()
		p, err := rn.Run(ctx)
		p = algo.EndOf(p, err)
		g.mu.Lock()
		delete(g.cancels, rn.ID())
		g.mu.Unlock()
		g.report(p)
		if err != nil {
			g.log.Warn("algorithm ended", "algo", rn.ID(), "state", p.State, "error", err.Error())
			return
		}
		g.log.Info("algorithm ended", "algo", rn.ID(), "state", p.State, "filled", p.Filled.String())
	}()
}

// stopAlgo stops the algorithm id running here (false: none by that id runs here).
func (g *guardProc) stopAlgo(id string) bool {
	g.mu.Lock()
	cancel, ok := g.cancels[id]
	g.mu.Unlock()
	if ok {
		g.log.Info("algorithm stop requested", "algo", id)
		cancel()
	}
	return ok
}

// stopAll stops every algorithm running here and waits for them to end.
func (g *guardProc) stopAll() {
	g.mu.Lock()
	for _, cancel := range g.cancels {
		cancel()
	}
	g.mu.Unlock()
	g.algoWG.Wait()
}

// report keeps an algorithm's last progress for status.
func (g *guardProc) report(p algo.Progress) {
	if p.ID == "" {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	a := guard.Algo{Progress: p, Until: g.untils[p.ID]}
	for i := range g.algos {
		if g.algos[i].ID == p.ID {
			g.algos[i] = a
			return
		}
	}
	g.algos = append(g.algos, a)
}
