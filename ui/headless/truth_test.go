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
	t.Parallel()
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
	if !regexp.MustCompile(`Liq\. est\.\s+none`).MatchString(table) {
		t.Errorf("the table does not say none:\n%s", table)
	}
}

// TestOrderSaysWhatFilledAndTheOfferFits (issue #23, cases 1 and 5), against the simulator: an
// order too large for the account is refused by --dry-run with the largest size that fits, and
// that size is accepted; a market order reports the filled size of the requested size and the
// average, in the table and the JSON.
func TestOrderSaysWhatFilledAndTheOfferFits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	code, _, errs := h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "20", "--price", h.restingBid(), "--dry-run")
	m := regexp.MustCompile(`use a size of at most ([0-9.]+)`).FindStringSubmatch(errs)
	if code != ExitRefused || m == nil {
		t.Fatalf("20 BTC on 100,000 USDC: exit %d, %q", code, errs)
	}
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", m[1], "--price", h.restingBid(), "--yes")
	h.ok("cancel-all", "--yes")
	out := h.ok("order", "--instrument", "ETH-PERP", "--side", "buy", "--size", "0.5", "--market", "--yes")
	if !regexp.MustCompile(`Filled\s+0\.500 of 0\.500 at [0-9,.]+ avg, slip [+-]?[0-9.]+ bp vs (preview|mid), fee [0-9.]+ USD\n`).MatchString(out) {
		t.Errorf("the market order does not say what filled:\n%s", out)
	}
	out = h.ok("order", "--instrument", "ETH-PERP", "--side", "buy", "--size", "0.5", "--market", "--yes", "--json")
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil || string(raw["filled"]) != `"0.5"` || string(raw["remaining"]) != `"0"` || len(raw["avg_price"]) < 3 {
		t.Errorf("JSON filled %s avg %s remaining %s (%v)", raw["filled"], raw["avg_price"], raw["remaining"], err)
	}
}
