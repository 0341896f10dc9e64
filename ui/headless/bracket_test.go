package headless

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// bracketJSONOf runs order --json with a bracket and reads its answer.
func (h *harness) bracketJSONOf(code int, args ...string) bracketJSON {
	h.t.Helper()
	got, out, errs := h.run(append([]string{"order", "--json"}, args...)...)
	if got != code {
		h.t.Fatalf("%v: exit %d, want %d; stderr %q", args, got, code, errs)
	}
	var res bracketJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		h.t.Fatalf("%v: %s", err, out)
	}
	return res
}

// TestOrderBracket: order --tp/--sl sends the entry and its legs as one placeOrder through the
// executor, the legs' client ids derived from the entry's, journaled as one intent naming all three.
func TestOrderBracket(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cloid := "7f8fad5b-d9cb-469f-a165-70867728950e"
	res := h.bracketJSONOf(ExitOK, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(),
		"--tp", "5%", "--sl", "40t", "--cloid", cloid)
	if !res.Sent || res.Oid == 0 || res.Outcome != "ok" || len(res.Legs) != 2 || res.Legs[0].Tpsl != "tp" || res.Legs[1].Tpsl != "sl" ||
		res.Legs[0].Cloid != cloid+"-1" || res.Legs[1].Cloid != cloid+"-2" || res.Reward == nil || res.Risk == nil {
		t.Fatalf("bracket: %+v", res)
	}
	for _, l := range res.Legs {
		if l.Status == "" || l.Status == "rejected" || l.Status == "unknown" {
			t.Fatalf("leg %+v", l)
		}
	}
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].ID != cloid || es[0].Kind != "bracket" || len(es[0].Cloids) != 3 || es[0].Cloids[2] != cloid+"-2" ||
		!es[0].Settled || es[0].Outcome != "placed" || !strings.Contains(es[0].What, " tp ") {
		t.Fatalf("journal: %+v", es)
	}
	// The text form names each leg.
	out := h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(), "--sl", "1%", "--dry-run")
	if !strings.Contains(out, "checked (dry run, not sent)") || !strings.Contains(out, "Stop-loss") || strings.Contains(out, "Take-profit") {
		t.Fatalf("dry run:\n%s", out)
	}
	h.checkNoKey()
}

// TestOrderBracketBadLegs: a leg on the wrong side, or a bracket on a reduce-only order, is
// refused with what to fix, and nothing is sent.
func TestOrderBracketBadLegs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	base := []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--sl", "99999999"}, ExitRefused, "stop-loss"},
		{[]string{"--tp", "1"}, ExitRefused, "take-profit"},
		{[]string{"--tp", "5x"}, ExitRefused, "take-profit"},
		{[]string{"--tp", "2%", "--reduce-only"}, ExitRefused, "reduce-only"},
		{[]string{"--tp", ""}, ExitUsage, "--tp and --sl are empty"},
	} {
		code, _, errs := h.run(append(append([]string{}, base...), c.args...)...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	if n := len(h.openOrders()); n != 0 {
		t.Fatalf("a refused bracket sent %d orders", n)
	}
}

// TestOrderBracketLostAnswer: a bracket whose answer is lost is resolved by each order's client
// id, and sent once.
func TestOrderBracketLostAnswer(t *testing.T) {
	t.Parallel() // waits on the wall clock (the request's expiry) while the others run
	h := newHarness(t)
	h.expiry = time.Second
	cloid := "8f8fad5b-d9cb-469f-a165-70867728950e"
	h.drop.afterActing.Store(true)
	res := h.bracketJSONOf(ExitOK, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(),
		"--tp", "5%", "--sl", "2%", "--cloid", cloid)
	if res.Oid == 0 || len(res.Legs) != 2 {
		t.Fatalf("lost bracket: %+v", res)
	}
	n := 0
	for _, o := range h.openOrders() {
		if o.Cloid == cloid {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the entry must be at the exchange once, found %d", n)
	}
}
