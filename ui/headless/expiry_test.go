package headless

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExpiryWindowFlag: --expiry-window sets how long after its nonce an order or cancel a
// command signs stays valid (the journal keeps both: expiresAfter is the nonce plus the window;
// without the flag, the api's 60 s), and a window under a second, over a day or not a duration
// is a usage error that says what to send.
func TestExpiryWindowFlag(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	px := h.restingBid()
	order := func(cloid string, extra ...string) []string {
		return append([]string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px,
			"--cloid", cloid}, extra...)
	}
	for _, bad := range []struct{ value, want string }{
		{"0s", "--expiry-window 0s: want 1s to 24h"},
		{"500ms", "--expiry-window 500ms: want 1s to 24h"},
		{"25h", "--expiry-window 25h0m0s: want 1s to 24h"},
		{"-5s", "--expiry-window -5s: want 1s to 24h"},
		{"soon", `--expiry-window "soon": not a duration; give one like 30s, 5m or 1h (1s to 24h)`},
	} {
		code, _, errs := h.run(order("a0000000-0000-4000-8000-000000000001", "--expiry-window", bad.value)...)
		if code != ExitUsage || !strings.Contains(errs, bad.want) {
			t.Errorf("--expiry-window %s: exit %d, stderr %q; want exit %d and %q", bad.value, code, errs, ExitUsage, bad.want)
		}
	}
	h.ok(order("a0000000-0000-4000-8000-000000000002", "--expiry-window", "7s")...)
	h.ok(order("a0000000-0000-4000-8000-000000000003")...)
	h.ok("cancel", "--instrument", "BTC-PERP", "--cloid", "a0000000-0000-4000-8000-000000000002", "--expiry-window", "90s")
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"place": 7000, "cancel": 90000}
	seen := map[string]int{}
	for _, e := range es {
		w := want[e.Kind]
		if e.Kind == "place" && len(e.Cloids) == 1 && e.Cloids[0] == "a0000000-0000-4000-8000-000000000003" {
			w = 60000
		}
		if e.Nonce == 0 || e.ExpiresAfter-e.Nonce != w {
			t.Errorf("%s %v: expiresAfter %d − nonce %d = %d ms, want %d", e.Kind, e.Cloids, e.ExpiresAfter, e.Nonce, e.ExpiresAfter-e.Nonce, w)
		}
		seen[e.Kind]++
	}
	if seen["place"] != 2 || seen["cancel"] != 1 {
		t.Errorf("journal: %+v, want two orders and a cancel (nothing of the refused flags)", es)
	}
}
