package headless

import (
	"context"
	"errors"
	"fmt"
	"github.com/tradedesk/tradedesk/state/report"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/guard"
)

// guardOpts are the flags of tradedesk guard and its subcommands.
type guardOpts struct {
	log             string
	allowAccountKey bool
	deadMan         time.Duration
	deadManFlatten  bool
}

func guardFlags(fs *flagSet, o *opts) {
	fs.StringVar(&o.guard.log, "log", "", "append the guard's log to `FILE` (created 0600; default guard.log in the state directory)")
	fs.BoolVar(&o.guard.allowAccountKey, "allow-account-key", false, "run with the account's own key instead of an agent key")
	fs.DurationVar(&o.guard.deadMan, "dead-man", 0, "arm the dead-man's switch: cancel every open order when no heartbeat came for `D` (e.g. 30s)")
	fs.BoolVar(&o.guard.deadManFlatten, "dead-man-flatten", false, "when the dead-man's switch fires, also close every position with reduce-only market orders")
	onRestartFlag(fs, o)
}

func init() {
	register(&command{name: "guard", trades: true, groups: gEndpoint | gKey | gAgent, flags: guardFlags, run: runGuard,
		usage: "--agent-keystore FILE --account 0xACCOUNT [--on-restart resume|cancel|flatten] [--dead-man 30s [--dead-man-flatten]] [--log FILE] [--allow-account-key]",
		summary: "Run one account's algorithms and alerts with no screen until SIGTERM or `tradedesk guard stop` (exit 0): it resumes the " +
			"algorithms an earlier run left (--on-restart), evaluates the journal's alerts, keeps the dead-man's switch, logs to a file, " +
			"and answers on a unix socket (guard status, heartbeat, stop). It holds an agent key; the account's own only with --allow-account-key."})
	parents["guard"] = "Run or talk to the guard: a headless process that keeps one account's algorithms, alerts and dead-man's switch."
}

// guardProc is one running guard.
type guardProc struct {
	r       *runner
	log     *slog.Logger
	e       *exec.Executor
	deps    *algo.Deps
	gate    *sendGate
	started time.Time

	algoCtx    context.Context
	algoWG     sync.WaitGroup
	stopOnce   sync.Once
	stopReq    chan struct{}
	checkEvery time.Duration
	// reachEvery is how often an armed guard checks it reaches the exchange; alertsEvery how
	// often it reads the journal's alerts again: one added (by an attached console, alert add) is
	// evaluated here from then on (guardCadences).
	reachEvery, alertsEvery time.Duration

	mu       sync.Mutex
	algos    []guard.Algo
	cancels  map[string]context.CancelFunc // the algorithms running here, by id
	untils   map[string]time.Time          // when each one's time runs out
	consoles map[uint64]*guard.Console     // the attached consoles, by connection
	watched  map[string]bool               // the alerts the guard evaluates, by id
	alertEng *alert.Engine                 // the alerts' engine (nil until there is an alert)
	watchCtx context.Context               // the alerts' watch runs until it ends
	alertsWG sync.WaitGroup
	dead     guard.DeadMan
	flattens bool
	// lostSince is when the exchange stopped answering (zero: it answers).
	lostSince time.Time
	// unfinished says the switch fired and its cancel-all has not gone through yet.
	unfinished bool
}

// runGuard checks the key and flags, takes the account's socket (a second guard is refused),
// opens the log and the executor, settles what an earlier run left, and runs until stopped.
func runGuard(ctx context.Context, r *runner) error {
	if c := r.o.conn.DeadMan; c != nil && r.o.guard.deadMan == 0 && !r.o.guard.deadManFlatten {
		r.o.guard.deadMan, _ = c.Span() // checked when the config was read
		r.o.guard.deadManFlatten = c.Flatten
	}
	o := r.o.guard
	if o.deadMan < 0 || (o.deadMan > 0 && o.deadMan < time.Second) || (o.deadManFlatten && o.deadMan == 0) {
		return usagef("--dead-man %s: give a span of at least 1s, such as 30s (--dead-man-flatten needs it)", o.deadMan)
	}
	if r.signer != nil && !r.signer.IsAgent() && !o.allowAccountKey {
		return usagef("the guard holds only an agent key: give --agent-keystore FILE --account 0xACCOUNT (make one with tradedesk agent add), " +
			"or --allow-account-key to run it with the account's own key")
	}
	if _, err := r.journalPath(); err != nil {
		return err
	}
	l, err := guard.Listen(r.guardSocket())
	if errors.Is(err, guard.ErrRunning) {
		return withExit(ExitRefused, err)
	}
	if err != nil {
		return fmt.Errorf("guard socket: %w", err)
	}
	defer l.Close()
	logf, err := r.guardLog()
	if err != nil {
		return err
	}
	defer logf.Close()
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	g := newGuardProc(r, e, slog.New(slog.NewJSONHandler(logf, nil)))
	defer r.algoStream(g.deps)() // its algorithms read the stream, as a headless chase's do
	return g.run(ctx, l)
}

// guardSocket is the account's socket path.
func (r *runner) guardSocket() string {
	return guard.SocketPath(guard.SocketDir(r.env.Getenv("XDG_RUNTIME_DIR"), StateDir(&r.env)), r.client.Address())
}

// guardLog opens --log (default guard.log in the state directory) by the console's log rules.
func (r *runner) guardLog() (*os.File, error) {
	path := r.o.guard.log
	if path == "" {
		dir := StateDir(&r.env)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		path = filepath.Join(dir, "guard.log")
	}
	f, err := guard.OpenLog(path)
	if err != nil {
		return nil, usagef("--log: %s", text.Clean(err.Error()))
	}
	return f, nil
}

func newGuardProc(r *runner, e *exec.Executor, log *slog.Logger) *guardProc {
	g := &guardProc{r: r, e: e, log: log, gate: newSendGate(), started: r.env.Now(), stopReq: make(chan struct{}), checkEvery: 200 * time.Millisecond,
		algoCtx: context.Background(), cancels: map[string]context.CancelFunc{}, untils: map[string]time.Time{},
		consoles: map[uint64]*guard.Console{}, watched: map[string]bool{}}
	g.reachEvery, g.alertsEvery = guardCadences(r.env)
	g.deps = &algo.Deps{Exec: gatedExec{e, g.gate}, Journal: e.Journal(), Market: gatedMarket{&algo.StreamMarket{Ex: r.client, Now: r.env.Now}, g.gate},
		Read: r.client, Account: r.client.Address(), Now: r.env.Now, Report: g.report, Limits: &algo.Limits{},
		MinReprice: r.env.AlgoReprice, Ended: report.Keeper(r.client, e.Journal(), r.env.Now)}
	return g
}

// guardCadences are how often the guard checks it reaches the exchange and reads the journal's
// alerts again: every 2 s and every 5 s, or both env.GuardEvery when it is set.
func guardCadences(env Env) (reach, alerts time.Duration) {
	if env.GuardEvery > 0 {
		return env.GuardEvery, env.GuardEvery
	}
	return 2 * time.Second, 5 * time.Second
}

// run resumes the algorithms, starts the alerts and the socket, and keeps the dead-man's switch
// until ctx ends or a stop comes. It then lets the sends in flight finish and sends nothing more,
// so every algorithm still running stays running in the journal for the next start to resume.
func (g *guardProc) run(ctx context.Context, l *net.UnixListener) error {
	r := g.r
	if err := g.restartAlgos(ctx); err != nil {
		return err
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	g.watchCtx = watchCtx
	if err := g.startAlerts(); err != nil {
		stopWatch()
		return err
	}
	if d := r.o.guard.deadMan; d > 0 {
		g.armDeadMan(d, r.o.guard.deadManFlatten)
	}
	serveDone := g.serve(watchCtx, l)
	fmt.Fprintf(r.env.Stderr, "guard for %s on %s: running; stop with SIGTERM or tradedesk guard stop\n", r.client.Address(), text.Clean(r.network))
	g.log.Info("guard started", "account", r.client.Address(), "network", r.network, "pid", os.Getpid())
	g.loop(ctx)
	g.gate.drain()
	stopWatch()
	g.alertsWG.Wait()
	<-serveDone
	left := 0
	for _, a := range g.status().Algorithms {
		if a.State == "running" {
			left++
		}
	}
	g.log.Info("guard stopped", "algorithms_left_running", left)
	fmt.Fprintf(r.env.Stderr, "guard stopped: %d algorithm(s) left running for the next start to resume\n", left)
	return nil
}

// loop checks the dead-man's switch, and while it is armed whether the exchange answers, until
// ctx ends or a stop comes.
func (g *guardProc) loop(ctx context.Context) {
	t := time.NewTicker(g.checkEvery)
	defer t.Stop()
	reach := time.NewTicker(g.reachEvery)
	defer reach.Stop()
	alerts := time.NewTicker(g.alertsEvery)
	defer alerts.Stop()
	for {
		select {
		case <-ctx.Done():
			g.log.Info("signal: stopping")
			return
		case <-g.stopReq:
			g.log.Info("stop requested on the socket")
			return
		case <-t.C:
			g.mu.Lock()
			due := g.dead.Due(g.r.env.Now())
			g.mu.Unlock()
			if due {
				g.fireDeadMan(ctx, "no heartbeat")
			}
		case <-reach.C:
			g.checkReach(ctx)
		case <-alerts.C:
			if err := g.reloadAlerts(); err != nil {
				g.log.Warn("alerts: reading the journal", "error", err.Error())
			}
		}
	}
}

// stop asks the guard to stop (once).
func (g *guardProc) stop() { g.stopOnce.Do(func() { close(g.stopReq) }) }
