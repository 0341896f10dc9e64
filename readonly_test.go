package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/headless"
)

const (
	roKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	roAddr   = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
)

// TestAddressWithTheKeyExportedOpensReadOnly: `tradedesk --url … --address 0xMINE` (or --account
// without --agent-keystore, or the config file's account) with TRADEDESK_PRIVATE_KEY exported opens READ-ONLY with a client that holds no
// key, and the console says why before any key is pressed; without the address the same key
// trades. The reason names the flag typed. Guards the console that opened LIVE and placed
// `:b 0.01 eth 3001`, and a reason that told an --account user to drop --address.
func TestAddressWithTheKeyExportedOpensReadOnly(t *testing.T) {
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	env := keyEnv{getenv: func(k string) string {
		return map[string]string{api.EnvPrivateKey: "0x" + roKeyHex}[k]
	}}
	for _, from := range []string{"--address", "--account", "config"} {
		env.accountFromConfig, env.addressFlag = from == "config", from
		var stderr bytes.Buffer
		o := options{Connection: headless.Connection{URL: srv.URL + "/", Address: roAddr}}
		c, err := connect(context.Background(), o, &stderr, env)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"--address": "watching --address without a key: $TRADEDESK_PRIVATE_KEY is set but not used; drop --address",
			"--account": "watching --account without --agent-keystore: $TRADEDESK_PRIVATE_KEY is set but not used; drop --account",
			"config":    "watching the config file's account without a key: $TRADEDESK_PRIVATE_KEY is set but not used; remove account from the config file",
		}[from]
		if c.mode != ui.ModeReadOnly || c.client.CanTrade() || !strings.Contains(c.readOnly, want) {
			t.Fatalf("%s: mode %v, can trade %v, reason %q", from, c.mode, c.client.CanTrade(), c.readOnly)
		}
		if _, err := c.client.CancelAll(context.Background()); err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Fatalf("the watching client signed a cancel-all: %v", err)
		}
		keys, _ := buildKeyMap(nil)
		m := ui.New(ui.Config{Exchange: c.client, Mode: c.mode, Network: c.network, ReadOnlyReason: c.readOnly, Keys: keys})
		m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
		lines := strings.Split(m.View(), "\n")
		if !strings.Contains(lines[0], "READ-ONLY") || strings.Contains(lines[0], "LIVE") || !strings.Contains(strings.Join(lines[len(lines)-3:], "\n"), "$TRADEDESK_PRIVATE_KEY is set but not used") {
			t.Fatalf("%s: the console does not say it is read-only and why:\n%s\n…\n%s", from, lines[0], strings.Join(lines[len(lines)-3:], "\n"))
		}
	}
	c, err := connect(context.Background(), options{Connection: headless.Connection{URL: srv.URL + "/"}}, &bytes.Buffer{}, env)
	if err != nil || c.mode != ui.ModeLive || !c.client.CanTrade() {
		t.Fatalf("the key alone: %+v, %v", c, err)
	}
}

// TestHeadlessWatchThroughMainSignsNothing: through main, with the key exported, an order with
// --account and a cancel-all with the config file's account are refused with the way out and
// nothing reaches the exchange; a read with --address shows the account.
func TestHeadlessWatchThroughMainSignsNothing(t *testing.T) {
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := writeConfig(t, `url = "`+srv.URL+`"`+"\naccount = \""+roAddr+"\"\n", 0o600)
	for _, args := range [][]string{
		{"order", "--url", srv.URL, "--account", roAddr, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market", "--yes"},
		{"order", "--config", cfg, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market", "--yes"},
	} {
		t.Setenv(api.EnvPrivateKey, "0x"+roKeyHex)
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != headless.ExitUsage || !strings.Contains(errb.String(), "opens read-only, but TRADEDESK_PRIVATE_KEY is set") {
			t.Fatalf("%v: exit %d, %q", args, code, errb.String())
		}
	}
	t.Setenv(api.EnvPrivateKey, "0x"+roKeyHex)
	var out, errb bytes.Buffer
	if code := run([]string{"positions", "--url", srv.URL, "--address", roAddr}, &out, &errb); code != 0 || !strings.Contains(out.String(), "no open positions") && !strings.Contains(out.String(), "(none)") {
		t.Fatalf("positions --address: exit %d %q %q", code, out.String(), errb.String())
	}
	pg, err := api.New(srv.URL+"/", api.WithAddress(roAddr)).Positions(context.Background(), roAddr)
	if err != nil || len(pg) != 0 {
		t.Fatalf("positions on the exchange: %v (%v)", pg, err)
	}
}

// TestRunTakesTheSecretsOutOfTheEnvironment: run reads the key and the passphrase and removes
// them from the environment, and still trades with the key it read. Guards the secrets left for
// child processes and libraries.
func TestRunTakesTheSecretsOutOfTheEnvironment(t *testing.T) {
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv(api.EnvPrivateKey, "0x"+roKeyHex)
	t.Setenv(api.EnvPassphrase, "correct horse")
	var out, errb bytes.Buffer
	if code := run([]string{"account", "--url", srv.URL}, &out, &errb); code != 0 || !strings.Contains(out.String(), roAddr) {
		t.Fatalf("account with the exported key: exit %d %q %q", code, out.String(), errb.String())
	}
	for _, name := range []string{api.EnvPrivateKey, api.EnvPassphrase} {
		if _, ok := os.LookupEnv(name); ok {
			t.Errorf("%s is still in the environment", name)
		}
	}
}
