package launch

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// TestAddressWithTheKeyExportedOpensReadOnly: `tradedesk --url … --address 0xMINE` (or --account
// without --agent-keystore, or the config file's account) with TRADEDESK_PRIVATE_KEY exported opens READ-ONLY with a client that holds no
// key, and the console says why before any key is pressed; without the address the same key
// trades. The reason names the flag typed. Guards the console that opened LIVE and placed
// `:b 0.01 eth 3001`, and a reason that told an --account user to drop --address.
func TestAddressWithTheKeyExportedOpensReadOnly(t *testing.T) {
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	env := KeyEnv{Getenv: func(k string) string {
		return map[string]string{api.EnvPrivateKey: "0x" + roKeyHex}[k]
	}}
	for _, from := range []string{"--address", "--account", "config"} {
		env.AccountFromConfig, env.AddressFlag = from == "config", from
		var stderr bytes.Buffer
		o := options{Connection: headless.Connection{URL: srv.URL + "/", Address: roAddr}}
		c, err := Connect(context.Background(), o, &stderr, env)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"--address": "watching --address without a key: $TRADEDESK_PRIVATE_KEY is set but not used; drop --address",
			"--account": "watching --account without --agent-keystore: $TRADEDESK_PRIVATE_KEY is set but not used; drop --account",
			"config":    "watching the config file's account without a key: $TRADEDESK_PRIVATE_KEY is set but not used; remove account from the config file",
		}[from]
		if c.Mode != ui.ModeReadOnly || c.Client.CanTrade() || !strings.Contains(c.ReadOnly, want) {
			t.Fatalf("%s: mode %v, can trade %v, reason %q", from, c.Mode, c.Client.CanTrade(), c.ReadOnly)
		}
		if _, err := c.Client.CancelAll(context.Background()); err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Fatalf("the watching client signed a cancel-all: %v", err)
		}
		keys := commontest.Keys(t)
		m := ui.New(ui.Config{Exchange: c.Client, Mode: c.Mode, Network: c.Network, ReadOnlyReason: c.ReadOnly, Keys: keys})
		m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
		lines := strings.Split(m.View(), "\n")
		if !strings.Contains(lines[0], "READ-ONLY") || strings.Contains(lines[0], "LIVE") || !strings.Contains(strings.Join(lines[len(lines)-3:], "\n"), "$TRADEDESK_PRIVATE_KEY is set but not used") {
			t.Fatalf("%s: the console does not say it is read-only and why:\n%s\n…\n%s", from, lines[0], strings.Join(lines[len(lines)-3:], "\n"))
		}
	}
	c, err := Connect(context.Background(), options{Connection: headless.Connection{URL: srv.URL + "/"}}, &bytes.Buffer{}, env)
	if err != nil || c.Mode != ui.ModeLive || !c.Client.CanTrade() {
		t.Fatalf("the key alone: %+v, %v", c, err)
	}
}
