package launch

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// TestShadowModeComesFromTheTransport: shadowMode says SHADOW only for a signing client on the
// mirror's own address: the same mirror but another transport (the live exchange's URL, a
// client without a key) is not SHADOW, whatever --shadow asked.
func TestShadowModeComesFromTheTransport(t *testing.T) {
	_, url, _ := liveStandIn(t)
	c, err := Connect(context.Background(), options{Connection: headless.Connection{URL: url}, Shadow: true, ShadowBalance: "1"},
		&bytes.Buffer{}, KeyEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mirror := c.Client.BaseURL()
	signer, _ := api.NewRandomSigner()
	for _, tc := range []struct {
		what   string
		client *api.Client
		want   ui.Mode
	}{
		{"a signing client on the mirror", api.New(mirror, api.WithSigner(signer)), ui.ModeShadow},
		{"a signing client on the live exchange", api.New(url, api.WithSigner(signer)), ui.ModeReadOnly},
		{"a client without a key on the mirror", api.New(mirror, api.WithAddress(signer.Address())), ui.ModeReadOnly},
	} {
		if got := shadowMode(tc.client, mirror, c.Mirror); got != tc.want {
			t.Errorf("%s: mode %v, want %v", tc.what, got, tc.want)
		}
	}
	if got := shadowMode(api.New(mirror, api.WithSigner(signer)), mirror, nil); got != ui.ModeReadOnly {
		t.Errorf("no mirror wired in: mode %v, want read-only", got)
	}
}

// TestShadowKeepsItsFilesApartAndHoldsTheLiveSession: a shadow session started with a keystore
// journals under shadow-NAME (its journal, command history and exports are not the live
// session's), and holds a live executor on the live network's journal, signing with that key;
// without a key it holds none and says what to set.
func TestShadowKeepsItsFilesApartAndHoldsTheLiveSession(t *testing.T) {
	old := keyfile.Scrypt
	keyfile.Scrypt.N, keyfile.Scrypt.P = keystore.LightScryptN, keystore.LightScryptP
	t.Cleanup(func() { keyfile.Scrypt = old })
	t.Setenv("TRADEDESK_PRIVATE_KEY", "")
	t.Setenv("TRADEDESK_PASSPHRASE", "live pass")
	oldDir := pagedlist.ExportDir
	pagedlist.ExportDir = t.TempDir()
	t.Cleanup(func() { pagedlist.ExportDir = oldDir })
	liveExports := pagedlist.ExportDir
	_, url, sent := liveStandIn(t)
	key, _ := api.NewRandomSigner()
	file := filepath.Join(t.TempDir(), "live.json")
	if err := keyfile.Write(key, file, "live pass"); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	getenv := func(k string) string {
		return map[string]string{"XDG_STATE_HOME": state, "TRADEDESK_PASSPHRASE": "live pass"}[k]
	}
	c, err := Connect(context.Background(), options{Connection: headless.Connection{URL: url, Keystore: file}, Shadow: true, ShadowBalance: "10"},
		&bytes.Buffer{}, KeyEnv{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var settings ui.Config
	closeExec, err := OpenExecutor(&settings, c, getenv, risk.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeExec()
	closeLive, err := OpenShadowLive(&settings, c, getenv, risk.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeLive()
	lx := settings.Live.Exec
	if lx == nil || settings.Exec == nil || c.Client.Address() == key.Address() {
		t.Fatalf("the shadow session: paper %v, live %v, paper address %s", settings.Exec, lx, c.Client.Address())
	}
	paperJ, liveJ := settings.Exec.Journal().File(), lx.Journal().File()
	if paperJ == liveJ || !strings.Contains(filepath.Base(paperJ), "shadow-") || strings.Contains(filepath.Base(liveJ), "shadow-") ||
		!strings.Contains(strings.ToLower(filepath.Base(liveJ)), strings.ToLower(key.Address())) {
		t.Fatalf("journals: paper %s, live %s: want apart, the live one the key's on the live network", paperJ, liveJ)
	}
	if h := cmdline.NetworkHistoryPath("/h/history", c.Network); h == cmdline.NetworkHistoryPath("/h/history", c.LiveNetwork) {
		t.Fatalf("the command history of a shadow session is the live one's: %s", h)
	}
	if pagedlist.ExportDir == liveExports || filepath.Dir(pagedlist.ExportDir) != liveExports || filepath.Base(pagedlist.ExportDir) != c.Network {
		t.Fatalf("exports of the shadow session go to %s, the live ones to %s", pagedlist.ExportDir, liveExports)
	}
	if n := sent.Load(); n != 0 {
		t.Fatalf("opening the shadow's live session sent %d /exchange requests", n)
	}
	bare, err := Connect(context.Background(), options{Connection: headless.Connection{URL: url}, Shadow: true, ShadowBalance: "10"},
		&bytes.Buffer{}, KeyEnv{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	var none ui.Config
	if _, err := OpenShadowLive(&none, bare, getenv, risk.Limits{}); err != nil || none.Live.Exec != nil || !strings.Contains(none.Live.Missing, "--keystore") {
		t.Fatalf("a shadow session without a key: live %+v, %v", none.Live, err)
	}
}
