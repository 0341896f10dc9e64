package headless

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/state/journal"
)

// serve answers the socket until ctx ends; the channel closes when it has.
func (g *guardProc) serve(ctx context.Context, l *net.UnixListener) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		guard.Serve(ctx, l, g)
	}()
	return done
}

// Handle answers one request of the protocol (guard.Handler).
func (g *guardProc) Handle(p guard.Peer, req guard.Request) guard.Response {
	switch req.Cmd {
	case guard.CmdStatus:
		return g.okStatus()
	case guard.CmdHeartbeat:
		g.beat(p)
		return g.okStatus()
	case guard.CmdAttach:
		if !strings.EqualFold(strings.TrimSpace(req.Account), g.r.client.Address()) {
			return guard.Response{Error: fmt.Sprintf("this guard runs for account %s, not %s: start the console for that account, or a guard for this one",
				g.r.client.Address(), text.Clean(req.Account))}
		}
		now := g.r.env.Now()
		g.mu.Lock()
		g.consoles[p.ID] = &guard.Console{PID: p.PID, Who: text.Clean(req.Who), Since: now, LastHeartbeat: now}
		g.dead.Beat(now)
		g.mu.Unlock()
		g.log.Info("console attached", "pid", p.PID, "who", text.Clean(req.Who))
		return g.okStatus()
	case guard.CmdStart:
		id, err := g.startAlgo(req.Kind, req.Params)
		if err != nil {
			return guard.Response{Error: req.Kind + " not started: " + oneLine(err.Error())}
		}
		return guard.Response{OK: true, ID: id}
	case guard.CmdStopAlgo:
		if !g.stopAlgo(req.ID) {
			return guard.Response{Error: "no algorithm " + text.Clean(req.ID) + " runs in this guard: guard status lists those that do"}
		}
		return guard.Response{OK: true}
	case guard.CmdPause, guard.CmdResume:
		do := map[string]func(context.Context, *journal.Journal, string) error{guard.CmdPause: algo.Pause, guard.CmdResume: algo.Resume}[req.Cmd]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := do(ctx, g.e.Journal(), req.ID); err != nil {
			return guard.Response{Error: oneLine(err.Error())}
		}
		g.log.Info("algorithm "+req.Cmd+"d", "algo", req.ID)
		return guard.Response{OK: true}
	case guard.CmdArm:
		return g.arm(req)
	case guard.CmdStop:
		g.stop()
		return guard.Response{OK: true}
	}
	return guard.Response{Error: "unknown request: send status, heartbeat, attach, start, stop-algo, pause, resume, arm or stop"}
}

// Gone forgets a console whose connection closed (guard.Handler). The dead-man's switch goes on
// counting from its last heartbeat.
func (g *guardProc) Gone(p guard.Peer) {
	g.mu.Lock()
	c, ok := g.consoles[p.ID]
	delete(g.consoles, p.ID)
	g.mu.Unlock()
	if ok {
		g.log.Info("console detached", "pid", c.PID)
	}
}

// beat is a heartbeat, from an attached console or anyone else.
func (g *guardProc) beat(p guard.Peer) {
	now := g.r.env.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.dead.Beat(now)
	if c, ok := g.consoles[p.ID]; ok {
		c.LastHeartbeat = now
	}
}

// arm arms the dead-man's switch for req.After seconds, or disarms it (0).
func (g *guardProc) arm(req guard.Request) guard.Response {
	span := time.Duration(req.After * float64(time.Second))
	if span < 0 || (span > 0 && span < time.Second) || (req.Flatten && span == 0) {
		return guard.Response{Error: fmt.Sprintf("arm %s: give a span of at least 1s, such as 30s, or 0 to disarm", span)}
	}
	g.armDeadMan(span, req.Flatten)
	return g.okStatus()
}

func (g *guardProc) okStatus() guard.Response {
	st := g.status()
	return guard.Response{OK: true, Status: &st}
}

// status is what the guard is doing now.
func (g *guardProc) status() guard.Status {
	now := g.r.env.Now()
	st := guard.Status{Account: g.r.client.Address(), Network: g.r.network, PID: os.Getpid(), Started: g.started, Alerts: []guard.Alert{},
		Consoles: []guard.Console{}}
	g.mu.Lock()
	st.Algorithms = slices.Clone(g.algos)
	st.DeadMan = g.dead.State(now)
	st.DeadMan.Flatten = g.flattens && st.DeadMan.After > 0
	for _, c := range g.consoles {
		st.Consoles = append(st.Consoles, *c)
	}
	st.Exchange = guard.Reach{OK: g.lostSince.IsZero()}
	if !g.lostSince.IsZero() {
		at := g.lostSince
		st.Exchange.LostSince = &at
	}
	watched := maps.Clone(g.watched) // reloadAlerts rewrites it under mu
	g.mu.Unlock()
	slices.SortFunc(st.Consoles, func(a, b guard.Console) int { return a.Since.Compare(b.Since) })
	if st.Algorithms == nil {
		st.Algorithms = []guard.Algo{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if stored, err := alert.Load(ctx, g.e.Journal()); err == nil {
		for _, s := range stored {
			a := guard.Alert{ID: s.Def.ID, Rule: s.Def.Rule, Watched: watched[s.Def.ID]}
			if !s.Def.LastFired.IsZero() {
				at := s.Def.LastFired
				a.LastFired = &at
			}
			st.Alerts = append(st.Alerts, a)
		}
	}
	return st
}

// startAlerts seeds the config's [[alert]] rules and evaluates the journal's alerts as alerts
// watch does, until the watch's context ends. With no alert it watches nothing until one is
// added (reloadAlerts).
func (g *guardProc) startAlerts() error {
	if a := g.r.o.conn.Alerting; a != nil {
		if err := alert.Seed(g.watchCtx, g.e.Journal(), a.Rules); err != nil {
			return err
		}
	}
	return g.reloadAlerts()
}

// reloadAlerts reads the journal's alerts and evaluates them from now on: the watch starts with
// the first alert; an alert removed is no longer evaluated.
func (g *guardProc) reloadAlerts() error {
	stored, err := alert.Load(g.watchCtx, g.e.Journal())
	if err != nil {
		return err
	}
	g.mu.Lock()
	clear(g.watched)
	for _, s := range stored {
		g.watched[s.Def.ID] = true
	}
	eng := g.alertEng
	if eng == nil && len(stored) > 0 {
		g.alertEng = alert.New()
	}
	g.mu.Unlock()
	if eng != nil {
		eng.Set(alert.Rules(stored))
		return nil
	}
	if len(stored) > 0 {
		g.watch(stored)
	}
	return nil
}

// watch runs the alerts' polls and engine in the background until the watch's context ends.
func (g *guardProc) watch(stored []alert.Stored) {
	r := g.r
	w := &watcher{r: r, j: g.e.Journal(), eng: g.alertEng, store: state.New(r.env.Now), delivery: r.alertDelivery()}
	w.eng.Set(alert.Rules(stored))
	w.feed = feed.New(feed.NewRealClock(r.env.Now), 5*time.Second, 30*time.Second)
	ctx, cancel := context.WithCancel(g.watchCtx)
	w.stop = cancel
	cmds := w.start(time.Second)
	streamCmds, closeStream := w.stream()
	cmds = append(cmds, streamCmds...)
	g.log.Info("alerts", "count", len(stored))
	g.alertsWG.Add(1)
	go func() {
		defer g.alertsWG.Done()
		defer closeStream()
		err := feed.Run(ctx, feed.Batch(cmds...), w.deliver)
		w.wg.Wait()
		if err != nil && !errors.Is(err, context.Canceled) {
			g.log.Warn("alerts stopped", "error", err.Error())
		}
	}()
}
