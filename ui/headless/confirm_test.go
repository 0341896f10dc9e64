package headless

import (
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestFlaggedOrdersNeedYes: an order the fat-finger guard flags (here a limit far from the mark)
// is sent by no command without --yes, and each says so in its own words through one
// unconfirmed: what it is, the guard's warning, and what --yes would do.
func TestFlaggedOrdersNeedYes(t *testing.T) {
	t.Parallel() // its own simulator
	h := newHarness(t)
	px := h.restingBid()
	far := halve(px)
	double := decimal.RequireFromString(px).Mul(decimal.NewFromInt(2)).String()
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px)
	open := h.openOrders()
	if len(open) != 1 {
		t.Fatalf("open orders %+v", open)
	}
	oid := strconv.FormatUint(uint64(open[0].OrderID), 10)
	sell := []string{"--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--price", far}
	for _, c := range []struct {
		args       []string
		what, does string
	}{
		{append([]string{"order"}, sell...), "order needs confirmation, nothing sent: ", "; add --yes to send it"},
		{[]string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", double, "--sl", "10%"}, "bracket needs confirmation, nothing sent: ", "; add --yes to send it"},
		{[]string{"batch", "--file", h.batchFile(strings.Join(sell, " "))}, "line 1 needs confirmation, nothing sent: ", "; add --yes to send the batch"},
		{[]string{"modify", "--oid", oid, "--price", double}, "replacement needs confirmation, nothing sent: ", "; add --yes to move it"},
	} {
		code, _, errs := h.run(c.args...)
		if code != ExitRefused || !strings.Contains(errs, c.what) || !strings.Contains(errs, c.does) {
			t.Errorf("%v: exit %d, stderr %q; want %q ... %q", c.args, code, errs, c.what, c.does)
		}
	}
	if after := h.openOrders(); len(after) != 1 || after[0].OrderID != open[0].OrderID {
		t.Fatalf("a flagged order was sent: %+v", open)
	}
}
