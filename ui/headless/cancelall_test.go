package headless

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestCancelAllNeedsYes (#31 point 10): cancel-all takes the positions' stops with the orders, so
// without --yes it sends nothing: it exits as a usage error saying what it would cancel (the
// position's stop-loss and take-profit named) and to add --yes; with --yes it cancels them,
// through the executor and its journal.
func TestCancelAllNeedsYes(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	bid := decimal.RequireFromString(h.restingBid()) // 2% under the mid
	far := bid.Mul(decimal.RequireFromString("1.2")).Round(0).String()
	h.ok("order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--market", "--reduce-only",
		"--trigger", bid.Round(0).String(), "--tpsl", "sl")
	h.ok("order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--market", "--reduce-only",
		"--trigger", far, "--tpsl", "tp")
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid())
	if n := len(h.openOrders()); n != 3 {
		t.Fatalf("%d open orders before cancel-all, want 3", n)
	}
	for _, args := range [][]string{{"cancel-all"}, {"cancel-all", "--instrument", "BTC-PERP"}, {"cancel-all", "--json"}} {
		code, _, errs := h.run(args...)
		for _, want := range []string{"cancel-all not sent: it cancels 3 open orders on ",
			"including the stop-loss and take-profit on your 0.0100 BTC long", "add --yes"} {
			if !strings.Contains(errs, want) {
				t.Errorf("%v: stderr %q lacks %q", args, errs, want)
			}
		}
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
		if n := len(h.openOrders()); n != 3 {
			t.Fatalf("%v without --yes cancelled: %d open", args, n)
		}
	}
	if out := h.ok("cancel-all", "--yes"); !strings.HasPrefix(out, "cancelled 3 orders") {
		t.Errorf("cancel-all --yes: %q", out)
	}
	if n := len(h.openOrders()); n != 0 {
		t.Errorf("%d orders open after cancel-all --yes", n)
	}
	// Through the executor: one journaled intent, asked by the headless command, settled.
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil || len(es) == 0 || es[0].Kind != "cancel-all" ||
		es[0].Who != "headless" || !es[0].Settled || es[0].Outcome != "cancelled" || es[0].Action != "cancelAll" {
		t.Errorf("journal: %+v %v", es, err)
	}
}
