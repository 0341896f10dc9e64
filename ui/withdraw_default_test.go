package ui

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// TestConsoleAndCLIWithdrawFromTheSameBalance (QA item 15): the console's `w` and `tradedesk
// withdraw` without --from take a withdrawal from the same balance, the spot side (the idle
// balance, not the margin behind open positions; the spec's spotWithdrawRequest). Before, `w`
// opened a derivative withdrawal and the command took spot. Against the simulator, the command's
// dry run names the operation the form opened on; either default changed alone fails here.
func TestConsoleAndCLIWithdrawFromTheSameBalance(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	_, form := fundsGroup(t, c.m)
	c.key(t, "8", "w")
	if form.Op() != funds.SpotWithdraw {
		t.Errorf("w opened a %s, want a spot withdrawal", form.Op())
	}
	var out, errb bytes.Buffer
	code := runHeadless(context.Background(), []string{"withdraw", "--collateral", "USDC", "--amount", "10", "--chain", "42161", "--dry-run", "--json"},
		headless.Env{Stdout: &out, Stderr: &errb, Client: c.m.ex, Getenv: func(string) string { return "" }})
	if code != headless.ExitOK || !strings.Contains(out.String(), `"operation": "`+form.Op().String()+`"`) {
		t.Fatalf("withdraw --dry-run: exit %d, %s%s; the console's w opened a %s", code, out.String(), errb.String(), form.Op())
	}
}
