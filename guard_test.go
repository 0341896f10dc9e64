package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// TestHeadlessOrderHonoursTheConfigGuard: through main with a config file, [guard] max_notional
// binds tradedesk order as it binds the console: an order above it is refused without --yes
// (exit 1, saying why, nothing at the exchange) and sent with it; the same order without the
// setting needs no --yes; a bad value in [guard], [poll] or [depth] is a usage error naming the
// setting, as the console refuses it.
func TestHeadlessOrderHonoursTheConfigGuard(t *testing.T) {
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	guarded := writeConfig(t, "url = \""+srv.URL+"\"\n[guard]\nmax_notional = \"100\"\n", 0o600)
	plain := writeConfig(t, "url = \""+srv.URL+"\"\n", 0o600)
	order := func(cfg string, extra ...string) (int, string) {
		t.Setenv(api.EnvPrivateKey, "0x"+roKeyHex) // run takes it out of the environment
		args := append([]string{"order", "--config", cfg, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market"}, extra...)
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		return code, errb.String()
	}
	size := func() string {
		ps, err := api.New(srv.URL+"/", api.WithAddress(roAddr)).Positions(context.Background(), roAddr)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 0 {
			return "0"
		}
		return ps[0].Size.String()
	}
	code, errs := order(guarded)
	if code != headless.ExitRefused || !strings.Contains(errs, "nothing sent") || !strings.Contains(errs, "--yes") || !strings.Contains(errs, "100") {
		t.Fatalf("above the config's max_notional without --yes: exit %d %q", code, errs)
	}
	if s := size(); s != "0" {
		t.Fatalf("the refused order reached the exchange: position %s", s)
	}
	if code, errs = order(guarded, "--yes"); code != 0 {
		t.Fatalf("with --yes: exit %d %q", code, errs)
	}
	if s := size(); s != "0.01" {
		t.Fatalf("position %s after the confirmed order, want 0.01", s)
	}
	if code, errs = order(plain); code != 0 {
		t.Fatalf("without [guard] the same order needs no --yes: exit %d %q", code, errs)
	}
	// The file is refused as the console refuses it, whichever table holds the mistake.
	for table, want := range map[string]string{
		"[guard]\nmax_notional = \"lots\"": "[guard] max_notional", "[poll]\nfills = \"2h\"": "[poll] fills = 2h0m0s is too slow",
		"[depth]\nlarge_trade = \"-5\"": "[depth] large_trade",
	} {
		bad := writeConfig(t, "url = \""+srv.URL+"\"\n"+table+"\n", 0o600)
		if code, errs = order(bad, "--yes"); code != headless.ExitUsage || !strings.Contains(errs, want) {
			t.Fatalf("%s: exit %d %q", table, code, errs)
		}
	}
}
