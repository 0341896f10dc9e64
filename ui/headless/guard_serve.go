package headless

import (
	"context"
	"errors"
	"net"
	"os"
	"slices"
	"time"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/guard"
)

// serve answers the socket until ctx ends; the channel closes when it has.
func (g *guardProc) serve(ctx context.Context, l *net.UnixListener) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		guard.Serve(ctx, l, g.handle)
	}()
	return done
}

// handle answers one request of the protocol.
func (g *guardProc) handle(req guard.Request) guard.Response {
	switch req.Cmd {
	case guard.CmdStatus:
		st := g.status()
		return guard.Response{OK: true, Status: &st}
	case guard.CmdHeartbeat:
		g.mu.Lock()
		g.dead.Beat(g.r.env.Now())
		g.mu.Unlock()
		st := g.status()
		return guard.Response{OK: true, Status: &st}
	case guard.CmdStop:
		g.stop()
		return guard.Response{OK: true}
	}
	return guard.Response{Error: "unknown request: send status, heartbeat or stop"}
}

// status is what the guard is doing now.
func (g *guardProc) status() guard.Status {
	now := g.r.env.Now()
	st := guard.Status{Account: g.r.client.Address(), Network: g.r.network, PID: os.Getpid(), Started: g.started, Alerts: []guard.Alert{}}
	g.mu.Lock()
	st.Algorithms = slices.Clone(g.algos)
	st.DeadMan = g.dead.State(now)
	g.mu.Unlock()
	if st.Algorithms == nil {
		st.Algorithms = []guard.Algo{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if stored, err := alert.Load(ctx, g.e.Journal()); err == nil {
		for _, s := range stored {
			a := guard.Alert{ID: s.Def.ID, Rule: s.Def.Rule}
			if !s.Def.LastFired.IsZero() {
				at := s.Def.LastFired
				a.LastFired = &at
			}
			st.Alerts = append(st.Alerts, a)
		}
	}
	return st
}

// startAlerts evaluates the journal's alerts (and the config's [[alert]] rules) as alerts watch
// does, until ctx ends; the channel closes when it has. With no alert it watches nothing.
func (g *guardProc) startAlerts(ctx context.Context) (<-chan struct{}, error) {
	done := make(chan struct{})
	j := g.e.Journal()
	if a := g.r.o.conn.Alerting; a != nil {
		if err := alert.Seed(ctx, j, a.Rules); err != nil {
			return nil, err
		}
	}
	stored, err := alert.Load(ctx, j)
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		close(done)
		return done, nil
	}
	r := g.r
	w := &watcher{r: r, j: j, eng: alert.New(), store: state.New(r.env.Now), delivery: r.alertDelivery()}
	w.eng.Set(alert.Rules(stored))
	w.feed = feed.New(feed.NewRealClock(r.env.Now), 5*time.Second, 30*time.Second)
	ctx, cancel := context.WithCancel(ctx)
	w.stop = cancel
	cmds := w.start(time.Second)
	streamCmds, closeStream := w.stream()
	cmds = append(cmds, streamCmds...)
	g.log.Info("alerts", "count", len(stored))
	go func() {
		defer close(done)
		defer closeStream()
		err := feed.Run(ctx, feed.Batch(cmds...), w.deliver)
		w.wg.Wait()
		if err != nil && !errors.Is(err, context.Canceled) {
			g.log.Warn("alerts stopped", "error", err.Error())
		}
	}()
	return done, nil
}
