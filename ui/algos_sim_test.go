package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// driver feeds a console the messages of the commands it starts, as Bubble Tea does, until a
// condition holds: unlike pump it does not wait for every command, so a running algorithm (whose
// progress the model waits on) does not hold it.
type algoDriver struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
}

func newAlgoDriver(t *testing.T, m *Model) *algoDriver {
	return &algoDriver{t: t, m: m, msgs: make(chan tea.Msg, 4096)}
}

func (dr *algoDriver) run(c tea.Cmd) {
	if c != nil {
		go func() { dr.msgs <- c() }()
	}
}

// until delivers messages until cond holds (checked after each).
func (dr *algoDriver) until(what string, cond func() bool) {
	dr.t.Helper()
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case msg := <-dr.msgs:
			switch msg := msg.(type) {
			case nil:
			case tea.BatchMsg:
				for _, c := range msg {
					dr.run(c)
				}
			default:
				_, next := dr.m.Update(msg)
				dr.run(next)
			}
		case <-deadline.C:
			dr.t.Fatalf("%s: not reached (notice %q, rows %+v)", what, dr.m.shownNotice(), dr.m.algoPane.Rows())
		}
	}
}

func (dr *algoDriver) key(keys ...string) {
	for _, k := range keys {
		_, c := dr.m.Update(keyMsg(k))
		dr.run(c)
	}
}

// command types line on the command line, enters it and confirms its preview.
func (dr *algoDriver) command(line string) {
	dr.t.Helper()
	dr.key(":")
	for _, r := range line {
		_, c := dr.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(r))})
		dr.run(c)
	}
	dr.key("enter")
	dr.until("the preview of "+line, func() bool { return dr.m.confirmation() != nil })
	if body := strings.Join(dr.m.confirmation().Action().Lines, "\n"); !strings.Contains(body, "Sends") {
		dr.t.Fatalf("%s: the preview does not say what it sends:\n%s", line, body)
	}
	dr.key("enter")
}

// row is the pane's row of kind ("" when none).
func (dr *algoDriver) row(kind string) (algos.Row, bool) {
	for _, r := range dr.m.algoPane.Rows() {
		if r.Kind == kind {
			return r, true
		}
	}
	return algos.Row{}, false
}

func algoChildren(os []api.OrderRecord) []api.OrderRecord {
	var out []api.OrderRecord
	for _, o := range os {
		if algo.GroupOf(o.Cloid) != "" {
			out = append(out, o)
		}
	}
	return out
}

// TestConsoleScalePlacesItsRungsAndStopCancelsThem: `:scale buy 0.1 btc LO-HI x10` previews its
// rungs, places ten resting orders, the Algos view shows the scale; s on it cancels them all.
func TestConsoleScalePlacesItsRungsAndStopCancelsThem(t *testing.T) {
	t.Parallel() // waits on the simulator (or the guard) on wall time while the others run
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	dr := newAlgoDriver(t, c.m)
	mid, ok := c.m.store.Mid("BTC-PERP")
	if !ok {
		t.Fatal("no BTC mid")
	}
	lo, hi := mid.Mul(d("0.95")).Round(0), mid.Mul(d("0.97")).Round(0)
	dr.command("scale buy 0.1 btc " + lo.String() + "-" + hi.String() + " x10")
	dr.until("the scale in the Algos view", func() bool { _, ok := dr.row("scale"); return ok })
	if n := len(algoChildren(c.openOrders(t))); n != 10 {
		t.Fatalf("scale: %d rungs resting, want 10", n)
	}
	r, _ := dr.row("scale")
	if !r.Target.Equal(d("0.1")) || !strings.Contains(r.Detail, "10 of 10 rungs placed") {
		t.Fatalf("scale row %+v", r)
	}
	c.m.showPane(c.m.algoPane)
	dr.key("s")
	dr.until("the scale stopped", func() bool { r, _ := dr.row("scale"); return r.State == algo.StateStopped })
	if n := len(algoChildren(c.openOrders(t))); n != 0 {
		t.Fatalf("after s: %d rungs still resting", n)
	}
}

// TestConsoleChaseRunsToItsTarget: a taker sells into the chase's working order until it is
// filled; the Algos view ends with filled = target, done, and its average.
func TestConsoleChaseRunsToItsTarget(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	dr := newAlgoDriver(t, c.m)
	taker := takerOn(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			pg, err := c.m.ex.OpenOrders(ctx, c.m.ex.Address(), api.PageParams{Page: 1})
			if err == nil {
				for _, o := range algoChildren(pg.Data) {
					_, _ = taker.PlaceOrders(ctx, []api.OrderWire{{InstrumentID: o.InstrumentID, Side: api.SideSell, PositionSide: api.PositionSideBoth,
						Price: o.LimitPrice.String(), Size: d("0.004").String(), Tif: api.TifIOC}})
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	dr.command("chase buy 0.01 btc")
	dr.until("the chase done", func() bool { r, _ := dr.row("chase"); return r.State == algo.StateDone })
	r, _ := dr.row("chase")
	if !r.Filled.Equal(r.Target) || !r.Target.Equal(d("0.01")) || !r.AvgPrice.IsPositive() {
		t.Fatalf("chase row %+v: want filled = target 0.01 with an average", r)
	}
	if n := len(algoChildren(c.openOrders(t))); n != 0 {
		t.Fatalf("after the chase: %d children still open", n)
	}
}

// TestConsoleStopsAChase: s on a running chase stops it and cancels its working order.
func TestConsoleStopsAChase(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	dr := newAlgoDriver(t, c.m)
	dr.command("chase buy 0.01 btc for 5m")
	dr.until("the chase working", func() bool { r, _ := dr.row("chase"); return r.WorkingPrice != nil })
	if n := len(algoChildren(c.openOrders(t))); n != 1 {
		t.Fatalf("a working chase has %d children open, want 1", n)
	}
	if r, _ := dr.row("chase"); r.Until.IsZero() {
		t.Fatalf("a chase for 5m has no end: %+v", r)
	}
	c.m.showPane(c.m.algoPane)
	dr.key("s")
	dr.until("the chase stopped", func() bool { r, _ := dr.row("chase"); return r.State == algo.StateStopped })
	if n := len(algoChildren(c.openOrders(t))); n != 0 {
		t.Fatalf("after s: %d children still open", n)
	}
	if !strings.Contains(c.m.algoPane.View(), "stopped") {
		t.Fatalf("the Algos view does not show the stop:\n%s", c.m.algoPane.View())
	}
}

// takerOn is a funded second account on c's simulator.
func takerOn(t *testing.T, c *simConsole) *api.Client {
	t.Helper()
	s, err := api.SignerFromHex(takerKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.sim.Fund(s.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	return api.New(c.url+"/", api.WithClock(c.clock.Now), api.WithSigner(s), api.WithRetry(api.RetryPolicy{Attempts: 1}))
}

// TestConsoleSettlesAlgorithmsLeftRunning: the journal holds two chases an earlier run left
// running; at start a notice names them and each has its row (its target, what it filled); `:algos cancel ID` ends one cancelled, `:algos resume ID`
// runs the other here (its order rests, the Algos view shows it running), and s stops it.
func TestConsoleSettlesAlgorithmsLeftRunning(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	j := c.m.exec.Journal()
	raw := []byte(`{"instrument":"BTC-PERP","side":"buy","size":"0.01","limit":"0","until":"0001-01-01T00:00:00Z","arrival":"97000"}`)
	var ids []string
	for range 2 {
		id, err := j.BeginAlgo(t.Context(), journal.Algo{Kind: "chase", Params: raw})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	msg, ok := c.m.algos.LeftRunning()().(algos.LeftMsg)
	if !ok || !strings.Contains(msg.Notice.Text, "2 algorithm(s) left running") || !strings.Contains(msg.Notice.Text, ids[0]) ||
		!strings.Contains(msg.Notice.Text, ":algos resume|cancel|flatten ID") || len(msg.Rows) != 2 || !msg.Rows[0].Target.Equal(d("0.01")) {
		t.Fatalf("the start's notice: %+v", msg)
	}
	dr := newAlgoDriver(t, c.m)
	rowOf := func(id string) algos.Row {
		for _, r := range c.m.algoPane.Rows() {
			if r.ID == id {
				return r
			}
		}
		return algos.Row{}
	}
	dr.line("algos cancel " + ids[0])
	dr.until("the first cancelled", func() bool { return rowOf(ids[0]).State == algo.StateCancelled })
	dr.line("algos resume " + ids[1])
	dr.until("the second working", func() bool { return rowOf(ids[1]).WorkingPrice != nil })
	if n := len(algoChildren(c.openOrders(t))); n != 1 {
		t.Fatalf("the resumed chase has %d children open, want 1", n)
	}
	c.m.showPane(c.m.algoPane)
	dr.key("s")
	dr.until("the resumed chase stopped", func() bool { return rowOf(ids[1]).State == algo.StateStopped })
	if n := len(algoChildren(c.openOrders(t))); n != 0 {
		t.Fatalf("after s: %d children open", n)
	}
}

// line types line on the command line and enters it (no confirmation).
func (dr *algoDriver) line(line string) {
	dr.key(":")
	for _, r := range line {
		_, c := dr.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(r))})
		dr.run(c)
	}
	dr.key("enter")
}

// TestConsoleTWAPFillsItsSize: `:twap buy 0.02 btc 4s slices 2` works two IOC slices inside the
// default band and ends done with filled = its size and its average from the fills. The
// simulator's clock (the algorithms' clock here) is moved along meanwhile.
func TestConsoleTWAPFillsItsSize(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.m.algos.Now = c.clock.Now
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			c.clock.Add(200 * time.Millisecond)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	dr := newAlgoDriver(t, c.m)
	dr.command("twap buy 0.02 btc 4s slices 2")
	dr.until("the TWAP done", func() bool { r, _ := dr.row("twap"); return r.State == algo.StateDone })
	r, _ := dr.row("twap")
	if !r.Filled.Equal(d("0.02")) || !r.AvgPrice.IsPositive() || r.Slices < 1 {
		t.Fatalf("twap row %+v: want 0.02 filled with an average", r)
	}
}

// TestConsoleTrailKeepsAStopAndSLeavesIt: on a long, `:trail btc 2%` rests a reduce-only stop
// under the mark and the Algos view shows it running; s stops following and the stop stays at
// the exchange.
func TestConsoleTrailKeepsAStopAndSLeavesIt(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.commandConfirmed(t, "buy 0.01 btc mkt")
	dr := newAlgoDriver(t, c.m)
	dr.command("trail btc 2%")
	dr.until("the trail running", func() bool {
		r, _ := dr.row("trail")
		return r.State == "running" && len(algoChildren(c.openOrders(t))) == 1
	})
	stop := algoChildren(c.openOrders(t))[0]
	if !stop.ReduceOnly || stop.Side != api.SideSell {
		t.Fatalf("the trail's stop %+v: want a reduce-only sell", stop)
	}
	c.m.showPane(c.m.algoPane)
	dr.key("s")
	dr.until("the trail stopped", func() bool { r, _ := dr.row("trail"); return r.State != "running" })
	if n := len(algoChildren(c.openOrders(t))); n != 1 {
		t.Fatalf("after s: %d stops at the exchange, want the one kept", n)
	}
}

// TestConsolePausesAndResumesAChase: p on a working chase in the Algos view pauses it (its order
// cancelled, the row and the journal say paused), p again resumes it (an order works again),
// `:algos pause ID` pauses it from the command line, and s stops it while paused.
func TestConsolePausesAndResumesAChase(t *testing.T) {
	t.Parallel() // waits on the simulator (or the guard) on wall time while the others run
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	dr := newAlgoDriver(t, c.m)
	dr.command("chase buy 0.01 btc")
	dr.until("the chase working", func() bool { r, _ := dr.row("chase"); return r.WorkingPrice != nil })
	c.m.showPane(c.m.algoPane)
	paused := func() bool { r, _ := dr.row("chase"); return r.State == algo.StatePaused && r.WorkingPrice == nil }
	dr.key("p")
	dr.until("the chase paused", paused)
	r, _ := dr.row("chase")
	if n := len(algoChildren(c.openOrders(t))); n != 0 {
		t.Fatalf("paused: %d children open", n)
	}
	if st, _ := c.m.exec.Journal().AlgoState(t.Context(), r.ID); st != algo.StatePaused {
		t.Fatalf("the journal says %q", st)
	}
	if !strings.Contains(c.m.algoPane.View(), "p resumes") {
		t.Fatalf("the view does not offer the resume:\n%s", c.m.algoPane.View())
	}
	dr.key("p")
	dr.until("the chase working again", func() bool {
		r, _ := dr.row("chase")
		return r.State == journal.AlgoRunning && r.WorkingPrice != nil
	})
	dr.line("algos pause " + r.ID)
	dr.until("the chase paused from the command line", paused)
	dr.key("s")
	dr.until("the paused chase stopped", func() bool { r, _ := dr.row("chase"); return r.State == algo.StateStopped })
	if n := len(algoChildren(c.openOrders(t))); n != 0 {
		t.Fatalf("stopped: %d children open", n)
	}
}

// TestConsoleOffersTheRestartChoiceInTheView: at start a chase an earlier run left running is
// listed in the Algos view as left with what it did (0 of 0.01) and the keys that settle it; f
// asks first, as a market order does, then flattens it. With the config's [on_restart] chase =
// "cancel", the next one is cancelled at start without asking, and the notice says so.
func TestConsoleOffersTheRestartChoiceInTheView(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	j := c.m.exec.Journal()
	raw := []byte(`{"instrument":"BTC-PERP","side":"buy","size":"0.01","limit":"0","until":"0001-01-01T00:00:00Z","arrival":"97000"}`)
	id, err := j.BeginAlgo(t.Context(), journal.Algo{Kind: "chase", Params: raw})
	if err != nil {
		t.Fatal(err)
	}
	dr := newAlgoDriver(t, c.m)
	_, next := c.m.Update(c.m.algos.LeftRunning()())
	dr.run(next)
	c.m.showPane(c.m.algoPane)
	view := c.m.algoPane.View()
	for _, want := range []string{"left", "0/0.01", "r resumes", "s cancels its orders", "f flattens"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the view lacks %q:\n%s", want, view)
		}
	}
	dr.key("f")
	dr.until("the flatten's confirmation", func() bool { return dr.m.confirmation() != nil })
	if body := strings.Join(dr.m.confirmation().Action().Lines, "\n"); !strings.Contains(body, "market order") {
		t.Fatalf("the confirmation does not say it sends a market order:\n%s", body)
	}
	dr.key("enter")
	dr.until("the chase flattened", func() bool { r, _ := dr.row("chase"); return r.State == algo.StateFlattened })
	if st, _ := j.AlgoState(t.Context(), id); st != algo.StateFlattened {
		t.Fatalf("the journal says %q", st)
	}

	id2, err := j.BeginAlgo(t.Context(), journal.Algo{Kind: "chase", Params: raw})
	if err != nil {
		t.Fatal(err)
	}
	c.m.algos.OnRestart = map[string]string{"chase": algo.OnRestartCancel}
	lm, ok := c.m.algos.LeftRunning()().(algos.LeftMsg)
	if !ok || len(lm.Rows) != 1 || lm.Rows[0].State != algo.StateCancelled || !strings.Contains(lm.Notice.Text, "[on_restart]: chase "+id2+": cancel") {
		t.Fatalf("by the config: %+v", lm)
	}
}

// TestConsoleFormStartsAChase: the order form's type chase takes the form's side, size and
// instrument and the Algo field's words (offset 2t for 5m); Enter shows the chase's preview, the
// confirmation the command line's gets (what it sends, the worst price), and Enter again starts it:
// the Algos view shows it working, 2 ticks off the bid, until s stops it.
func TestConsoleFormStartsAChase(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	dr := newAlgoDriver(t, c.m)
	_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP", Side: api.SideBuy, Focus: true})
	pump(t, c.m, cmd)
	if !c.m.form.SetOrderType("chase") {
		t.Fatal("the form has no chase type")
	}
	c.m.form.Focus(orderentry.FieldSize)
	c.typeText(t, "0.01")
	c.m.form.Focus(orderentry.FieldAlgo)
	c.typeText(t, "offset 2t for 5m")
	if v := c.m.form.View(); !strings.Contains(v, "chase buy 0.01 BTC-PERP offset 2t for 5m") || !strings.Contains(v, "Review chase") {
		t.Fatalf("the form's preview:\n%s", v)
	}
	dr.key("enter")
	dr.until("the chase's preview", func() bool { return dr.m.confirmation() != nil })
	if body := strings.Join(dr.m.confirmation().Action().Lines, "\n"); !strings.Contains(body, "Sends") || !strings.Contains(body, "2 ticks off") || !strings.Contains(body, "Worst price") {
		t.Fatalf("the preview:\n%s", body)
	}
	dr.key("enter")
	dr.until("the chase working", func() bool { r, _ := dr.row("chase"); return r.WorkingPrice != nil })
	if r, _ := dr.row("chase"); !r.Target.Equal(d("0.01")) || r.Until.IsZero() {
		t.Fatalf("chase row %+v", r)
	}
	c.m.showPane(c.m.algoPane)
	dr.key("s")
	dr.until("the chase stopped", func() bool { r, _ := dr.row("chase"); return r.State == algo.StateStopped })
}

// TestXOnARungOffersTheGroup: X on one of a scale's rungs in the Open orders view offers the
// scale's open orders as one (the confirmation names the group and that other orders stay);
// confirmed, every rung is cancelled and a plain order on the same instrument stays.
func TestXOnARungOffersTheGroup(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	dr := newAlgoDriver(t, c.m)
	mid, _ := c.m.store.Mid("BTC-PERP")
	c.commandConfirmed(t, "buy 0.01 btc "+mid.Mul(d("0.9")).Round(0).String())
	lo, hi := mid.Mul(d("0.95")).Round(0), mid.Mul(d("0.97")).Round(0)
	dr.command("scale buy 0.05 btc " + lo.String() + "-" + hi.String() + " x5")
	dr.until("the scale in the Algos view", func() bool { _, ok := dr.row("scale"); return ok })
	dr.run(c.m.refreshNow(state.KindOrders))
	dr.until("the rungs listed", func() bool { return len(ordersPaneOf(t, c).Orders()) >= 6 })
	op := ordersPaneOf(t, c)
	dr.key("esc", "3") // the Open orders pane
	for i := 0; i < 10; i++ {
		if o, ok := op.Selected(); ok && algo.GroupOf(o.Cloid) != "" {
			break
		}
		dr.key("up")
	}
	if o, ok := op.Selected(); !ok || algo.GroupOf(o.Cloid) == "" {
		t.Fatalf("no rung selected in:\n%s", op.View())
	}
	dr.key("X")
	dr.until("the group's confirmation", func() bool { return dr.m.confirmation() != nil })
	if body := strings.Join(dr.m.confirmation().Action().Lines, "\n"); !strings.Contains(body, "Cancel the 5 open orders of") || !strings.Contains(body, "Other orders stay") {
		t.Fatalf("the confirmation:\n%s", body)
	}
	dr.key("enter")
	dr.until("the rungs cancelled", func() bool { return len(algoChildren(c.openOrders(t))) == 0 })
	if n := len(c.openOrders(t)); n != 1 {
		t.Fatalf("%d orders open after the group's cancel, want the plain one", n)
	}
}
