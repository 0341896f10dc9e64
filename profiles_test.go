package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/cli"
	"github.com/tradedesk/tradedesk/ui/headless"
	"github.com/tradedesk/tradedesk/ui/launch"
)

// profilesConfig is a config with two profiles: the top level's url answers nothing; profile a
// reads roAddr on url, profile b trades it there with its own keystore and a tight [guard].
func profilesConfig(t *testing.T, url string) string {
	old := keyfile.Scrypt
	keyfile.Scrypt.N, keyfile.Scrypt.P = keystore.LightScryptN, keystore.LightScryptP
	t.Cleanup(func() { keyfile.Scrypt = old })
	t.Setenv(api.EnvPassphrase, "b pass")
	signer, err := api.SignerFromHex(roKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "b.json")
	if err := keyfile.Write(signer, file, "b pass"); err != nil {
		t.Fatal(err)
	}
	return writeConfig(t, "url = \"http://127.0.0.1:1/\"\n"+
		"[profile.a]\nurl = \""+url+"\"\naccount = \""+roAddr+"\"\n"+
		"[profile.b]\nurl = \""+url+"\"\nkeystore = \""+file+"\"\n[profile.b.guard]\nmax_notional = \"100\"\n", 0o600)
}

// TestHeadlessOrderWithAProfile: `tradedesk order --profile b` connects to profile b's url with
// b's keystore and checks the order against b's [guard] (refused without --yes, sent with it),
// into b's own journal file; a read with --profile a shows a's account; an unknown profile is a
// usage error listing the known ones.
func TestHeadlessOrderWithAProfile(t *testing.T) {
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	cfg := profilesConfig(t, srv.URL)
	cmd := func(args ...string) (int, string, string) {
		t.Setenv(api.EnvPassphrase, "b pass") // run takes it out of the environment
		var out, errb bytes.Buffer
		code := run(append(args, "--config", cfg), &out, &errb)
		return code, out.String(), errb.String()
	}
	order := []string{"order", "--profile", "b", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market"}
	code, _, errs := cmd(order...)
	if code != headless.ExitRefused || !strings.Contains(errs, "nothing sent") || !strings.Contains(errs, "100") {
		t.Fatalf("profile b's guard: exit %d %q", code, errs)
	}
	if code, _, errs = cmd(append(order, "--yes")...); code != 0 {
		t.Fatalf("with --yes: exit %d %q", code, errs)
	}
	ps, err := api.New(srv.URL+"/", api.WithAddress(roAddr)).Positions(context.Background(), roAddr)
	if err != nil || len(ps) != 1 || ps[0].Size.String() != "0.01" {
		t.Fatalf("positions at profile b's url: %v %v", ps, err)
	}
	if got, _ := filepath.Glob(filepath.Join(state, "tradedesk", "journal", "*-"+strings.ToLower(roAddr)+"-b.db")); len(got) != 1 {
		entries, _ := filepath.Glob(filepath.Join(state, "tradedesk", "journal", "*"))
		t.Fatalf("profile b's journal: %v (have %v)", got, entries)
	}
	code, out, errs := cmd("positions", "--profile", "a")
	if code != 0 || !strings.Contains(out, "BTC-PERP") {
		t.Fatalf("positions --profile a (its account, read-only): exit %d %q %q", code, out, errs)
	}
	code, _, errs = cmd("order", "--profile", "c", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	if code != headless.ExitUsage || !strings.Contains(errs, `no profile "c"`) || !strings.Contains(errs, "known: a, b") {
		t.Fatalf("unknown profile: exit %d %q", code, errs)
	}
}

// TestConsoleWithAProfile: the console refuses an unknown profile before it opens the screen
// (exit 2, the known ones listed); one opened with --profile names it on the mode line and keeps
// its own command history.
func TestConsoleWithAProfile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := profilesConfig(t, "http://127.0.0.1:1/")
	var out, errb bytes.Buffer
	if code := run([]string{"--config", cfg, "--profile", "nope"}, &out, &errb); code != headless.ExitUsage || !strings.Contains(errb.String(), "known: a, b") {
		t.Fatalf("unknown profile: exit %d %q", code, errb.String())
	}
	file, err := loadConfig(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	file, err = file.Select("a")
	if err != nil {
		t.Fatal(err)
	}
	settings, err := consoleSettings(options{Connection: headless.Connection{Profile: "a"}, Theme: "dark"}, file)
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := consoleSettings(options{Theme: "dark"}, file); !strings.HasSuffix(settings.CommandHistory, "command_history.a") || plain.CommandHistory == settings.CommandHistory {
		t.Errorf("profile a's command history %q, without a profile %q", settings.CommandHistory, plain.CommandHistory)
	}
	conn, err := launch.StartDemo(context.Background(), launch.Demo{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	settings.Exchange, settings.Mode, settings.Network = conn.Client, conn.Mode, conn.Network
	var m tea.Model = ui.New(settings)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	top, _, _ := strings.Cut(m.View(), "\n")
	if !strings.Contains(top, "profile a") {
		t.Fatalf("the mode line does not name the profile: %q", top)
	}
}

// TestCPUProfileFlag: --cpuprofile FILE writes a CPU profile and the heap beside it.
func TestCPUProfileFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.out")
	var o options
	var out bytes.Buffer
	console := func(_ context.Context, got options) error { o = got; return nil }
	if code := cli.Run(context.Background(), []string{"--cpuprofile", path, "--profile", "b"}, cli.Program{Stdout: &out, Stderr: &out, Console: console}); code != 0 || o.CPUProfile != path || o.Profile != "b" {
		t.Fatalf("--cpuprofile: exit %d %q %+v", code, out.String(), o)
	}
	stop, err := startProfile(o.CPUProfile)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	for _, p := range []string{path, path + ".heap"} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", p, err)
		}
	}
}
