package ui

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/risk"
)

// TestConsoleAlgorithmRefusedByALimitSaysWhich (issue #35): with max_order_notional = 1 USD, a
// chase and a scale started in the console send nothing: each stops failed, and its row in the
// Algos view and the messages name the limit that refused its child.
func TestConsoleAlgorithmRefusedByALimitSaysWhich(t *testing.T) {
	t.Parallel()
	c, _ := riskConsole(t, risk.Limits{risk.OrderNotional: decimal.NewFromInt(1)})
	dr := newAlgoDriver(t, c.m)
	mid, ok := c.m.store.Mid("BTC-PERP")
	if !ok {
		t.Fatal("no BTC mid")
	}
	lo, hi := mid.Mul(d("0.95")).Round(0), mid.Mul(d("0.97")).Round(0)
	for _, line := range []string{"chase buy 0.01 btc", "scale buy 0.01 btc " + lo.String() + "-" + hi.String() + " x5"} {
		kind := strings.Fields(line)[0]
		dr.command(line)
		dr.until(kind+" failed", func() bool { r, _ := dr.row(kind); return r.State == algo.StateFailed })
		if r, _ := dr.row(kind); !strings.Contains(r.Detail, "max_order_notional") {
			t.Errorf("%s: the Algos view does not name the limit: %+v", kind, r)
		}
		dr.until(kind+"'s failure said with the limit", func() bool {
			for _, e := range c.m.messageEntries() {
				if strings.HasPrefix(e.Text, kind+" ") && strings.Contains(e.Text, "max_order_notional") {
					return true
				}
			}
			return false
		})
	}
	if n := len(algoChildren(c.openOrders(t))); n != 0 {
		t.Fatalf("%d children rest", n)
	}
}
