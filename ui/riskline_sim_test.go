package ui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// TestTheStatusLineSaysHaltedWithWhy (issue #35): a halt (tradedesk risk halt, on the account's
// journal) shows on the console's status line as RISK HALTED with why; resumed, it goes.
func TestTheStatusLineSaysHaltedWithWhy(t *testing.T) {
	t.Parallel()
	clock := sim.NewTestClock(simStart)
	s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL+"/", api.WithClock(clock.Now), api.WithSigner(signer))
	m := journalConsole(t, client, clock, t.TempDir(), client)
	if v := m.View(); strings.Contains(v, "RISK") {
		t.Fatalf("ACTIVE shows a risk banner:\n%s", v)
	}
	if err := m.exec.Risk().Halt(context.Background(), "coffee"); err != nil {
		t.Fatal(err)
	}
	m.status.riskAt = time.Time{} // as riskEvery later
	pump(t, m, m.readRisk())
	if v := m.View(); !strings.Contains(v, "RISK HALTED (coffee)") {
		t.Fatalf("no HALTED on the status line:\n%s", v)
	}
	if err := m.exec.Risk().Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.status.riskAt = time.Time{}
	pump(t, m, m.readRisk())
	if v := m.View(); strings.Contains(v, "RISK") {
		t.Fatalf("resumed, the banner stays:\n%s", v)
	}
}
