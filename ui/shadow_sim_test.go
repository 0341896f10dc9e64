package ui

import (
	"net/http/httptest"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
)

// TestShadowSaysSoOnEveryScreenAndConfirmation: a console in shadow mode (main sets it only
// when its transport is the embedded mirror) shows SHADOW in the top bar of every screen, the
// help and a dialog included, in the order form's title, and in the title of an order's
// confirmation.
func TestShadowSaysSoOnEveryScreenAndConfirmation(t *testing.T) {
	t.Parallel()
	clock := sim.NewTestClock(simStart)
	s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL+"/", api.WithClock(clock.Now), api.WithSigner(signer), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	maker, taker := sim.FeeRates()
	timers := feed.NewFakeClock(simStart)
	m := New(Config{Exchange: client, Clock: clock.Now, Fees: &state.Fees{Maker: maker, Taker: taker}, Timers: timers, Keys: mustKeys(t),
		Theme: testTheme, Mode: ModeShadow, Network: "shadow-mainnet", Exec: testExec(t, client, "")})
	m.fixedLatency = true
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	c := &simConsole{m: m, sim: s, clock: clock, timers: timers, url: srv.URL}
	pump(t, m, m.Init())
	top := func(what string) {
		t.Helper()
		if first := strings.SplitN(m.View(), "\n", 2)[0]; !strings.Contains(first, "SHADOW MAINNET · paper") || strings.Contains(first, "LIVE") {
			t.Fatalf("%s: the top line %q does not say SHADOW MAINNET · paper", what, first)
		}
	}
	top("the main screen")
	if !strings.Contains(m.View(), "Order entry · SHADOW MAINNET · paper") {
		t.Fatalf("the order form's title does not say SHADOW:\n%s", m.View())
	}
	c.key(t, "?")
	top("the help")
	c.key(t, "esc")
	c.command(t, "buy 0.01 btc mkt")
	if m.confirmation() == nil || !strings.Contains(m.confirmation().Action().Title, "SHADOW MAINNET · paper") {
		t.Fatalf("the confirmation of a paper order does not say SHADOW: %+v", m.confirmation())
	}
	top("the confirmation")
	if !strings.Contains(m.View(), "Place order · SHADOW MAINNET · paper") {
		t.Fatalf("the confirmation's drawn title does not say SHADOW:\n%s", m.View())
	}
}
