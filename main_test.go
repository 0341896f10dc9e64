package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui/cli"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/headless"
)

func TestDefaultKeyMapBuildsWithoutConflicts(t *testing.T) {
	if _, err := buildKeyMap(nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range common.KeyActionNames() {
		if _, ok := defaultKeys[name]; !ok {
			t.Errorf("action %s has no default key", name)
		}
	}
}

func TestKeyOverrides(t *testing.T) {
	km, err := buildKeyMap(map[string][]string{"cancel": {"d"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := km.Cancel.Keys(); len(got) != 1 || got[0] != "d" {
		t.Errorf("cancel keys %v", got)
	}
	// The position keys are rebindable too (issue #35: flatten all's ctrl+x).
	if km, err := buildKeyMap(map[string][]string{"flatten": {"alt+x"}, "reverse": {"alt+r"}, "breakeven": {"alt+b"}}); err != nil ||
		km.Flatten.Keys()[0] != "alt+x" || km.Reverse.Keys()[0] != "alt+r" || km.Breakeven.Keys()[0] != "alt+b" {
		t.Errorf("the position keys rebound: %v", err)
	}
	for _, tc := range []struct {
		over map[string][]string
		want string
	}{
		{map[string][]string{"cancle": {"d"}}, `unknown action "cancle"`},
		{map[string][]string{"cancel": {}}, "cancel has no keys"},
		{map[string][]string{"help": {"tab"}}, `"tab" is bound to both`},
		{map[string][]string{"cancel_all": {"x"}}, `"x" is bound to both`},
		{map[string][]string{"complete": {"enter"}}, `"enter" is bound to both text_submit and complete`},
		{map[string][]string{"toggle_prev": {"m"}}, `"m" is bound to both toggle_prev and fill_mark`},
	} {
		_, err := buildKeyMap(tc.over)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.over, err, tc.want)
		}
	}
}

// TestFormerlyPaneLocalKeysInConfig: the keys that were pane-local variables (transfer, export,
// history filters, pane groups, chart, fill bell) are rebound by the config file's [keys] and seen
// by the conflict check.
func TestFormerlyPaneLocalKeysInConfig(t *testing.T) {
	km, err := buildKeyMap(map[string][]string{"transfer_max": {"ctrl+m"}, "export_csv": {"c"}, "chart_type": {"T"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := km.TransferMax.Keys(); len(got) != 1 || got[0] != "ctrl+m" {
		t.Errorf("transfer_max keys %v", got)
	}
	if got := km.ExportCSV.Help().Key; got != "c" {
		t.Errorf("export_csv help names %q", got)
	}
	for _, tc := range []struct {
		over map[string][]string
		want string
	}{
		{map[string][]string{"transfer_max": {"down"}}, `"down" is bound to both field_next and transfer_max`}, // the transfer form is a form
		{map[string][]string{"fill_bell": {"j"}}, `"j" is bound to both down and fill_bell`},                   // the fills pane is a list
		{map[string][]string{"export_json": {"B"}}, `"B" is bound to both fill_bell and export_json`},          // fills export
		{map[string][]string{"filter_state": {"q"}}, `"q" is bound to both quit and filter_state`},             // global keys
		{map[string][]string{"next_view": {"["}}, `"[" is bound to both prev_view and next_view`},              // one scope
		{map[string][]string{"withdraw": {"e"}, "export_csv": {"e"}}, ``},                                      // balances never export
	} {
		_, err := buildKeyMap(tc.over)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: keys in places that never meet: %v", tc.over, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: error %v, want %q", tc.over, err, tc.want)
		}
	}
}

func TestThemes(t *testing.T) {
	for _, n := range []string{"dark", "light", "colorblind", "colour-blind", ""} {
		th, err := buildTheme(n)
		if err != nil {
			t.Errorf("%q: %v", n, err)
		}
		if th.Buy == nil || th.Sell == nil {
			t.Errorf("%q has no buy/sell colours", n)
		}
	}
	if _, err := buildTheme("neon"); err == nil || !strings.Contains(err.Error(), "dark, light") {
		t.Errorf("unknown theme error %v", err)
	}
	cb, _ := buildTheme("colorblind")
	if cb.Buy != themes["colorblind"].Buy || cb.Buy == themes["dark"].Buy {
		t.Error("the colour-blind theme does not have its own buy colour")
	}
	t.Setenv("NO_COLOR", "1")
	if th, _ := buildTheme("dark"); !th.NoColor {
		t.Error("NO_COLOR is not honoured")
	}
}

func writeConfig(t *testing.T, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConfigFile(t *testing.T) {
	p := writeConfig(t, `
network = "testnet"
action_type = "name"
account = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
watchlist = ["BTC-PERP", "ETH-PERP"]
theme = "light"
fill_bell = false
[poll]
tickers = "2s"
[guard]
max_price_distance = "0.1"
[keys]
cancel = ["d"]
`, 0o600)
	var stderr bytes.Buffer
	cfg, err := loadConfig(p, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("warnings for a private config: %s", stderr.String())
	}
	if cfg.Network != "testnet" || len(cfg.Watchlist) != 2 || cfg.Keys["cancel"][0] != "d" {
		t.Errorf("config %+v", cfg)
	}
	iv, err := cfg.Poll.Intervals()
	if err != nil || iv.Tickers != 2*time.Second || iv.Orders != profile.DefaultIntervals().Orders {
		t.Errorf("intervals %+v, %v", iv, err)
	}
	g, err := cfg.Guard.Guard()
	if err != nil || g.MaxPriceDistance.String() != "0.1" {
		t.Errorf("guard %+v, %v", g, err)
	}
	uc, err := consoleSettings(options{Theme: "dark"}, cfg)
	if err != nil || !uc.NoFillBell {
		t.Errorf("fill_bell = false did not quiet the bell: %+v, %v", uc.NoFillBell, err)
	}
	var o options
	mergeFlags(&o, cfg)
	if o.Network != "testnet" || o.Address == "" || o.Theme != "light" || o.ActionType != "name" {
		t.Errorf("merged options %+v", o)
	}
	o = options{Connection: headless.Connection{ActionType: "number"}}
	mergeFlags(&o, cfg)
	if o.ActionType != "number" {
		t.Error("an --action-type flag did not win over the config's action_type")
	}
	o = options{Connection: headless.Connection{URL: "http://127.0.0.1:1/"}}
	mergeFlags(&o, cfg)
	if o.Network != "" {
		t.Error("a --url flag did not win over the config's network")
	}
}

func TestConfigRefusesKeysAndTypos(t *testing.T) {
	for body, want := range map[string]string{
		`private_key = "0xabc"`:                              "never holds a key",
		"keystore = \"a.json\"\nagent_keystore = \"b.json\"": "both set",
		"[wallet]\nsecret = \"x\"":                           "never holds a key",
		`netwrok = "mainnet"`:                                `unknown setting "netwrok"`,
		"[poll]\ntickers = \"fast\"":                         "want a duration",
		"[poll]\ntickers = \"1ms\"":                          "too fast",
		"[guard]\nmax_notional = \"-1\"":                     "non-negative",
		`watchlist = "BTC"`:                                  "config",
		// #24: the list of settings is complete, and each setting's example is its own.
		`fill_bel = true`:                     "fill_bell, stream, on_alert, alert_webhook, [poll], [guard], [keys], [depth], [[alert]]",
		"[guard]\nmax_notional = \"abc\"":     "such as 250000 (USD)",
		"[guard]\nmax_price_distance = \"x\"": "such as 0.05 (5% from the mark)",
	} {
		p := writeConfig(t, body, 0o600)
		cfg, err := loadConfig(p, &bytes.Buffer{})
		if err == nil {
			_, err = cfg.Poll.Intervals()
		}
		if err == nil {
			_, err = cfg.Guard.Guard()
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "0xabc") {
			t.Errorf("the error repeats the key: %v", err)
		}
	}
}

func TestConfigReadableByOthersWarns(t *testing.T) {
	p := writeConfig(t, `theme = "dark"`, 0o644)
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if _, err := loadConfig(p, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "readable by other users") {
		t.Errorf("no warning: %q", stderr.String())
	}
}

func TestMissingDefaultConfigIsFine(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if _, err := loadConfig("", &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if _, err := loadConfig(filepath.Join(t.TempDir(), "nope.toml"), &bytes.Buffer{}); err == nil {
		t.Error("an explicit --config that does not exist is not an error")
	}
}

func TestHelpListsEveryFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--help"}, &stdout, &stderr); code != 0 {
		t.Fatalf("--help exit %d", code)
	}
	for _, f := range []string{"--url", "--network", "--keystore", "--address", "--config", "--insecure", "--theme", "--log", "--profile", "--cpuprofile", "--stats", "--no-stream", "--seed", "sim", "cancel-all", "Exit status"} {
		if !strings.Contains(stdout.String(), f) {
			t.Errorf("--help lacks %s", f)
		}
	}
}

func TestCommandLineMistakes(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"--nope"}, {"sim", "--faults", "lots"}, {"--address", "0x1"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		if stderr.Len() == 0 {
			t.Errorf("%v: no message", args)
		}
	}
}

// TestFlagValueMistakesAreUsageErrors (QA item 12): a console flag whose value is wrong (--theme
// pink, --network moon) or an account flag without an exchange is a usage error, exit 2 as the
// exit table says, with a line saying what to fix; before they exited 1 ("refused"). Guards the
// console's errors all mapped to 1.
func TestFlagValueMistakesAreUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for args, says := range map[string]string{
		"--theme pink":   "use one of colorblind, dark, light",
		"--network moon": "want mainnet or testnet",
		"--address 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23": "add --network mainnet|testnet or --url URL",
	} {
		var stdout, stderr bytes.Buffer
		if code := run(strings.Fields(args), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), says) {
			t.Errorf("%s: exit %d, stderr %q (want 2, %q)", args, code, stderr.String(), says)
		}
	}
}

func TestSimSubcommandServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- sim.RunCommand(ctx, []string{"--listen", "127.0.0.1:0", "--seed", "3"}, w, &stderr)
		w.Close()
	}()
	// It says where it serves once it listens; a request there is answered; a cancel stops it.
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(line, "tradedesk sim: serving ")
	if err != nil || !ok {
		cancel()
		t.Fatalf("first line %q (%v), exit %d: %s", line, err, <-done, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }() // nothing more is written; never block the sim on it
	url = strings.Fields(url)[0]
	resp, err := http.Post(url+"info", "application/json", strings.NewReader(`{"method":"mids","params":{"symbol":"BTC-PERP"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("POST %sinfo: status %d", url, resp.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the sim did not stop within 20 s of the cancel")
	}
}

// TestNothingMainWritesHoldsTheKey runs tradedesk's entry point with a known key in the
// environment and the key pasted into every wrong place (config values of each kind, flags) and
// scans everything written to stdout and stderr for it.
func TestNothingMainWritesHoldsTheKey(t *testing.T) {
	const keyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	stateDir := t.TempDir() // the journal's files are written there and scanned below
	t.Setenv("XDG_STATE_HOME", stateDir)
	t.Setenv("TRADEDESK_PRIVATE_KEY", "0x"+keyHex)
	t.Setenv("TRADEDESK_PASSPHRASE", keyHex)
	configs := []string{
		`network = 0x` + keyHex,
		`network = "` + keyHex + `"`,
		`account = "0x` + keyHex + `"`,
		`keystore = "` + keyHex + `"`,
		`url = "http://127.0.0.1:1/` + keyHex + `"`,
		`private_key = "` + keyHex + `"`,
		"[keys]\nquit = [\"" + keyHex + "\"]",
		`theme = "` + keyHex + `"`,
		"watchlist = [\"BTC-PERP\"]\n" + keyHex,
	}
	var runs [][]string
	for _, body := range configs {
		p := writeConfig(t, body, 0o644)
		runs = append(runs, []string{"account", "--config", p}, []string{"--config", p})
	}
	runs = append(runs,
		[]string{"account", "--url", srv.URL},
		[]string{"order", "--url", srv.URL, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.001", "--market"},
		[]string{"orders", "--url", srv.URL, "--json"},
		[]string{"account", "--url", srv.URL, "--address", "0x" + keyHex},
		[]string{"--url", srv.URL, "--address", "0x" + keyHex},
		[]string{"--network", keyHex},
		[]string{"--theme", keyHex},
		[]string{"--keystore", keyHex, "--url", srv.URL},
		[]string{"account", "--keystore", keyHex, "--url", srv.URL},
		[]string{keyHex},
		[]string{"--" + keyHex},
	)
	for _, args := range runs {
		t.Setenv("TRADEDESK_PRIVATE_KEY", "0x"+keyHex) // run takes them out of the environment
		t.Setenv("TRADEDESK_PASSPHRASE", keyHex)
		var out, errb bytes.Buffer
		run(args, &out, &errb)
		for name, text := range map[string]string{"stdout": out.String(), "stderr": errb.String()} {
			lower := strings.ToLower(text)
			for i := 0; i+16 <= len(keyHex); i++ {
				if strings.Contains(lower, keyHex[i:i+16]) {
					t.Errorf("tradedesk %s: %s holds the key:\n%s", strings.Join(args, " "), name, text)
					break
				}
			}
		}
	}
	journals, _ := filepath.Glob(filepath.Join(stateDir, "tradedesk", "journal", "*"))
	if len(journals) == 0 {
		t.Fatal("the order wrote no journal")
	}
	for _, f := range journals {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lower := strings.ToLower(string(b))
		for i := 0; i+16 <= len(keyHex); i++ {
			if strings.Contains(lower, keyHex[i:i+16]) {
				t.Fatalf("the journal file %s holds the key", filepath.Base(f))
			}
		}
	}
}

// TestPastedKeyInConsoleFlags pastes a key that is not in the environment (so the known-secret
// redaction cannot help) into each of the console's flags that takes an address, a URL, a file
// or a name: nothing main writes holds 16 of its digits in a row. Guards the messages that name a
// malformed value (text.Quote) and the key-shaped runs hidden on stderr.
func TestPastedKeyInConsoleFlags(t *testing.T) {
	const pasted = "b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291"
	srv := httptest.NewServer(fundedSim(t))
	defer srv.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("TRADEDESK_PRIVATE_KEY", "")
	t.Setenv("TRADEDESK_PASSPHRASE", "pass")
	t.Chdir(t.TempDir())
	var runs [][]string
	for _, v := range []string{pasted, "0x" + pasted, pasted[:40], "0x" + pasted[:38]} {
		runs = append(runs,
			[]string{"--url", v}, []string{"--url", "http://" + v + "/"}, []string{"--url", "https://example.com/" + v},
			[]string{"--url", srv.URL, "--address", v}, []string{"--network", v}, []string{"--theme", v},
			[]string{"--url", srv.URL, "--keystore", v}, []string{"--config", v}, []string{"--seed", v},
			[]string{v}, []string{"--url", srv.URL, v})
	}
	for _, args := range runs {
		var out, errb bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- run(args, &out, &errb) }()
		select {
		case code := <-done:
			if code == 0 {
				t.Errorf("tradedesk %s: exit 0", strings.Join(args, " "))
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("tradedesk %s did not end", strings.Join(args, " "))
		}
		all := strings.ToLower(out.String() + errb.String())
		for i := 0; i+16 <= len(pasted); i++ {
			if strings.Contains(all, pasted[i:i+16]) {
				t.Errorf("tradedesk %s: the output holds the key:\n%s", strings.Join(args, " "), all)
				break
			}
		}
	}
}

// TestHostileServerThroughMain: headless commands run through main against a server that puts
// control sequences into every name and error write none of them to stdout or stderr.
func TestHostileServerThroughMain(t *testing.T) {
	srv := httptest.NewServer(sim.Hostile(fundedSim(t), sim.HostilePayload))
	defer srv.Close()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("TRADEDESK_PRIVATE_KEY", "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	for _, args := range [][]string{
		{"tickers", "--url", srv.URL}, {"instruments", "--url", srv.URL}, {"collateral", "--url", srv.URL},
		{"account", "--url", srv.URL}, {"orders", "--url", srv.URL, "--json"},
		{"order", "--url", srv.URL, "--instrument", "1", "--side", "buy", "--size", "0.01", "--price", "90000", "--yes"},
		{"cancel-all", "--url", srv.URL, "--yes"},
	} {
		t.Setenv("TRADEDESK_PRIVATE_KEY", "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318") // run takes it out
		var out, errb bytes.Buffer
		run(args, &out, &errb)
		for name, s := range map[string]string{"stdout": out.String(), "stderr": errb.String()} {
			for _, r := range s {
				if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
					t.Errorf("tradedesk %s: %s holds control %U:\n%q", strings.Join(args, " "), name, r, s)
					break
				}
			}
		}
	}
}

// fundedSim is a simulator that knows the fixed test key's account (the simulator acts only for
// accounts it knows).
func fundedSim(t *testing.T) *sim.Sim {
	t.Helper()
	s := sim.New(sim.WithSeed(5))
	signer, err := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConfigDepth: [depth] sets the tape's large-print notional and the ladder's default order
// size per instrument; a size that is not a positive number is refused with its name.
func TestConfigDepth(t *testing.T) {
	p := writeConfig(t, `
[depth]
large_trade = "250000"
[depth.default_size]
"btc-perp" = "0.010"
ETH-PERP = "0.5"
`, 0o600)
	cfg, err := loadConfig(p, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	uc, err := consoleSettings(options{Theme: "dark"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if uc.LargeTrade.String() != "250000" || uc.DefaultSizes["BTC-PERP"] != "0.01" || uc.DefaultSizes["ETH-PERP"] != "0.5" {
		t.Errorf("depth settings: large %s, sizes %v", uc.LargeTrade, uc.DefaultSizes)
	}
	cfg.Depth.DefaultSize["SOL-PERP"] = "-1"
	if _, err := consoleSettings(options{Theme: "dark"}, cfg); err == nil || !strings.Contains(err.Error(), "SOL-PERP") {
		t.Errorf("a negative default size was taken: %v", err)
	}
}

// TestCompletionScriptsPassMainsWriters: the completion scripts and the completion answers
// (name, tab, description) come through main's sanitising writers byte for byte: the writers
// keep tabs and newlines, and the scripts hold no other control character.
func TestCompletionScriptsPassMainsWriters(t *testing.T) {
	for _, args := range [][]string{{"completion", "bash"}, {"completion", "zsh"}, {"completion", "fish"}, {"__complete", "export", ""}} {
		var viaMain, stderr, raw bytes.Buffer
		if code := run(args, &viaMain, &stderr); code != 0 {
			t.Fatalf("%v: exit %d %q", args, code, stderr.String())
		}
		cli.Run(context.Background(), args, cli.Program{Stdout: &raw, Stderr: io.Discard})
		if viaMain.String() != raw.String() || raw.Len() == 0 {
			t.Errorf("%v: main wrote %d bytes, cobra %d: they differ", args, viaMain.Len(), raw.Len())
		}
	}
}
