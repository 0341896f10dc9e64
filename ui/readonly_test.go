package ui

import (
	"net/http/httptest"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/feed"
)

// TestModeLineSaysWhatCanSign: a console asked to start LIVE with a client that holds no key reads
// READ-ONLY, says why before any key is pressed, and a buy sends nothing. Guards the mode line
// taken from the mode asked for (a flag) rather than from what can sign.
func TestModeLineSaysWhatCanSign(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	clock := sim.NewTestClock(simStart)
	s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	owner, _ := api.SignerFromHex(testKeyHex)
	client := api.New(srv.URL+"/", api.WithAddress(owner.Address()), api.WithClock(clock.Now))
	why := "watching --address without a key: $TRADEDESK_PRIVATE_KEY is set but not used"
	m := New(Config{Exchange: client, Clock: clock.Now, Timers: feed.NewFakeClock(simStart), Keys: mustKeys(t), Theme: testTheme,
		Mode: ModeLive, Network: "testnet", ReadOnlyReason: why})
	m.fixedLatency = true
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	pump(t, m, m.Init())
	lines := strings.Split(m.View(), "\n")
	if top := lines[0]; !strings.Contains(top, "READ-ONLY TESTNET") || strings.Contains(top, "LIVE") {
		t.Fatalf("top line %q", top)
	}
	if !strings.Contains(m.shownNotice(), why) {
		t.Fatalf("no reason at the start: notice %q", m.shownNotice())
	}
	c := &simConsole{m: m, sim: s, clock: clock}
	c.command(t, "b 0.01 eth 3001")
	if m.confirmation() != nil || m.pipe.open != 0 || !strings.Contains(m.shownNotice(), "read-only") {
		t.Fatalf(":b read-only: dialog %v, %d out, notice %q", m.confirmation() != nil, m.pipe.open, m.shownNotice())
	}
	if orders := c.openOrders(t); len(orders) != 0 {
		t.Fatalf("orders on the exchange: %v", orders)
	}
}
