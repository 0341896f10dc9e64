package headless

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestMarketOrderReadsAsMarket (issue #23, case 5), against the simulator: `history` and `orders`
// show a market order's price as "market", not the worst-price bound it was sent with, and
// `order --dry-run --json` writes null for a liquidation estimate the table calls "none". Before:
// history showed the bound (98,169.2 for a fill at 97,216.6) and the JSON said "0".
func TestMarketOrderReadsAsMarket(t *testing.T) {
	h := newHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market", "--yes")
	out := h.ok("history")
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "BTC-PERP") {
			row = l
		}
	}
	if !regexp.MustCompile(`\bmarket\s+0\.0100\b`).MatchString(row) {
		t.Errorf("history row of a market order: %q\n%s", row, out)
	}
	// 0.01 ETH on a 100,000 USDC account: no price liquidates it.
	out = h.ok("order", "--instrument", "ETH-PERP", "--side", "buy", "--size", "0.01", "--market", "--dry-run", "--json")
	var res struct {
		Preview map[string]json.RawMessage `json:"preview"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := string(res.Preview["liquidation_estimate"]); got != "null" {
		t.Errorf(`liquidation_estimate %s, want null ("none" in the table)`, got)
	}
	table := h.ok("order", "--instrument", "ETH-PERP", "--side", "buy", "--size", "0.01", "--market", "--dry-run")
	if !regexp.MustCompile(`Liquidation \(est\.\)\s+none`).MatchString(table) {
		t.Errorf("the table does not say none:\n%s", table)
	}
}
