package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/risk"
)

// runLimits runs a command with limits as the config file's [risk] (the simulator's URL as its
// connection) and the harness's journal directory.
func (h *harness) runLimits(limits risk.Limits, args ...string) (int, string, string) {
	h.t.Helper()
	if h.stateDir == "" {
		h.stateDir = h.t.TempDir()
	}
	return h.runLimitsCtx(context.Background(), limits, args...)
}

// runLimitsCtx is runLimits under ctx (cancelling it is the trader's Ctrl+C).
func (h *harness) runLimitsCtx(ctx context.Context, limits risk.Limits, args ...string) (int, string, string) {
	h.t.Helper()
	if h.stateDir == "" {
		h.stateDir = h.t.TempDir()
	}
	var out, errb lockedBuffer
	code := Run(ctx, args, Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] },
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
	t.Parallel() // its own simulator and journal
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

// TestEveryOrderPathIsRefusedOverALimit (issue #35): with max_order_notional = 1 USD in the
// config, every headless path that places an order (an order, a bracket, a move, a batch, the
// algorithms, close, reverse, flatten, breakeven, trail) sends nothing to the exchange, --yes
// included: the one gate below them refuses each child, each says which limit and fails (an
// algorithm stops at the first refused child, its state failed with the limit as its detail).
func TestEveryOrderPathIsRefusedOverALimit(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	px := h.restingBid()
	oid := h.placeResting(px, "rl-resting")
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	limits := risk.Limits{risk.OrderNotional: decimal.NewFromInt(1)}
	line := "--instrument BTC-PERP --side buy --size 0.01 --price " + px
	paths := [][]string{
		{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--yes"},
		{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market", "--yes"},
		{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--sl", "5%", "--tp", "5%", "--yes"},
		{"modify", "--oid", fmt.Sprint(oid), "--size", "0.02", "--yes"},
		{"batch", "--file", h.batchFile(line, line), "--yes"},
		{"scale", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--from", "90000", "--to", "91000", "--count", "5", "--yes"},
		{"twap", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--duration", "200ms", "--slices", "2"},
		// --for long enough that a loaded machine still reaches its first child (at 1s under -race
		// it expired first, refused by nothing); the refusal ends it there.
		{"chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5t", "--for", "1m"},
		{"close", "--instrument", "BTC-PERP", "--percent", "50", "--yes"},
		{"reverse", "--instrument", "BTC-PERP", "--yes"},
		{"flatten", "--yes"},
		{"trail", "--instrument", "BTC-PERP", "--distance", "500"},
		{"breakeven", "--instrument", "BTC-PERP"},
	}
	for _, args := range paths {
		if args[0] == "breakeven" { // a stop at breakeven needs the mark above the entry
			h.liftMark("BTC-PERP", h.position("BTC-PERP").EntryPrice.Mul(dec("1.02")).Round(0))
		}
		sent := h.drop.exchanges.Load()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // each ends refused: a net, not a bound
		code, out, errs := h.runLimitsCtx(ctx, limits, args...)
		cancel()
		if n := h.drop.exchanges.Load() - sent; n != 0 || code == ExitOK {
			t.Errorf("%v over max_order_notional: exit %d, %d signed requests: %s %s", args, code, n, out, errs)
		}
		if !strings.Contains(out+errs, "max_order_notional") {
			t.Errorf("%v: the refusal does not name the limit: %s %s", args, out, errs)
		}
	}
	if oo := h.openOrders(); len(oo) != 1 || oo[0].OrderID != oid {
		t.Fatalf("the moved order must stay as it was: %+v", oo)
	}
}
