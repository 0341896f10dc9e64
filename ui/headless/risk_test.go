package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/risk"
)

// runRisk runs a command with limits as the config file's [risk] (the simulator's URL as its
// connection) and the harness's journal directory.
func (h *harness) runLimits(limits risk.Limits, args ...string) (int, string, string) {
	h.t.Helper()
	if h.stateDir == "" {
		h.stateDir = h.t.TempDir()
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] },
		StateDir: h.stateDir, Defaults: Connection{URL: h.srv.URL, Risk: &limits}})
	h.outputs = append(h.outputs, out.String(), errb.String())
	return code, out.String(), errb.String()
}

// TestALossLimitRefusesHeadlessOpeningOrders (issue #35): with the config's max_daily_loss, a
// losing round of trades puts the account in REDUCING (risk --json says so, with why); a new
// opening order from tradedesk order is refused with the reason (--yes does not override it) and
// nothing reaches the exchange; a close still goes; resume is refused; a halt stops even the
// close, and resume is still refused while the loss limit has tripped.
func TestALossLimitRefusesHeadlessOpeningOrders(t *testing.T) {
	h := newHarness(t)
	limits := risk.Limits{risk.DailyLoss: decimal.RequireFromString("0.01")}
	run := func(want int, args ...string) string {
		t.Helper()
		code, out, errs := h.runLimits(limits, args...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d: %s %s", args, code, want, out, errs)
		}
		return out + errs
	}
	run(ExitOK, "order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	run(ExitOK, "order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.004", "--market", "--reduce-only")
	var rep risk.Report
	if err := json.Unmarshal([]byte(run(ExitOK, "risk", "--json")), &rep); err != nil || rep.State != risk.Reducing || !strings.Contains(rep.Why, "max_daily_loss") {
		t.Fatalf("risk --json after a losing round: %+v %v", rep, err)
	}
	if len(rep.Limits) != 1 || rep.Limits[0].Name != risk.DailyLoss || !rep.Limits[0].Used.IsPositive() {
		t.Fatalf("the limit's use: %+v", rep.Limits)
	}
	before := len(h.openOrders())
	out := run(ExitRefused, "order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.001", "--price", h.restingBid(), "--yes")
	if !strings.Contains(out, "REDUCING") || len(h.openOrders()) != before {
		t.Fatalf("an opening order while REDUCING: %s", out)
	}
	run(ExitOK, "order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.003", "--market", "--reduce-only")
	if out := run(ExitRefused, "risk", "resume"); !strings.Contains(out, "next UTC day") {
		t.Fatalf("resume while a loss limit has tripped: %s", out)
	}
	run(ExitOK, "risk", "halt", "--why", "coffee")
	if out := run(ExitRefused, "order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.001", "--market", "--reduce-only"); !strings.Contains(out, "HALTED (coffee)") {
		t.Fatalf("a close while HALTED: %s", out)
	}
	if out := run(ExitOK, "risk"); !strings.Contains(out, "trading state: HALTED (coffee)") || !strings.Contains(out, "max daily loss") {
		t.Fatalf("risk: %s", out)
	}
}
