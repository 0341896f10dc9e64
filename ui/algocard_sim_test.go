package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/ui/components/reportcard"
)

// TestAlgoReportCard (issue #41): Enter on a finished TWAP in the Algos view opens its report
// card: its children's fills (the size it was given), their average, and the market's VWAP over
// its interval with its participation, as `tradedesk report` gives them. Guards: Enter in the
// Algos view doing nothing, the card of an order instead of the algorithm, no market measure.
func TestAlgoReportCard(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.m.algos.Now = c.clock.Now
	c.m.exec.Journal().SetClock(c.clock.Now) // the algorithm's interval on the exchange's clock, as its fills
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			c.clock.Add(200 * time.Millisecond)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	dr := newAlgoDriver(t, c.m)
	dr.command("twap buy 0.02 btc 4s slices 2")
	dr.until("the TWAP done", func() bool { r, _ := dr.row("twap"); return r.State == algo.StateDone })
	cancel()
	g, _, _ := activityGroup(t, c.m)
	dr.key("7")
	for i := 0; g.Active() != c.m.algoPane && i < 20; i++ {
		dr.key("]")
	}
	dr.key("enter")
	dr.until("the card read", func() bool {
		v, ok := c.m.openSheet().(*reportcard.View)
		if !ok {
			return false
		}
		_, loaded := v.Card()
		return loaded
	})
	card, _ := c.m.openSheet().(*reportcard.View).Card()
	if !card.Size.Equal(d("0.02")) || !card.AvgPrice.IsPositive() || card.Market == nil || !card.Market.VWAP.IsPositive() ||
		card.Market.Volume.LessThan(card.Size) {
		t.Fatalf("the TWAP's card %+v, market %+v", card, card.Market)
	}
	if screen := c.m.View(); !strings.Contains(screen, "vs market VWAP") || !strings.Contains(screen, "participation") {
		t.Errorf("the card on screen:\n%s", screen)
	}
}
