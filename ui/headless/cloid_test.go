package headless

import (
	"strings"
	"testing"
)

// TestFreeTextCloidFromAnotherProgram: the official SDKs' examples use free-text client order ids
// ("ts-order-1769690420567"). An order placed with one can be cancelled by it, against the
// simulator over HTTP (the UUID-only rule refused this).
func TestFreeTextCloidFromAnotherProgram(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const cloid = "ts-order-1769690420567"
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(), "--cloid", cloid)
	if orders := h.openOrders(); len(orders) != 1 || orders[0].Cloid != cloid {
		t.Fatalf("open orders %+v, want the order with cloid %s", orders, cloid)
	}
	out := h.ok("cancel", "--instrument", "BTC-PERP", "--cloid", cloid)
	if !strings.Contains(out, "cancelled order with cloid "+cloid) {
		t.Fatalf("cancel output %q", out)
	}
	if orders := h.openOrders(); len(orders) != 0 {
		t.Fatalf("order still open after cancel: %+v", orders)
	}
}

// TestBadCloidsRefused: only an overlong id, a control character or key-shaped hex is refused,
// with a message that says what to fix, before anything is sent.
func TestBadCloidsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for cloid, want := range map[string]string{
		strings.Repeat("a", 129):        "129 bytes long; the exchange takes at most 128",
		"bot-\x1b]0;x\a-1":              "control character (U+001B)",
		"0x" + strings.Repeat("ab", 32): "the shape of a private key",
	} {
		code, _, errs := h.run("cancel", "--instrument", "BTC-PERP", "--cloid", cloid)
		if code != ExitUsage || !strings.Contains(errs, want) {
			t.Errorf("cancel --cloid %q: exit %d, stderr %q; want %q", cloid[:10], code, errs, want)
		}
	}
}
