package headless

import (
	"strings"
	"testing"
)

// TestAlgoFlagsSayWhatToFix: chase, twap, trail and scale read their shared flags (--instrument,
// --side, --size and an optional duration) with one reader each, and every bad value is a usage
// error that names the flag and what to give; nothing is sent.
func TestAlgoFlagsSayWhatToFix(t *testing.T) {
	t.Parallel() // its own simulator
	h := newHarness(t)
	order := []string{"--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"chase", "--side", "buy", "--size", "0.002"}, "--instrument is required (a name like BTC-PERP or an id)"},
		{[]string{"twap", "--instrument", " ", "--side", "buy", "--size", "0.002", "--duration", "1m"}, "--instrument is required"},
		{[]string{"scale", "--instrument", "BTC-PERP", "--side", "up", "--size", "0.002"}, `--side "up": give buy or sell`},
		{[]string{"chase", "--instrument", "BTC-PERP", "--side", "sell", "--size", "-1"}, `--size "-1": give a positive size such as 0.01`},
		{append([]string{"chase", "--for", " 0s "}, order...), `--for "0s": give a positive duration such as 90s or 5m`},
		{append([]string{"twap", "--duration", "1m", "--every", "soon"}, order...), `--every "soon": give a positive duration such as 2m`},
		{[]string{"trail", "--instrument", "BTC-PERP", "--distance", "500", "--every", "-5s"}, `--every "-5s": give a positive duration such as 5s`},
		{[]string{"trail", "--distance", "500"}, "--instrument is required (a name like BTC-PERP or an id)"},
	}
	for _, c := range cases {
		code, out, errs := h.run(c.args...)
		if code != ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error saying %q", c.args, code, out, errs, c.want)
		}
	}
	if open := h.openOrders(); len(open) != 0 {
		t.Fatalf("a refused command sent orders: %+v", open)
	}
}
