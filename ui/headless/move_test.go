package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// TestMovementsAskBeforeMovingMoney (issue #23, case 7), against the simulator: transfer and
// withdraw move nothing unless told to. Without --yes and without a terminal they print the
// preview (full destination, amount, fee, what arrives) and refuse; --dry-run previews (as a
// table or JSON) and sends nothing; a typed confirmation sends only on "yes"; --yes sends. Before:
// `transfer --to 0x…01 --amount 5` moved the money at once and --yes/--dry-run were unknown flags.
func TestMovementsAskBeforeMovingMoney(t *testing.T) {
	h := newHarness(t)
	dest := "0x0000000000000000000000000000000000000001"
	balance := func() decimal.Decimal {
		t.Helper()
		a, err := api.New(h.srv.URL, api.WithAddress(dest)).AccountSummary(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		return a.SpotCollateral["USDC"].Balance
	}
	start := balance()
	send := []string{"transfer", "--to", dest, "--amount", "5", "--collateral", "USDC"}

	code, out, errs := h.run(send...)
	if code != ExitRefused || !strings.Contains(errs, "not sent: add --yes") {
		t.Fatalf("without --yes: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"Spot transfer: 5.00 USDC", dest, "fee 0.00 USDC on top: 5.00 USDC leaves, 5.00 USDC arrives"} {
		if !strings.Contains(strings.ToLower(out), strings.ToLower(want)) {
			t.Errorf("the preview lacks %q:\n%s", want, out)
		}
	}
	out = h.ok(append(send, "--dry-run")...)
	if !strings.Contains(out, "not sent (--dry-run)") || !strings.Contains(strings.ToLower(out), dest) {
		t.Errorf("--dry-run: %q", out)
	}
	out = h.ok("withdraw", "--collateral", "USDC", "--amount", "5", "--chain", "42161", "--dry-run", "--json")
	var j moveJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Sent || j.Fee != "1" || j.Leaves != "6" || j.Arrives != "5" || j.ChainID != 42161 || len(j.Destination) != 42 {
		t.Errorf("withdraw --dry-run --json: %+v %v\n%s", j, err, out)
	}

	typed := func(answer bool) int {
		var o, e bytes.Buffer
		asked := ""
		code := Run(context.Background(), append(append([]string{}, send...), "--url", h.srv.URL), Env{Stdout: &o, Stderr: &e,
			Getenv:  func(k string) string { return h.env[k] },
			Confirm: func(p string) (bool, error) { asked = p; return answer, nil }})
		if asked != "type yes to send this spot transfer: " {
			t.Errorf("the prompt was %q", asked)
		}
		return code
	}
	if code := typed(false); code != ExitRefused {
		t.Errorf("not confirmed: exit %d", code)
	}
	if got := balance(); !got.Equal(start) {
		t.Fatalf("money moved without --yes or a typed yes: %s -> %s", start, got)
	}
	if code := typed(true); code != 0 {
		t.Fatalf("typed yes: exit %d", code)
	}
	h.ok(append(send, "--yes")...)
	if got := balance(); !got.Equal(start.Add(decimal.NewFromInt(10))) {
		t.Fatalf("after a typed yes and --yes the destination has %s, want %s", got, start.Add(decimal.NewFromInt(10)))
	}
}
