package ui

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui/common"
)

// TestOneMarketOrderOneLine sells at market more than the best bid holds, against the simulator,
// so the order fills at two levels or more: the console says so in one line (total size, average
// price, total fee), in the status line and in the messages view, not a line for the order's
// outcome, one for its fills and one per fill. It fails if the fills notice is per batch or per
// fill again (a second "filled" line), or if the status line ends on a piece.
func TestOneMarketOrderOneLine(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	_, fills, _ := activityGroup(t, c.m)
	book, err := c.m.ex.OrderBook(t.Context(), "BTC-PERP", 5)
	if err != nil || len(book.Bids) < 2 {
		t.Fatalf("book %+v: %v", book, err)
	}
	size := book.Bids[0].Size.Add(book.Bids[1].Size.Div(d("2"))).Round(3)
	c.commandConfirmed(t, "sell "+size.String()+" btc mkt")
	pump(t, c.m, teaCmd(fills.Task().Poll()))

	var mine []string
	for _, e := range c.m.messageEntries() {
		if strings.Contains(e.Text, "fill") {
			mine = append(mine, e.Text)
		}
	}
	n := 0
	for _, f := range fills.Fills() {
		if f.Size.IsPositive() {
			n++
		}
	}
	if n < 2 {
		t.Fatalf("the order filled in %d fills, the test needs two levels", n)
	}
	want := "filled: sell " + size.StringFixed(4) + " BTC-PERP @ "
	if len(mine) != 1 || !strings.HasPrefix(mine[0], want) || !strings.Contains(mine[0], " avg of ") || !strings.Contains(mine[0], ", fee ") {
		t.Fatalf("messages about the order: %q, want one starting %q with the average and the fee", mine, want)
	}
	if c.m.shownNotice() != mine[0] || c.m.shownLevel() != common.LevelInfo {
		t.Errorf("status line %q, want the order's one line %q", c.m.shownNotice(), mine[0])
	}
}

// TestOrderLineMergesInEitherOrder: an order's outcome and its fills' running total make one line
// whichever arrives first, and later batches of fills replace the total; what the outcome said
// of the remainder stays. It fails if a keyed notice appends a line or drops the remainder.
func TestOrderLineMergesInEitherOrder(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	m := c.m
	key := common.FillKey(42)
	m.onNotice(common.NoticeMsg{Key: key, Text: "filled: buy 0.0400 BTC-PERP @ 97,000.0, fee 1.00 USD"})
	m.setShownNotice(m.orderOutcomeLine(common.LevelInfo, key, "order 42 filled 0.1 of 0.2", "; 0.1 resting"))
	m.onNotice(common.NoticeMsg{Key: key, Text: "filled: buy 0.1000 BTC-PERP @ 97,001.0 avg of 2 fills, fee 2.50 USD"})
	m.onNotice(common.NoticeMsg{Key: common.FillKey(43), Text: "filled: sell 0.0100 ETH-PERP @ 3,000.00, fee 0.10 USD"})
	var got []string
	for _, e := range m.messageEntries() {
		got = append(got, e.Text)
	}
	want := []string{"filled: buy 0.1000 BTC-PERP @ 97,001.0 avg of 2 fills, fee 2.50 USD; 0.1 resting",
		"filled: sell 0.0100 ETH-PERP @ 3,000.00, fee 0.10 USD"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("messages %q, want %q", got, want)
	}
}
