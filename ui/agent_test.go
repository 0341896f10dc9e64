package ui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/feed"
)

// testAgentKeyHex is a fixed agent key (never a real one).
const testAgentKeyHex = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"

// agentConsole is a live console signing with an agent key registered (for ttl) by the test
// key's account on a simulator over HTTP.
func agentConsole(t *testing.T, ttl time.Duration) (*simConsole, *api.Client) {
	t.Helper()
	clock := sim.NewTestClock(simStart)
	s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	owner, _ := api.SignerFromHex(testKeyHex)
	account := api.New(srv.URL+"/", api.WithSigner(owner), api.WithClock(clock.Now))
	key, err := api.SignerFromHex(testAgentKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	until := clock.Now().Add(ttl)
	if _, err := account.AddAgent(context.Background(), key, "console", until); err != nil {
		t.Fatal(err)
	}
	agent, _ := key.AsAgentFor(owner.Address())
	client := api.New(srv.URL+"/", api.WithSigner(agent), api.WithClock(clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	timers := feed.NewFakeClock(simStart)
	m := New(Config{Exchange: client, Clock: clock.Now, Timers: timers, Keys: mustKeys(t), Theme: testTheme, Mode: ModeLive,
		Network: "testnet", AgentUntil: until})
	m.fixedLatency = true
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	return &simConsole{m: m, sim: s, clock: clock, timers: timers, url: srv.URL}, account
}

// TestAgentConsole: with only an agent key the console shows LIVE · agent and the account (not
// the agent), warns when the agent has less than a day left, and a withdrawal says it needs the
// account's key (at w: TestAgentRefusedAtTheFirstKey) and is not signed: the balance stays.
func TestAgentConsole(t *testing.T) {
	t.Parallel()
	c, account := agentConsole(t, 30*24*time.Hour)
	pump(t, c.m, c.m.Init())
	top := strings.SplitN(c.m.View(), "\n", 2)[0]
	if !strings.Contains(top, "LIVE TESTNET · agent") || !strings.Contains(top, "agent 30d 0h left") ||
		!strings.Contains(top, account.Address()[:6]) {
		t.Fatalf("top line %q", top)
	}
	before := c.summary(t, account.Address())
	c.key(t, "8", "w")
	c.typeText(t, "2500")
	c.key(t, "enter", "enter")
	if !strings.Contains(c.m.shownNotice(), "account's own key") || !strings.Contains(c.m.shownNotice(), "agent key") {
		t.Fatalf("withdrawal by an agent: notice %q", c.m.shownNotice())
	}
	// w withdraws from the spot side (as `tradedesk withdraw` does without --from).
	if after := c.summary(t, account.Address()); !after.SpotCollateral["USDC"].Balance.Equal(before.SpotCollateral["USDC"].Balance) {
		t.Fatalf("balance moved: %s -> %s", before.SpotCollateral["USDC"].Balance, after.SpotCollateral["USDC"].Balance)
	}

	// 12 hours left: the console's clock (the simulator's too) moves on; the market is not stepped
	// through the days (nothing here reads it).
	c.clock.Add(29*24*time.Hour + 12*time.Hour)
	if top := strings.SplitN(c.m.View(), "\n", 2)[0]; !strings.Contains(top, "agent expires in 12h 0m") {
		t.Fatalf("no warning a day ahead: %q", top)
	}
}

// TestAgentRefusedAtTheFirstKey: with only an agent key, the keys that open a movement of
// collateral (t, w), the leverage dialog (ctrl+l) and a leverage change typed on the command line
// say at once that they need the account's own key: no form to fill in, no confirmation to read
// before a refusal, nothing signed. Guards the forms that opened and refused only on Enter.
func TestAgentRefusedAtTheFirstKey(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c, _ := agentConsole(t, 30*24*time.Hour)
	pump(t, c.m, c.m.Init())
	_, form := fundsGroup(t, c.m)
	for _, k := range []string{"t", "w"} {
		c.m.clearNotice()
		c.key(t, "8", k)
		if form.InForm() || !strings.Contains(c.m.shownNotice(), "agent key") || !strings.Contains(c.m.shownNotice(), "account's own key") {
			t.Fatalf("%s with an agent key: in the form %v, notice %q", k, form.InForm(), c.m.shownNotice())
		}
	}
	c.key(t, "]") // the form paged to, not opened: its button says why
	if v := c.m.View(); !strings.Contains(v, "[ agent key: cannot move collateral ]") {
		t.Fatalf("the form's button does not say why:\n%s", v)
	}
	c.key(t, "4", "ctrl+l")
	if c.m.leverageDialog() != nil || !strings.Contains(c.m.shownNotice(), "account's own key") {
		t.Fatalf("ctrl+l with an agent key: dialog open %v, notice %q", c.m.leverageDialog() != nil, c.m.shownNotice())
	}
	c.key(t, "esc")
	c.command(t, "lev btc 5")
	if c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "account's own key") || c.m.pipe.open != 0 {
		t.Fatalf(":lev with an agent key: dialog %v, %d out, notice %q", c.m.confirmation() != nil, c.m.pipe.open, c.m.shownNotice())
	}
}
