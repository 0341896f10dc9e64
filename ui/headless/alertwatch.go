package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/journal"
	"golang.org/x/term"
)

// alertOpts are the flags of `alerts watch`.
type alertOpts struct {
	every     time.Duration
	count     int
	noStream  bool
	noDesktop bool
}

func alertsWatchFlags(fs *flagSet, o *opts) {
	fs.DurationVar(&o.alert.every, "every", time.Second, "poll market data every `D` (the account every 2 D); at least 200ms")
	SetFlagRange(fs.FlagSet, "every", "at least 200ms")
	fs.IntVar(&o.alert.count, "count", 0, "stop after `N` alerts (0: run until interrupted)")
	fs.BoolVar(&o.alert.noStream, "no-stream", false, "poll only: no WebSocket stream")
	fs.BoolVar(&o.alert.noDesktop, "no-desktop", false, "no desktop notification (on_alert and the webhook still run)")
}

func init() {
	register(&command{name: "alerts watch", groups: alertGroups, flags: alertsWatchFlags, run: runAlertsWatch,
		usage: "[--json] [--every 1s] [--count N] [--no-stream] [--no-desktop]",
		summary: "Watch the market and the account and fire the journal's alerts (and the config's [[alert]] rules) as the console " +
			"does: one line an alert (--json: NDJSON with id, kind, instrument, value, threshold, time), delivered as the console " +
			"delivers them: a desktop notification once a burst (--no-desktop: none), on_alert and the webhook for each. Runs until Ctrl+C, " +
			"SIGTERM or --count alerts (exit 0); exit 2 when there is no alert to watch or a flag is wrong, 1 when the journal " +
			"cannot be read."})
}

func runAlertsWatch(ctx context.Context, r *runner) error {
	o := r.o.alert
	if o.every < 200*time.Millisecond || o.count < 0 {
		return usagef("--every %s --count %d: give --every of at least 200ms and --count of 0 or more", o.every, o.count)
	}
	j, err := r.alertJournal(ctx)
	if err != nil {
		return err
	}
	defer j.Close()
	stored, err := alert.Load(ctx, j)
	if err != nil {
		return err
	}
	if len(stored) == 0 {
		return usagef("no alerts to watch; add one: tradedesk alert add 'btc > 100000' (or [[alert]] tables in the config)")
	}
	w := &watcher{r: r, j: j, eng: alert.New(), store: state.New(r.env.Now), delivery: r.alertDelivery()}
	if !o.noDesktop {
		w.delivery.Desktop = alert.NewDesktop(r.env.Getenv, terminal(r.env.Stderr))
	}
	w.eng.Set(alert.Rules(stored))
	w.feed = feed.New(feed.NewRealClock(r.env.Now), 5*time.Second, 30*time.Second)
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt) // a service manager stops it as Ctrl+C does
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w.stop = cancel
	r.jsonDone = r.o.json
	cmds := w.start(o.every)
	if !o.noStream {
		streamCmds, closeStream := w.stream()
		defer closeStream()
		cmds = append(cmds, streamCmds...)
	}
	err = feed.Run(ctx, feed.Batch(cmds...), w.deliver)
	w.wg.Wait()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// terminal is w when it is a terminal (the desktop escape's way out: stderr, so stdout's lines stay
// clean), else nil.
func terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return f
	}
	return nil
}

// alertDelivery is the config's on_alert and webhook.
func (r *runner) alertDelivery() *alert.Delivery {
	a := r.o.conn.Alerting
	if a == nil {
		return &alert.Delivery{}
	}
	return &alert.Delivery{Command: a.Command, Webhook: a.Webhook}
}

// watcher is `alerts watch`'s loop: the feed's polls applied to a store, the engine checked after
// each change.
type watcher struct {
	r        *runner
	j        *journal.Journal
	eng      *alert.Engine
	store    *state.Store
	feed     *feed.Feed
	delivery *alert.Delivery
	stop     func()
	wg       sync.WaitGroup
	errMu    sync.Mutex
	fired    int
	lastErr  map[state.Kind]string
}

// start adds the polls the rules read and returns their first commands. The tickers are the
// heartbeat (exchange down).
func (w *watcher) start(every time.Duration) []feed.Cmd {
	ex, user := w.r.client, w.r.client.Address()
	polls := []struct {
		kind  state.Kind
		every time.Duration
		req   feed.Request
	}{
		{state.KindInstruments, 5 * time.Minute, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			in, err := ex.Instruments(ctx, "all")
			return state.InstrumentsMsg{Gen: gen, At: at, Instruments: in}, err
		}},
		{state.KindTickers, every, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			ts, err := ex.Ticker(ctx, "all")
			return state.TickersMsg{Gen: gen, At: at, Tickers: ts}, err
		}},
		{state.KindMids, every, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			ms, err := ex.Mids(ctx, "all")
			return state.MidsMsg{Gen: gen, At: at, Mids: ms}, err
		}},
	}
	if user != "" {
		polls = append(polls, accountPolls(ex, user, 2*every)...)
	}
	cmds := make([]feed.Cmd, 0, len(polls))
	for _, p := range polls {
		req, d := p.req, p.every
		t := w.feed.Add(feed.Spec{Kind: p.kind, Heartbeat: p.kind == state.KindTickers,
			Every: func() time.Duration { return d }, Request: func() feed.Request { return req }})
		cmds = append(cmds, t.Start())
	}
	return cmds
}

// stream adds the exchange's WebSocket beside the polls, as the console does (the polls then only
// reconcile): every ticker and mid, and the account's channels. None when the exchange has none.
func (w *watcher) stream() ([]feed.Cmd, func()) {
	c, ok := w.r.client.(*api.Client)
	if !ok {
		return nil, func() {}
	}
	u, err := api.StreamURL(c.BaseURL())
	if err != nil {
		fmt.Fprintf(w.r.env.Stderr, "no stream (%s): polling\n", text.Clean(err.Error()))
		return nil, func() {}
	}
	st, user := api.NewStream(u), c.Address()
	var quiet []state.Kind
	topics := []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}, {Channel: api.ChanMids, Symbol: "all"}}
	if user != "" {
		quiet = feed.AccountKinds()
		for _, ch := range []string{api.ChanOrders, api.ChanFills, api.ChanPositions, api.ChanAccount} {
			topics = append(topics, api.Topic{Channel: ch, User: user})
		}
	}
	w.feed.AddSource(feed.Source{Inbox: st.Inbox(), Message: feed.StreamMessage(w.store), Kinds: feed.StreamKinds(user != ""),
		Quiet: quiet, Reconcile: 30 * time.Second, Frame: 50 * time.Millisecond, Kind: feed.TopicKind,
		Drop: feed.UnknownInstrument(w.store), Resubscribe: st.Resubscribe, Topics: st.Topics})
	return []feed.Cmd{feed.Subscribe(st, topics, nil), w.feed.StartSource()}, func() { st.Close() }
}

// accountPolls are the account's polls: summary, positions, open orders, fills, the order
// history's newest page (cancels and triggers when no stream says them) and funding payments.
func accountPolls(ex api.Exchange, user string, every time.Duration) []struct {
	kind  state.Kind
	every time.Duration
	req   feed.Request
} {
	type poll = struct {
		kind  state.Kind
		every time.Duration
		req   feed.Request
	}
	return []poll{
		{state.KindAccount, every, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			a, err := ex.AccountSummary(ctx, user)
			return state.AccountMsg{Gen: gen, At: at, Summary: a}, err
		}},
		{state.KindPositions, every, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			ps, err := ex.Positions(ctx, user)
			return state.PositionsMsg{Gen: gen, At: at, Positions: ps}, err
		}},
		{state.KindOrders, every, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			page := func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
				return ex.OpenOrders(ctx, user, p)
			}
			os, err := api.AllPagesUpTo(ctx, page, 0, api.MaxOpenOrders)
			return state.OrdersMsg{Gen: gen, At: at, Orders: os}, err
		}},
		{state.KindFills, every, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			pg, err := ex.Fills(ctx, user, api.PageParams{Page: 1, Limit: 100})
			return state.FillsMsg{Gen: gen, At: at, Page: pg}, err
		}},
		{state.KindHistory, every, func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			pg, err := ex.OrderHistory(ctx, user, api.PageParams{Page: 1, Limit: 50})
			return state.HistoryMsg{Gen: gen, At: at, Page: pg}, err
		}},
		{state.KindFunding, max(5*every, 10*time.Second), func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			pg, err := ex.FundingHistory(ctx, user, api.PageParams{Page: 1, Limit: 50})
			return state.FundingMsg{Gen: gen, At: at, Page: pg}, err
		}},
	}
}

// deliver applies one feed message to the store and fires what the engine finds.
func (w *watcher) deliver(m feed.Message) feed.Cmd {
	fm, ok := m.(feed.Msg)
	if !ok {
		return nil
	}
	res := w.feed.Update(fm)
	w.sayError(res)
	var applied []state.Msg
	for _, sm := range append([]state.Msg{res.Msg}, res.Msgs...) {
		if sm != nil && w.store.Apply(sm) {
			applied = append(applied, sm)
		}
	}
	now := w.r.env.Now()
	c := w.feed.Conn()
	link := alert.Link{HasStream: c.HasStream, StreamUp: c.Stream, ExchangeUp: c.State != feed.Retrying}
	evs := w.eng.Check(now, w.store, link, applied...)
	w.fire(now, evs)
	return res.Cmd
}

// fire writes each alert, records it delivered, and hands the burst to on_alert and the webhook.
func (w *watcher) fire(now time.Time, evs []alert.Event) {
	if len(evs) == 0 {
		return
	}
	out := w.r.env.Stdout
	for _, ev := range evs {
		var err error
		if w.r.o.json {
			err = json.NewEncoder(out).Encode(ev)
		} else {
			_, err = fmt.Fprintf(out, "%s %s %s\n", ev.Time.Local().Format("15:04:05"), ev.ID, text.Clean(ev.Text))
		}
		if err == nil {
			w.eng.Delivered(ev, now)
			_ = w.j.AlertFired(context.Background(), ev.ID, now)
		}
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for _, err := range w.delivery.Send(context.Background(), evs) {
			w.errMu.Lock()
			fmt.Fprintf(w.r.env.Stderr, "alert: %s\n", text.Clean(err.Error()))
			w.errMu.Unlock()
		}
	}()
	if w.fired += len(evs); w.r.o.alert.count > 0 && w.fired >= w.r.o.alert.count {
		w.stop()
	}
}

// sayError says a kind's failure on stderr once, and its recovery.
func (w *watcher) sayError(res feed.Result) {
	if w.lastErr == nil {
		w.lastErr = map[state.Kind]string{}
	}
	msg := ""
	if res.Err != nil {
		msg = text.Clean(res.Err.Error())
	}
	if res.Msg == nil && len(res.Msgs) == 0 || w.lastErr[res.Kind] == msg {
		return
	}
	w.lastErr[res.Kind] = msg
	w.errMu.Lock()
	defer w.errMu.Unlock()
	if msg != "" {
		fmt.Fprintf(w.r.env.Stderr, "%s: %s\n", res.Kind, msg)
	} else {
		fmt.Fprintf(w.r.env.Stderr, "%s: back\n", res.Kind)
	}
}
