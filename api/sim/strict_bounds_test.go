package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestStrictBoundaries: the strict reading's limits sit exactly where protocol.md puts them: a
// request whose expiresAfter is now is expired, one a millisecond later is not; a cloid of 128
// characters is taken, one of 129 is not. Guards each bound moved by one (mutants strict/expired,
// strict/cloid-length).
func TestStrictBoundaries(t *testing.T) {
	t.Parallel()
	now := time.UnixMilli(1_800_000_000_000)
	ms := uint64(now.UnixMilli())
	cancelAll := func(exp uint64) []byte {
		return signed(t, "alice", api.ActionCancelAll, &api.CancelAllData{ExpiresAfter: exp, Nonce: ms - 1000})
	}
	if err := checkStrict(cancelAll(ms), now); err == nil || !strings.Contains(err.Error(), "request expired") {
		t.Errorf("expiresAfter = now: %v, want expired", err)
	}
	if err := checkStrict(cancelAll(ms+1), now); err != nil {
		t.Errorf("expiresAfter a millisecond after now: %v", err)
	}
	order := func(cloid string) []byte {
		w := limit(1, api.SideBuy, "97000", "0.1")
		w.Cloid = cloid
		return signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{w}, ExpiresAfter: ms + 60000, Nonce: ms})
	}
	if err := checkStrict(order(strings.Repeat("c", 128)), now); err != nil {
		t.Errorf("a cloid of 128 characters: %v", err)
	}
	if err := checkStrict(order(strings.Repeat("c", 129)), now); err == nil || !strings.Contains(err.Error(), "129 characters long") {
		t.Errorf("a cloid of 129 characters: %v", err)
	}
}

// TestStrictLimitsOfSizeAndForm: a placeOrder of no orders and one of MaxBatch+1 are refused (of
// MaxBatch is not); a limit order without a price is refused (a market order's may be ""); a
// decimal longer than 64 characters and an integer of more than 20 digits are refused by their
// length, before they are read; a nonce at either edge of its window is refused. Guards each
// bound (mutants strict/batch-max, strict/batch-empty, strict/limit-needs-price,
// strict/decimal-length, strict/int-length, strict/nonce-too-old, strict/nonce-too-new).
func TestStrictLimitsOfSizeAndForm(t *testing.T) {
	t.Parallel()
	now := time.UnixMilli(1_800_000_000_000)
	ms := uint64(now.UnixMilli())
	orders := func(ws ...api.OrderWire) []byte {
		return signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: ws, ExpiresAfter: ms + 60000, Nonce: ms})
	}
	many := func(n int) []api.OrderWire {
		ws := make([]api.OrderWire, n)
		for i := range ws {
			ws[i] = limit(1, api.SideBuy, "97000", "0.1")
		}
		return ws
	}
	for _, c := range []struct {
		name string
		body []byte
		want string // "" : taken
	}{
		{"no orders", orders([]api.OrderWire{}...), "carries no orders"},
		{"MaxBatch orders", orders(many(api.MaxBatch)...), ""},
		{"MaxBatch+1 orders", orders(many(api.MaxBatch + 1)...), "send at most 100"},
		{"a limit without a price", orders(limit(1, api.SideBuy, "", "0.1")), "price is empty"},
		{"a decimal of 65 characters", orders(limit(1, api.SideBuy, "9"+strings.Repeat("0", 64), "0.1")), "is 65 characters long"},
	} {
		err := checkStrict(c.body, now)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	market := limit(1, api.SideBuy, "", "0.1")
	market.IsMarket, market.Tif = true, api.TifIOC
	if err := checkStrict(orders(market), now); err != nil {
		t.Errorf("a market order without a price bound: %v", err)
	}
	if _, err := jsonInt(&jnode{kind: 'n', text: "1" + strings.Repeat("0", 20)}, "nonce"); err == nil || !strings.Contains(err.Error(), "more than 20 digits") {
		t.Errorf("an integer of 21 digits: %v", err)
	}
	for _, n := range []time.Time{now.Add(-nonceBehind), now.Add(nonceAhead)} {
		if err := nonceWindow(uint64(n.UnixMilli()), now); err == nil {
			t.Errorf("a nonce at the window's edge %s was taken", n.Sub(now))
		}
	}
	if err := nonceWindow(uint64(now.Add(nonceAhead-time.Millisecond).UnixMilli()), now); err != nil {
		t.Errorf("a nonce inside the window: %v", err)
	}
}

// TestAPlainDecimalHasOneDotBetweenDigits: "1.5" is a plain decimal; "1.2.3", ".5" and "5." are
// not. Guards the one-dot rule and the dot's place (mutants strict/decimal-one-dot,
// strict/decimal-dot-inside).
func TestAPlainDecimalHasOneDotBetweenDigits(t *testing.T) {
	t.Parallel()
	if err := plainDecimal("price", "1.5"); err != nil {
		t.Fatalf("1.5: %v", err)
	}
	for _, s := range []string{"1.2.3", ".5", "5."} {
		if err := plainDecimal("price", s); err == nil || !strings.Contains(err.Error(), "not a decimal number in plain form") {
			t.Errorf("%q: %v", s, err)
		}
	}
}
