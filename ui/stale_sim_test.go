package ui

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// downSwitch answers 503 to every request while down is set: the exchange is unreachable.
type downSwitch struct {
	next http.Handler
	down atomic.Bool
}

func (d *downSwitch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if d.down.Load() {
		http.Error(w, "service unavailable", http.StatusServiceUnavailable)
		return
	}
	d.next.ServeHTTP(w, r)
}

// TestStalePricesSaidWhereOrdersAreMade (issue #23, case 3), against the simulator: with the
// exchange down for 30 s, the order form says its mark is stale and the confirmation says the
// figures are 30 s old and asks for a typed confirmation; once prices are fresh again Enter alone
// does. Before: every pane said "stale" except the form and the confirmation.
func TestStalePricesSaidWhereOrdersAreMade(t *testing.T) {
	t.Parallel()
	var sw *downSwitch
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { sw = &downSwitch{next: h}; return sw })
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	tk, _ := c.m.store.Ticker("BTC-PERP")
	px := state.FloorToStep(tk.BestBidPrice.Sub(d("20")), d("0.1")).String()
	typeOrder := func() {
		c.key(t, "4")
		c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
		c.m.form.Focus(orderentry.FieldPrice)
		c.key(t, "ctrl+x") // clear the form
		c.typeText(t, px)
		c.key(t, "down")
		c.typeText(t, "0.01")
		c.key(t, "enter")
		if c.m.confirmation() == nil {
			t.Fatalf("no confirmation: %q", c.m.shownNotice())
		}
	}

	sw.down.Store(true)
	c.clock.Add(30 * time.Second)
	pump(t, c.m, c.m.refreshNow(state.KindTickers, state.KindMids))
	if !c.m.store.Freshness(state.KindTickers).Stale {
		t.Fatal("the tickers are not stale with the exchange down for 30s")
	}
	typeOrder()
	v := c.m.View()
	if !strings.Contains(v, "stale 30s") {
		t.Errorf("the order form does not say its mark is stale:\n%s", v)
	}
	if !strings.Contains(v, "market prices are 30s old") || c.m.confirmation().Action().Typed == "" {
		t.Fatalf("the confirmation does not say the prices are old and ask for typing (typed %q):\n%s", c.m.confirmation().Action().Typed, v)
	}
	c.key(t, "esc")

	sw.down.Store(false)
	pump(t, c.m, c.m.refreshNow(state.KindTickers, state.KindMids))
	typeOrder()
	if c.m.confirmation().Action().Typed != "" || strings.Contains(c.m.View(), "old:") {
		t.Fatalf("fresh prices still ask for typing: %q", c.m.confirmation().Action().Typed)
	}
	c.key(t, "enter")
	if n := exchangeOpen(t, c); n != 1 {
		t.Fatalf("%d open orders after Enter (notice %q)", n, c.m.shownNotice())
	}
}

// TestFormSaysStaleAtEverySize (issue #31 #7), against the simulator at 80x24, 120x40 and
// 200x60: with the exchange down 30 s the order form's quote line starts with its stale marker,
// so no width cuts it off where the trader types (at 120 columns "stale 16s" was cut from the
// line's end and old prices looked live).
func TestFormSaysStaleAtEverySize(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	for _, sz := range screenSizes {
		var sw *downSwitch
		c := newSimConsoleVia(t, sz[0], sz[1], false, func(h http.Handler) http.Handler { sw = &downSwitch{next: h}; return sw })
		pump(t, c.m, c.m.Init())
		c.key(t, "4")
		c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
		sw.down.Store(true)
		c.clock.Add(30 * time.Second)
		pump(t, c.m, c.m.refreshNow(state.KindTickers, state.KindMids))
		v := ansi.Strip(c.m.form.View())
		var quote string
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "mark ") && strings.Contains(l, "bid ") {
				quote = l
			}
		}
		if !strings.Contains(quote, "stale 30s mark ") {
			t.Errorf("%dx%d: the form's quote line does not start with its stale marker: %q\n%s", sz[0], sz[1], quote, v)
		}
	}
}
