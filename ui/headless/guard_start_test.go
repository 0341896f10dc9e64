package headless

import (
	"encoding/json"
	"testing"
	"time"
)

// TestGuardStartsEachKindFromItsParameters: chase, twap and trail handed to the guard each start
// there from their journal parameters (one decodeAndNew) and are listed running, of their kind,
// on their instrument, until the end their parameters give: a chase's --for, a TWAP's duration, a
// trail none.
func TestGuardStartsEachKindFromItsParameters(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market") // the trail's position
	g := h.startGuard("--allow-account-key")
	before := time.Now()
	ids := map[string]string{}
	for kind, args := range map[string][]string{
		"chase": {"--side", "buy", "--size", "0.002", "--offset", "50t", "--for", "5m"},
		"twap":  {"--side", "buy", "--size", "0.002", "--duration", "1h", "--slices", "2"},
		"trail": {"--distance", "5000"},
	} {
		var got struct{ ID, Kind string }
		out := h.ok(append([]string{kind, "--instrument", "BTC-PERP", "--guard", "--json"}, args...)...)
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Kind != kind {
			t.Fatalf("%s --guard: %q %v", kind, out, err)
		}
		ids[got.ID] = kind
	}
	after := time.Now()
	ends := map[string]time.Duration{"chase": 5 * time.Minute, "twap": time.Hour}
	for _, a := range h.guardStatus().Algorithms {
		kind := ids[a.ID]
		if kind == "" || a.Kind != kind || a.Instrument != "BTC-PERP" || a.State != "running" {
			t.Errorf("listed %+v, want a running %s on BTC-PERP", a, kind)
			continue
		}
		end, ok := ends[kind]
		if !ok && !a.Until.IsZero() || ok && (a.Until.Before(before.Add(end)) || a.Until.After(after.Add(end))) {
			t.Errorf("%s until %s, want now plus %s", kind, a.Until, end)
		}
		delete(ids, a.ID)
	}
	if len(ids) != 0 {
		t.Errorf("not listed: %v", ids)
	}
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("exit %d: %q", code, g.errb.String())
	}
}
