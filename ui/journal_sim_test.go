package ui

import (
	"context"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/feed"
)

// stopsAfterSend is a Sender that sends the order (the journal committed, signed, at the
// exchange) and then stops the goroutine that sent it (runtime.Goexit: nothing after it runs, as
// when the process is killed) before the executor reads the answer.
type stopsAfterSend struct{ *api.Client }

func (s stopsAfterSend) PlaceOrders(ctx context.Context, orders []api.OrderWire) (api.TxResponse, error) {
	_, _ = s.Client.PlaceOrders(ctx, orders)
	runtime.Goexit()
	return api.TxResponse{}, nil
}

// runUntilStopped runs cmd and the commands its batches hold, one after another on one goroutine,
// and returns once that goroutine has ended (stopped by stopsAfterSend, or done).
func runUntilStopped(cmd tea.Cmd) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		var run func(tea.Cmd)
		run = func(c tea.Cmd) {
			if c == nil {
				return
			}
			if b, ok := c().(tea.BatchMsg); ok {
				for _, sub := range b {
					run(sub)
				}
			}
		}
		run(cmd)
	}()
	<-done
}

// journalConsole is a console trading through client, sending through send on an executor whose
// journal is under dir, started (Init pumped: the journal's Recover has run).
func journalConsole(t *testing.T, client *api.Client, clock *sim.TestClock, dir string, send exec.Sender) *Model {
	t.Helper()
	g := state.DefaultGuard()
	x, err := exec.Open(exec.Setup{Dir: dir, Network: "demo", Config: exec.Config{Send: send, Read: client, Account: client.Address(), Guard: &g}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.Close() })
	m := New(Config{Exchange: client, Clock: clock.Now, Timers: feed.NewFakeClock(simStart), Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo,
		Network: "demo", Exec: x})
	m.fixedLatency = true
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	pump(t, m, m.Init())
	return m
}

// TestAStoppedConsoleIsResolvedOnTheNextStart (issue #32): a console stopped after the journal
// committed its order and the order reached the exchange, before the answer was read, leaves the
// intent sent. The next console on the same journal resolves it by its client id before anything
// is sent, says what it found in the status line, and sends nothing: the exchange holds the order
// once, and the simulator received one signed request in all. Guards Recover not run at start,
// its finding not said, and the order sent again.
func TestAStoppedConsoleIsResolvedOnTheNextStart(t *testing.T) {
	t.Parallel()
	clock := sim.NewTestClock(simStart)
	s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
	signed := &signedCounter{next: s}
	srv := httptest.NewServer(signed)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL+"/", api.WithClock(clock.Now), api.WithSigner(signer), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	dir := t.TempDir()
	start := func(send exec.Sender) *Model { return journalConsole(t, client, clock, dir, send) }

	first := &simConsole{m: start(stopsAfterSend{client}), sim: s, clock: clock}
	first.m.reviewEveryOrder()
	first.typeLimitBuy(t)
	first.key(t, "enter")
	if first.m.confirmation() == nil {
		t.Fatalf("no confirmation: %q", first.m.shownNotice())
	}
	cloid := first.m.confirmation().Action().Order.Wire.Cloid
	_, cmd := first.m.Update(keyMsg("enter")) // the dialog's answer
	_, cmd = first.m.Update(cmd())            // confirmed: the executor's send
	runUntilStopped(cmd)
	if un, _ := first.m.exec.Journal().Unresolved(context.Background()); len(un) != 1 || un[0].Intent.ID != cloid {
		t.Fatalf("after the stop, unresolved: %+v", un)
	}
	_ = first.m.exec.Close()

	second := start(client)
	t.Logf("next start: %q", second.shownNotice())
	if !strings.Contains(second.shownNotice(), "left from the last run") || !strings.Contains(second.shownNotice(), "placed, order") {
		t.Errorf("the next start says %q, want what the journal's intent became", second.shownNotice())
	}
	if un, _ := second.exec.Journal().Unresolved(context.Background()); len(un) != 0 {
		t.Errorf("still unresolved: %+v", un)
	}
	open, err := client.OpenOrders(context.Background(), client.Address(), api.PageParams{Page: 1})
	n := 0
	for _, o := range open.Data {
		if o.Cloid == cloid {
			n++
		}
	}
	if err != nil || n != 1 || signed.n.Load() != 1 {
		t.Errorf("the exchange holds client id %s %d times, %d signed requests (want 1 and 1): %v", cloid, n, signed.n.Load(), err)
	}
}
