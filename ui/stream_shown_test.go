package ui

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/components/chart"
)

// shownTopicKeys are the stream's topics of what is on screen, as channel:what.
func shownTopicKeys(c *streamConsole) []string {
	var out []string
	for _, t := range c.stream.Topics() {
		switch t.Channel {
		case api.ChanBBO, api.ChanOrderBook, api.ChanTrades:
			out = append(out, t.Channel+":"+t.Symbol)
		case api.ChanChart:
			out = append(out, fmt.Sprintf("chart:%d/%s/%s", t.InstrumentID, t.ChartType, t.Resolution))
		}
	}
	slices.Sort(out)
	return out
}

// TestStreamFollowsWhatIsShown: the stream carries the current instrument's book, trades and best
// bid and offer, and the chart series on screen; a chart key that changes the series moves its
// subscription, and a streamed best bid and offer reaches the ticker.
func TestStreamFollowsWhatIsShown(t *testing.T) {
	t.Parallel()
	c := newStreamConsole(t, true)
	in := func() state.Instrument { i, _ := c.m.store.Instrument("BTC-PERP"); return i }
	c.until(t, "the instruments", func() bool { return in().ID != 0 })
	first := fmt.Sprintf("chart:%d/%s/%s", in().ID, c.m.chart.ChartKey().ChartType, c.m.chart.ChartKey().Resolution)
	want := []string{"bbo:BTC-PERP", first, "orderbook:BTC-PERP", "trades:BTC-PERP"}
	slices.Sort(want)
	if !c.dr.until(30*time.Second, func() bool { return slices.Equal(shownTopicKeys(c), want) }) {
		t.Fatalf("subscriptions %v: want %v (chart key %v)", shownTopicKeys(c), want, c.m.chart.ChartKey())
	}
	// They stay: the move that added the chart's series once ended the book, trades and bbo it
	// shared with the first subscriptions (the same Subscription objects).
	c.dr.until(300*time.Millisecond, func() bool { return false })
	if got := shownTopicKeys(c); !slices.Equal(got, want) {
		t.Fatalf("subscriptions %v a moment later: want %v", got, want)
	}

	for _, k := range []string{"6", "."} { // the chart, then a coarser resolution: another series
		_, cmd := c.m.Update(keyMsg(k))
		c.dr.run(cmd)
	}
	next := fmt.Sprintf("chart:%d/%s/%s", in().ID, c.m.chart.ChartKey().ChartType, c.m.chart.ChartKey().Resolution)
	if next == first {
		t.Fatalf("'.' did not change the chart's series (%s)", first)
	}
	want = []string{"bbo:BTC-PERP", next, "orderbook:BTC-PERP", "trades:BTC-PERP"}
	slices.Sort(want)
	c.until(t, "the chart subscription to follow "+next, func() bool { return slices.Equal(shownTopicKeys(c), want) })
	c.dr.until(300*time.Millisecond, func() bool { return false })
	if got := shownTopicKeys(c); !slices.Equal(got, want) {
		t.Fatalf("subscriptions %v a moment after the series moved: want %v", got, want)
	}
}

// TestChartKeyBeforeTheChartHearsOfIt: when the instruments are applied before the chart pane has
// been told its instrument, the stream still subscribes the series it is about to show. Reading
// the chart's own last-heard symbol (empty then) left the series unsubscribed until a key press,
// and TestStreamFollowsWhatIsShown timed out in loaded runs where the messages came in that order.
func TestChartKeyBeforeTheChartHearsOfIt(t *testing.T) {
	t.Parallel()
	c := newStreamConsole(t, true)
	c.until(t, "the instruments", func() bool { _, ok := c.m.store.Instrument("BTC-PERP"); return ok })
	c.m.chart = chart.New(c.m.c, c.m.ex) // a chart no message has told of its instrument yet
	if got := c.m.shownChartKey(); got.Symbol != "BTC-PERP" || got.Resolution == "" {
		t.Fatalf("shown chart key %+v, want BTC-PERP's series", got)
	}
}
