package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/headless"
)

const (
	roKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	roAddr   = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
)

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
