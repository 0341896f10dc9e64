package headless

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestAccountToWatchNeverLoadsTheExportedKey: with TRADEDESK_PRIVATE_KEY exported, --address,
// --account without --agent-keystore, and the config file's account each read that account
// without the key, and every command that signs (an order, a cancel, leverage, a transfer, agent
// add) refuses with the way out and leaves the exchange as it was. A keystore or no account
// named still trades. Guards the key loaded behind an address meant to be watched.
func TestAccountToWatchNeverLoadsTheExportedKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	mine := testAddress(t)
	order := []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(), "--yes"}
	signing := [][]string{order, {"cancel-all"}, {"leverage", "--instrument", "BTC-PERP", "--leverage", "5"},
		{"transfer", "--collateral", "USDC", "--amount", "1", "--to-spot", "--yes"}, {"agent", "add", "--name", "x", "--out", t.TempDir() + "/a.json"}}
	for _, args := range signing {
		code, _, errs := h.run(append(args, "--account", mine)...)
		if strings.Contains(strings.Join(args, " "), "transfer") || args[0] == "agent" {
			// These take no --account: the config file's account is the way to name one.
			code, errs = h.runConfig(Connection{Address: mine}, args...)
			if code != ExitUsage || !strings.Contains(errs, "the config file's account opens read-only, but TRADEDESK_PRIVATE_KEY is set") {
				t.Errorf("%s with the config's account: exit %d %q", args[0], code, errs)
			}
			continue
		}
		if code != ExitUsage || !strings.Contains(errs, "signs nothing: --account without --agent-keystore opens read-only") {
			t.Errorf("%s --account: exit %d %q", args[0], code, errs)
		}
		if code, errs = h.runConfig(Connection{Address: mine}, args...); code != ExitUsage || !strings.Contains(errs, "remove account from the config file") {
			t.Errorf("%s with the config's account: exit %d %q", args[0], code, errs)
		}
	}
	if oo, _ := h.client().OpenOrders(t.Context(), mine, api.PageParams{}); len(oo.Data) != 0 {
		t.Fatalf("an order was placed: %+v", oo.Data)
	}
	// Reads watch the account named: the key's own or another.
	for _, who := range []string{mine, "0x00000000000000000000000000000000000000AA"} {
		if code, out, errs := h.run("account", "--address", who); code != ExitOK || !strings.Contains(out, who) {
			t.Errorf("account --address %s: exit %d %q %q", who, code, out, errs)
		}
	}
	// No account named: the exported key trades.
	h.ok(order...)
}

// runConfig runs a command with conn as the config file's connection (the simulator's URL
// added) and returns its exit status and stderr.
func (h *harness) runConfig(conn Connection, args ...string) (int, string) {
	h.t.Helper()
	conn.URL = h.srv.URL
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] }, Defaults: conn})
	h.outputs = append(h.outputs, out.String(), errb.String())
	return code, errb.String()
}
