package headless

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestActionsEndWithTheirTransaction: an action the executor saw done (one actDone for the
// transfer, leverage, broker and agent commands) prints its words, the last line ending with its
// transaction's hash (a transfer's confirmation lines first), or with --json the outcome and the
// exchange's answer.
func TestActionsEndWithTheirTransaction(t *testing.T) {
	t.Parallel() // its own simulator
	h := newHarness(t)
	out := h.ok("transfer", "--collateral", "USDC", "--amount", "10", "--to-derivatives", "--yes")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "Spot to derivative: 10.00 USDC") || !strings.HasPrefix(lines[len(lines)-1], "done (tx 0x") {
		t.Errorf("transfer: %q", out)
	}
	broker := "0x9908658A316D743159F001026F1ef08aa8F0b55B"
	out = h.ok("broker", "approve", "--broker", broker, "--max-fee-rate", "0.1%", "--yes")
	if !strings.HasPrefix(out, "done: approve broker "+broker+" to charge fees up to ") || !strings.Contains(out, " (tx 0x") || strings.Count(out, "\n") != 1 {
		t.Errorf("broker approve: %q", out)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(h.ok("broker", "revoke", "--broker", broker, "--yes", "--json")), &res); err != nil || res["outcome"] != "ok" || !strings.HasPrefix(fmt.Sprint(res["tx_hash"]), "0x") {
		t.Errorf("broker revoke --json: %+v %v", res, err)
	}
}
