package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// othersCloid is a cloid another program trading the account chose.
const othersCloid = "\x1b]0;other\a\x1b[2J\u009b41m"

// screenSafe fails when the rendered screen holds any control character but newline (the test
// theme renders no styling, so the screen is plain text).
func screenSafe(t *testing.T, where, view string) {
	t.Helper()
	for i, r := range view {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
			t.Fatalf("%s: control %U at byte %d of the screen:\n%s", where, r, i, view)
		}
	}
}

// TestHostileServerScreen: the console against a server that puts control sequences into every
// name, symbol, address, cloid, state and error draws none of them, on any pane, in the status
// line or in the notice an order's refusal brings. Guards the store's cleaning of records and
// the notice's cleaning of server errors.
func TestHostileServerScreen(t *testing.T) {
	t.Parallel()
	var direct *httptest.Server
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler {
		direct = httptest.NewServer(h)
		return sim.Hostile(h, sim.HostilePayload)
	})
	t.Cleanup(direct.Close)
	// Another program trades the account directly: a fill and a resting order, its own cloids.
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	other := api.New(direct.URL, api.WithSigner(signer), api.WithClock(c.clock.Now))
	for _, o := range []api.OrderWire{
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "140000", Size: "0.01", Tif: api.TifIOC, Cloid: othersCloid + "1"},
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "60000", Size: "0.01", Tif: api.TifGTC, Cloid: othersCloid + "2"},
	} {
		if _, err := other.PlaceOrders(context.Background(), []api.OrderWire{o}); err != nil {
			t.Fatalf("another program's order: %v", err)
		}
	}
	pump(t, c.m, c.m.Init())
	if len(c.m.store.Orders()) != 1 || len(c.m.store.Fills()) == 0 {
		t.Fatalf("the console sees %d orders and %d fills", len(c.m.store.Orders()), len(c.m.store.Fills()))
	}
	screenSafe(t, "start", c.m.View())
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "]", "]", "8", "9"} {
		c.key(t, k)
		screenSafe(t, "after "+k, c.m.View())
	}
	// An order the server refuses with a hostile message.
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "1")
	c.key(t, "down", "down", "down")
	c.typeText(t, "60000")
	c.key(t, "down")
	c.typeText(t, "0.01")
	c.key(t, "enter")
	c.typeText(t, "yes") // far from the mark: the confirmation asks for yes
	c.key(t, "enter")
	if !strings.Contains(c.m.shownNotice(), `order refused\u001b]0;PWNED`) {
		t.Errorf("notice %q, want the server's refusal, escaped", c.m.shownNotice())
	}
	screenSafe(t, "after the refusal", c.m.View())
}

// TestOrderCreditedToAnotherAccount: an order whose answer names another account is an error
// notice, not "placed". Guards the console's reading of api's attribution check.
func TestOrderCreditedToAnotherAccount(t *testing.T) {
	t.Parallel()
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/exchange" {
				_, _ = w.Write([]byte(`{"tx_hash":"0xab","address":"0x9908658A316D743159F001026F1ef08aa8F0b55B","data":{"status":[{"resting":{"oid":7}}]}}`))
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
	c.key(t, "down", "down", "down")
	c.typeText(t, "95000")
	c.key(t, "down")
	c.typeText(t, "0.01")
	c.key(t, "enter", "enter")
	if c.m.shownLevel() != common.LevelError || !strings.Contains(c.m.shownNotice(), "the exchange attributed this action to 0x9908658A316D743159F001026F1ef08aa8F0b55B; nothing was done on your account") {
		t.Errorf("notice %q (level %v)", c.m.shownNotice(), c.m.shownLevel())
	}
}
