package ui

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// soakIntervals is a fast cadence (on the stepped clock it only orders the polls: a soak's time
// is its requests').
var soakIntervals = Intervals{
	Tickers: 25 * time.Millisecond, Account: 50 * time.Millisecond, Positions: 50 * time.Millisecond,
	Orders: 50 * time.Millisecond, Instruments: time.Second, Timeout: 2 * time.Second,
	MaxBackoff: 200 * time.Millisecond,
}

// fastPanes makes the panes' own polls (fills, history, chart, leverage, brokers) run every
// 100 ms for the test.
func fastPanes(t testing.TB, m *Model) { paneEvery(t, m, 100*time.Millisecond) }

// paneEvery sets the interval of the panes' own polls (fills, history, chart, leverage, brokers)
// on m's feed tasks, so the test changes no package variable and may run in parallel.
func paneEvery(t testing.TB, m *Model, every time.Duration) {
	t.Helper()
	want := map[state.Kind]bool{state.KindFills: false, state.KindHistory: false, state.KindChart: false,
		state.KindLeverage: false, state.KindBrokers: false}
	for _, task := range m.feed.Tasks() {
		if _, ok := want[task.Kind()]; ok {
			task.SetEvery(func() time.Duration { return every })
			want[task.Kind()] = true
		}
	}
	for k, set := range want {
		if !set {
			t.Fatalf("paneEvery: the console has no %s task to set", k)
		}
	}
}

// soakConsole is a console trading a deterministic simulator through a fault gate, with short
// timeouts and the client's own retries as main sets them up (faster), and its timers on a fake
// clock for a driver to step.
func soakConsole(t testing.TB, rate float64) (*Model, *sim.Sim, *faultGate, *api.Client, *feed.FakeClock) {
	t.Helper()
	return soakConsoleRetrying(t, rate, soakRetry)
}

// soakRetry is the soak console's retries of a failed read: main's, faster.
var soakRetry = api.RetryPolicy{Attempts: 3, BaseDelay: 10 * time.Millisecond, MaxDelay: 40 * time.Millisecond, MaxWait: 100 * time.Millisecond}

// soakConsoleRetrying is soakConsole with the client's retries of a failed read given.
func soakConsoleRetrying(t testing.TB, rate float64, retry api.RetryPolicy) (*Model, *sim.Sim, *faultGate, *api.Client, *feed.FakeClock) {
	t.Helper()
	clock := sim.NewTestClock(simStart)
	s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
	gate := newFaultGate(s, 11, rate)
	srv := httptest.NewUnstartedServer(gate)
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			gate.conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL+"/", api.WithSigner(signer), api.WithClock(clock.Now), api.WithRetry(retry),
		api.WithTimeout(250*time.Millisecond))
	timers := feed.NewFakeClock(simStart)
	m := New(Config{Exchange: client, Clock: clock.Now, Timers: timers, Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo,
		Network: "demo", Intervals: soakIntervals, Instrument: "BTC-PERP", Exec: testExec(t, client, "")})
	m.fixedLatency = true
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	fastPanes(t, m)
	return m, s, gate, client, timers
}

// allCloids reads every order of the account from the simulator (open orders and history) and
// counts each client id.
func allCloids(t testing.TB, c *api.Client) map[string]int {
	t.Helper()
	ctx := context.Background()
	out := map[string]int{}
	hist, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return c.OrderHistory(ctx, c.Address(), p)
	}, 0, nil)
	if err != nil {
		t.Fatalf("order history: %v", err)
	}
	open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return c.OpenOrders(ctx, c.Address(), p)
	}, 0, nil)
	if err != nil {
		t.Fatalf("open orders: %v", err)
	}
	seen := map[api.OrderID]bool{}
	for _, o := range append(hist, open...) {
		if o.Cloid == "" || seen[o.OrderID] {
			continue // an open order also in history is one order
		}
		seen[o.OrderID] = true
		out[o.Cloid]++
	}
	return out
}

// soakOrder fills the order form through its keys: a small BTC-PERP limit buy 2% under the mark,
// which rests on the book.
func soakOrder(t testing.TB, d *driver) {
	t.Helper()
	tk, ok := d.m.store.Ticker("BTC-PERP")
	if !ok {
		t.Fatal("no BTC-PERP ticker")
	}
	px := tk.MarkPrice.Mul(decimal.RequireFromString("0.98")).Round(0)
	d.press("4")
	if d.m.slots[d.m.focus].pane != d.m.form {
		t.Fatal("key 4 does not focus the order form")
	}
	d.m.form.Focus(orderentry.FieldInstrument)
	d.press("ctrl+x", "down", "down", "down")
	d.typeText(px.String())
	d.press("down")
	d.typeText("0.001")
	d.press("esc") // to the submit button: Enter now submits, number keys move focus
}

// soakResult is what the soak saw, for the assertions and the log.
type soakResult struct {
	confirmed  int             // orders confirmed in the dialog
	cancels    int             // cancels pressed
	acts       int             // orders submitted and cancels pressed
	ambiguous  map[string]bool // cloids whose answer was lost (looked up)
	resolved   map[string]string
	lookupErrs int
}

// TestSoakFaults runs the console against the simulator with faults on (5xx, timeouts, garbage,
// lost answers) for at least 100 ticker poll cycles and 20 orders (under -race 40 and 10), placing and cancelling orders
// through the keys as it goes (the console's timers on a clock the test steps); then takes the
// exchange down; then brings it back. No panic, no client id sent or placed twice, every lost
// answer looked up and its finding true, no goroutine growth while down, and every pane fresh
// again once the faults stop. Its waits are for conditions; their deadlines only stop a hang. It
// runs in its own process (ownProcess).
func TestSoakFaults(t *testing.T) {
	if !ownProcess(t) { // it counts the process's goroutines and live heap
		return
	}
	// The plain run soaks 100 ticker cycles and 20 orders. Under -race (raceBuild), where this
	// was the package's costliest test but one, 40 and 10: the gate's eight order faults are all
	// met within them (both a lost answer found and one not placed), and the down and recovery
	// phases are as long as ever.
	cycles, soakOrders := 100, 20
	if raceBuild {
		cycles, soakOrders = 40, 10
	}
	m, s, gate, client, timers := soakConsole(t, 0.3)
	m.reviewEveryOrder() // every order and cancel through its dialog, as the soak counts them
	oldLog := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { slog.SetDefault(oldLog) })
	d := newDriver(t, m, timers)
	d.stepBusy = true // the polls go on while a request stalls until the client's timeout
	res := soakResult{ambiguous: map[string]bool{}, resolved: map[string]string{}}
	tickerPolls := 0
	d.before = func(msg tea.Msg) {
		if msg, ok := msg.(feed.DoneMsg); ok && msg.Kind() == state.KindTickers && msg.Current() {
			tickerPolls++
			s.Advance(100 * time.Millisecond)
		}
	}
	d.after = func(m0 tea.Msg) {
		// The executor looked the lost answer up before it answered (the gate made the lookup
		// meet a fault: lostAnswer).
		msg, ok := m0.(action.DoneMsg)
		if !ok || msg.Act.Kind != action.KindPlace || !msg.Out.AnswerLost {
			return
		}
		gate.lookupDone()
		cloid := msg.Out.Cloid
		res.ambiguous[cloid] = true
		switch {
		case msg.Out.Kind == exec.Unknown:
			res.lookupErrs++
			res.resolved[cloid] = "lookup failed"
		case msg.Out.Found != nil:
			res.resolved[cloid] = "found"
		default:
			res.resolved[cloid] = "not placed"
		}
		if want := map[string]string{"found": "the exchange has it", "not placed": "was NOT placed", "lookup failed": "the lookup did not settle it"}[res.resolved[cloid]]; !strings.Contains(m.shownNotice(), want) {
			t.Errorf("after the lookup of %s the status says %q, want %q", cloid, m.shownNotice(), want)
		}
	}

	d.run(m.Init())
	if !d.until(30*time.Second, func() bool {
		return m.store.Freshness(state.KindTickers).Loaded() && m.store.Freshness(state.KindAccount).Loaded()
	}) {
		t.Fatal("the console did not load tickers and the account against a clean simulator")
	}
	soakOrder(t, d)

	gate.orderFaults = []string{faultNone, faultLostAfter, faultStall, faultLostBefore, faultGarbage, fault5xx, faultNone, faultLostAfter}
	gate.set(gateFaulty)
	start := tickerPolls
	last := 0
	giveUp := time.Now().Add(2 * time.Minute) // the cycles take a few seconds; this only stops a hang
	// The clock runs ahead while an action is out, so the cycles alone do not say how much was
	// traded: the soak goes on until it has done enough (the order faults above are all met by
	// then, so every kind of lost answer is looked up).
	for tickerPolls-start < cycles || res.confirmed < soakOrders || res.cancels < 3 {
		if time.Now().After(giveUp) {
			t.Fatalf("only %d of %d ticker cycles, %d of %d orders confirmed and %d cancels in 2 minutes",
				tickerPolls-start, cycles, res.confirmed, soakOrders, res.cancels)
		}
		d.until(200*time.Millisecond, func() bool { return tickerPolls-start != last })
		last = tickerPolls - start
		soakStep(t, d, &res)
	}
	settleActions(t, d)

	// The exchange goes down: the console keeps polling with backoff, and grows nothing.
	gate.set(gateDown)
	polls := func() int { return tickerPolls }
	cyclesOf(d, polls, 10)
	samples := downGrowsNothing(t, d, polls)
	if !strings.Contains(m.View(), "reconnecting") {
		t.Error("the status line does not say the console is reconnecting while the exchange is down")
	}

	// Back up: every kind polled and every pane's own request succeed again, on their own.
	gate.set(gateClean)
	back := time.Now()
	fresh := func() bool { return staleKinds(m) == "" }
	if !d.until(2*time.Minute, fresh) { // the backoff is on the stepped clock: this only stops a hang
		t.Fatalf("still stale %s after the exchange came back: %s", time.Since(back).Round(time.Millisecond), staleKinds(m))
	}
	recovered := time.Since(back)
	lines := strings.Split(m.View(), "\n")
	screen := strings.Join(lines[:len(lines)-2], "\n") // without the last action's result and the key hints
	for _, w := range []string{"stale", "retrying", "reconnecting", "failed", "loading"} {
		if strings.Contains(screen, w) {
			t.Errorf("the screen still says %q once every kind is fresh:\n%s", w, screen)
		}
	}

	sent, acted, faults := gate.stats()
	placed := allCloids(t, client)
	for c, n := range sent {
		if n > 1 {
			t.Errorf("client id %s was sent %d times", c, n)
		}
	}
	for c, n := range placed {
		if n > 1 {
			t.Errorf("client id %s is %d times in the simulator's orders", c, n)
		}
	}
	for c := range res.ambiguous {
		r, ok := res.resolved[c]
		switch {
		case !ok:
			t.Errorf("lost answer for %s was never looked up", c)
		case r == "found" && placed[c] == 0:
			t.Errorf("the lookup found %s but the simulator has no such order", c)
		case r == "not placed" && placed[c] > 0:
			t.Errorf("the lookup said %s was not placed but the simulator has it", c)
		}
	}
	if res.lookupErrs > 0 {
		t.Errorf("%d lookups of lost answers failed (the faults hit the lookup too) and were left to the trader", res.lookupErrs)
	}
	outcomes := map[string]int{}
	for _, r := range res.resolved {
		outcomes[r]++
	}
	if outcomes["found"] == 0 || outcomes["not placed"] == 0 {
		t.Errorf("the soak tested too little: %d orders confirmed, %d lost answers, faults %v", res.confirmed, len(res.ambiguous), faults)
	}
	actedN := 0
	for range acted {
		actedN++
	}
	t.Logf("%d ticker cycles: %d orders confirmed (%d reached the exchange, %d in its books), %d cancels, %d lost answers looked up (%v), faults %v; goroutines while down %v; recovered in %s",
		tickerPolls-start, res.confirmed, actedN, len(placed), res.cancels, len(res.ambiguous), outcomes, faults, samples, recovered.Round(time.Millisecond))
}

// cyclesOf runs the console (its clock stepped) until polls, its ticker poll count, has gone n
// further. The deadline only stops a hang: a console that stops polling fails elsewhere.
func cyclesOf(d *driver, polls func() int, n int) {
	to := polls() + n
	d.until(30*time.Second, func() bool { return polls() >= to })
}

// downGrowsNothing samples the console while the exchange is down and fails if it grows. Two
// measures: its pending timers, exactly (each poll and pane request has at most one live timer,
// and nothing supersedes a timer while every request fails, so the pending timers can exceed
// those at the start by at most one per poll, pane request and flash: a superseded timer left
// behind per failed poll grows past that within the window); and the process's goroutines, which
// also count requests in flight, connections and the runtime's own, so a growth there must last
// through three rounds of sampling, as a leak does and a burst of slow requests does not. It
// returns the goroutine counts of the last round. A sample is taken every three ticker poll
// cycles (polls counts them), on the clock the driver steps: the same cycles however fast the
// machine runs them (they were 80 ms of wall time each, about three cycles). A round is 12
// samples, 36 cycles: a timer left per failed poll outgrows the tasks within the first, a
// goroutine left per failed request outgrows the noise within it, and the first and last six
// samples a round compares are still apart. It was 30 samples in the plain run (12 under -race,
// where the rounds were most of the soak's time and CPU), a third of the soak's CPU there too.
func downGrowsNothing(t *testing.T, d *driver, polls func() int) []int {
	t.Helper()
	// First every answer given before the exchange went down is back and handled (a good one
	// polls every failing kind at once, superseding their timers): from here on all fail.
	if !d.drain(30 * time.Second) {
		t.Fatal("the console's requests did not return while the exchange was down")
	}
	for len(d.msgs) > 0 {
		d.handle(<-d.msgs)
	}
	live := len(d.m.feed.Tasks()) + 1
	firstTimers := d.clock.Pending()
	heapBefore := liveHeap()
	defer func() {
		// Memory: what is still reachable after the down rounds must not have grown by more than
		// the noise of a few failed requests in flight.
		if grown := int64(liveHeap()) - int64(heapBefore); grown > 4<<20 {
			t.Errorf("live heap grew by %d KB while the exchange was down (from %d KB)", grown>>10, heapBefore>>10)
		} else {
			t.Logf("live heap while down: %d KB, then %+d KB", heapBefore>>10, grown>>10)
		}
	}()
	var base int
	var samples []int
	const perRound = 12
	for round := range 3 {
		samples = samples[:0]
		var timers []int
		for range perRound {
			cyclesOf(d, polls, 3)
			samples = append(samples, runtime.NumGoroutine())
			timers = append(timers, d.clock.Pending())
		}
		if round == 0 {
			if grown := slices.Max(timers) - firstTimers; grown > live {
				t.Errorf("pending timers grew by %d (more than the %d polls, pane requests and flash can hold) while the exchange was down: %v",
					grown, live, timers)
			}
			base = mean(samples[:6])
		}
		if last := mean(samples[len(samples)-6:]); last <= base+8 {
			return samples
		}
	}
	buf := make([]byte, 1<<20)
	t.Errorf("goroutines grew while the exchange was down, through three rounds of sampling: from about %d to %v\n%s",
		base, samples, buf[:runtime.Stack(buf, true)])
	return samples
}

// liveHeap is the heap still reachable after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func mean(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / max(len(xs), 1)
}

// settleActions lets the last action and its lookup finish, faults still on. A confirmation the
// last step opened (a submit, when the cycles were the last count to be met) is declined, so
// nothing more is sent; without that the soak waited for a dialog nobody would answer. The
// deadline only stops a hang: the wait is for the pipeline to empty, however long that takes.
func settleActions(t *testing.T, d *driver) {
	t.Helper()
	m := d.m
	giveUp := time.Now().Add(2 * time.Minute)
	for m.pipe.open > 0 || m.confirmation() != nil {
		if time.Now().After(giveUp) {
			t.Fatalf("an action never finished in 2 minutes: %d out, an order out %v, a dialog open %v",
				m.pipe.open, m.pipe.busy(action.LaneOrder), m.confirmation() != nil)
		}
		if m.confirmation() != nil {
			d.press("esc") // the dialog's answer comes back as a message
			d.until(200*time.Millisecond, func() bool { return m.confirmation() == nil })
			continue
		}
		d.until(200*time.Millisecond, func() bool { return m.pipe.open == 0 || m.confirmation() != nil })
	}
}

// soakStep acts once per ticker cycle: confirm an open dialog (or back out of one that wants a
// typed word), or, once the last action is done, place an order or (every fourth act) cancel the
// first open one. It acted every third cycle, cancelling on every ninth: the soak ran 200-280
// cycles to confirm its 20 orders and press its 3 cancels, two thirds of them idle.
func soakStep(t testing.TB, d *driver, res *soakResult) {
	t.Helper()
	m := d.m
	if m.confirmation() != nil {
		if m.confirmation().Action().Typed != "" {
			d.press("esc")
			return
		}
		if m.confirmation().Action().Kind == action.KindPlace {
			res.confirmed++
		}
		d.press("enter")
		return
	}
	if m.pipe.open > 0 {
		return
	}
	if m.form.Capturing() {
		d.press("esc")
	}
	res.acts++
	if res.acts%4 == 0 && len(m.store.Orders()) > 0 {
		d.press("3", "x", "enter", "4")
		res.cancels++
		return
	}
	if m.form.Value(orderentry.FieldSize) == "" {
		soakOrder(t, d) // the form forgets a sent order's numbers (#23): type the next one
	}
	if m.slots[m.focus].pane != m.form {
		d.press("4")
	}
	if m.form.Field() != orderentry.FieldSubmit {
		d.press("esc")
	}
	d.press("enter") // submit: the confirmation opens
}

// staleKinds lists what is not fresh: every kind the root polls, and every pane's own kind that
// has been asked for.
func staleKinds(m *Model) string {
	var bad []string
	for _, k := range m.kinds {
		if f := m.store.Freshness(k); f.Stale || !f.Loaded() {
			bad = append(bad, fmt.Sprintf("%s (%v)", k, f.Err))
		}
	}
	for _, task := range m.feed.Tasks() {
		if fr := m.store.Freshness(task.Kind()); task.Started() && fr.Err != nil && !slices.Contains(m.kinds, task.Kind()) {
			bad = append(bad, fmt.Sprintf("%s (%v)", task.Kind(), fr.Err))
		}
	}
	for _, s := range m.slots {
		if fr := m.freshness(s.pane); fr != "" {
			bad = append(bad, s.pane.Title()+": "+fr)
		}
	}
	return strings.Join(bad, ", ")
}
