package headless

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
)

// TestAgentWorkflow: agent add writes an encrypted keystore and registers the agent; with only
// that keystore and --account, orders go through for the account, a withdrawal and a transfer
// are refused before signing, agent list shows it; after agent revoke its next order is refused
// with 401; and no output holds either key.
func TestAgentWorkflow(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	h.env[api.EnvPassphrase] = "agent pass"
	file := filepath.Join(t.TempDir(), "desk.json")
	account := testAddress(t)

	short := filepath.Join(t.TempDir(), "short.json")
	h.ok("agent", "add", "--name", "short", "--valid", "12h", "--out", short)
	out := h.ok("agent", "add", "--name", "desk-bot", "--valid", "30d", "--out", file)
	// The line to paste names the exchange it was registered on: without it the console refuses.
	if !strings.Contains(out, "registered for "+account) || !strings.Contains(out, "trade with: tradedesk --agent-keystore "+file+" --account "+account+" --url "+h.srv.URL+"\n") {
		t.Fatalf("agent add said %q", out)
	}
	if code, _, errs := h.run("agent", "add", "--name", "again", "--out", file); code != ExitUsage || !strings.Contains(errs, "exists already") {
		t.Fatalf("agent add over an existing file: %d %q", code, errs)
	}
	agentKey, err := keyfile.Open(file, "agent pass")
	if err != nil {
		t.Fatal(err)
	}
	agentAddr := agentKey.Address()

	// From here on only the agent's keystore: no account key in the environment.
	delete(h.env, api.EnvPrivateKey)
	as := []string{"--agent-keystore", file, "--account", account}
	bid := h.restingBid()
	h.ok(append([]string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", bid}, as...)...)
	if oo, _ := h.client().OpenOrders(t.Context(), account, api.PageParams{}); len(oo.Data) != 1 {
		t.Fatalf("the agent's order is not the account's: %+v", oo.Data)
	}
	for _, args := range [][]string{
		{"withdraw", "--collateral", "USDC", "--amount", "1", "--chain", "1", "--yes"},
		{"transfer", "--collateral", "USDC", "--amount", "1", "--to", "0x9908658A316D743159F001026F1ef08aa8F0b55B", "--yes"},
		{"leverage", "--instrument", "BTC-PERP", "--leverage", "5"},
		{"agent", "revoke", "--agent", agentAddr},
	} {
		code, _, errs := h.run(append(args, as...)...)
		if code == ExitOK || !strings.Contains(errs, "account's own key") {
			t.Errorf("%s as the agent: exit %d %q", args[0], code, errs)
		}
	}
	// An agent with less than a day left is warned about on every command (real clock: a moment has passed).
	if code, _, errs := h.run("account", "--agent-keystore", short, "--account", account); code != ExitOK || !strings.Contains(errs, "expires in 1") || !strings.Contains(errs, "h ") {
		t.Fatalf("short agent: %d %q", code, errs)
	}
	out = h.ok(append([]string{"agent", "list"}, as...)...)
	if !strings.Contains(out, agentAddr) || !strings.Contains(out, "desk-bot") || !strings.Contains(out, "29d 23h") {
		t.Fatalf("agent list: %q", out)
	}

	h.env[api.EnvPrivateKey] = "0x" + testKey
	h.ok("agent", "revoke", "--agent", agentAddr)
	delete(h.env, api.EnvPrivateKey)
	code, _, errs := h.run(append([]string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", bid}, as...)...)
	if code != ExitRefused || !strings.Contains(errs, "is not registered for "+account) || !strings.Contains(errs, "nothing was signed") {
		t.Fatalf("order by a revoked agent: %d %q", code, errs)
	}
	if code, _, errs := h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", bid, "--agent-keystore", file); code != ExitUsage || !strings.Contains(errs, "--account") {
		t.Fatalf("agent keystore without --account: %d %q", code, errs)
	}
	keyText := strings.ToLower(testKey)
	for _, o := range h.outputs {
		if strings.Contains(strings.ToLower(o), keyText) {
			t.Fatal("the account key appears in an output")
		}
	}
}

// TestLeverageAndBrokerCommands: leverage changes the setting (and refuses a change the tiers
// forbid without sending), broker approve and revoke need --yes and show in brokers_check.
func TestLeverageAndBrokerCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	out := h.ok("leverage", "--instrument", "BTC-PERP", "--leverage", "20")
	if !strings.Contains(out, "-> 20x") {
		t.Fatalf("leverage said %q", out)
	}
	lv, err := c.InstrumentLeverage(t.Context(), "", "BTC-PERP")
	if err != nil || lv.Leverage.String() != "20" {
		t.Fatalf("leverage now %s (%v)", lv.Leverage, err)
	}
	if code, _, errs := h.run("leverage", "--instrument", "BTC-PERP", "--leverage", "500"); code != ExitRefused || !strings.Contains(errs, "leverage change refused, nothing sent") {
		t.Fatalf("500x: %d %q", code, errs)
	}
	broker := "0x9908658A316D743159F001026F1ef08aa8F0b55B"
	if code, _, errs := h.run("broker", "approve", "--broker", broker, "--max-fee-rate", "0.1%"); code != ExitUsage || !strings.Contains(errs, "add --yes") {
		t.Fatalf("approve without --yes: %d %q", code, errs)
	}
	h.ok("broker", "approve", "--broker", broker, "--max-fee-rate", "0.1%", "--yes")
	pg, _ := c.BrokersCheck(t.Context(), "", broker, api.PageParams{})
	found := false
	for _, b := range pg.Data {
		found = found || (b.Broker == broker && b.MaxFeeRate.String() == "0.001")
	}
	if !found {
		t.Fatalf("approval not shown: %+v", pg.Data)
	}
	h.ok("broker", "revoke", "--broker", broker, "--yes")
	pg, _ = c.BrokersCheck(t.Context(), "", broker, api.PageParams{})
	for _, b := range pg.Data {
		if b.Broker == broker {
			t.Fatalf("still approved after revoke: %+v", b)
		}
	}
	if code, _, _ := h.run("broker", "approve", "--broker", broker, "--max-fee-rate", "5%", "--yes"); code != ExitUsage {
		t.Fatal("5% accepted")
	}
}

// TestAgentValidityRange: --valid is refused outside 1m..180d with the range, however it is
// written. Guards 213504d, which overflowed to about 25 minutes and was accepted.
func TestAgentValidityRange(t *testing.T) {
	t.Parallel()
	for in, ok := range map[string]bool{"30d": true, "180d": true, "12h": true, "1m": true, "181d": false, "213504d": false,
		"9223372036854775807d": false, "-1d": false, "30s": false, "100000h": false, "4320h": true, "4321h": false} {
		d, err := parseValidity(in)
		if ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), "from 1m to 180d")) || (ok && (d < time.Minute || d > api.MaxAgentValidity)) {
			t.Errorf("--valid %s: %v, %v", in, d, err)
		}
	}
	h := newHarness(t)
	if code, _, errs := h.run("agent", "add", "--name", "x", "--valid", "213504d", "--out", filepath.Join(t.TempDir(), "a.json")); code != ExitUsage || !strings.Contains(errs, "from 1m to 180d") {
		t.Fatalf("213504d: exit %d %q", code, errs)
	}
}
