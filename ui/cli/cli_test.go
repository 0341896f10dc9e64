package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// testKey is a fixed test key (never a real one).
const testKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

// allCommands are every command of the tree that a user may run, root first, each as its words.
func allCommands() [][]string {
	simCmd := sim.NewCommand(nil, nil)
	root := NewRoot(&Program{Sim: Sim{Flags: simCmd.Flags, Run: simCmd.Run}, Env: headless.Env{}})
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	var out [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Hidden || c.Name() == "help" && len(path) > 0 {
			return
		}
		out = append(out, path)
		for _, s := range c.Commands() {
			walk(s, append(slices.Clone(path), s.Name()))
		}
	}
	walk(root, nil)
	return out
}

// listedFlags reads the long flags a help text lists under its two flag headings.
func listedFlags(help string) []string {
	var names []string
	for _, heading := range []string{"\nFlags:\n", "\nConnection, account and output flags:\n"} {
		_, flags, ok := strings.Cut(help, heading)
		if !ok {
			continue
		}
		if i := strings.Index(flags, "\n\n"); i >= 0 {
			flags = flags[:i]
		}
		for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(flags, -1) {
			names = append(names, m[1])
		}
	}
	return names
}

// flagValue is a value each listed flag's type accepts (nil: a switch that takes none).
func flagValue(t *testing.T, root *cobra.Command, path []string, name string) []string {
	t.Helper()
	if name == "help" || name == "version" {
		return nil // cobra's own switches, added as a command runs
	}
	cmd, _, err := root.Find(path)
	if err != nil {
		t.Fatal(err)
	}
	f := cmd.Flags().Lookup(name)
	if f == nil {
		f = cmd.InheritedFlags().Lookup(name)
	}
	if f == nil {
		t.Fatalf("%v: --%s is listed but not defined", path, name)
	}
	if f.NoOptDefVal != "" {
		return nil
	}
	switch {
	case name == "fund":
		return []string{"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"}
	case strings.Contains(f.Value.Type(), "int"), f.Value.Type() == "ID":
		return []string{"1"}
	case f.Value.Type() == "duration":
		return []string{"1s"}
	}
	return []string{"x"}
}

// TestEveryHelpListsExactlyTheFlagsItTakes runs every command's --help, then gives it each flag
// its help lists (accepted: --help after it exits 0) and each flag any other command takes that
// its help does not list (refused: an unknown flag, exit 2). Guards a shared flag declared on a
// command that refuses it, or taken but not shown.
func TestEveryHelpListsExactlyTheFlagsItTakes(t *testing.T) {
	t.Parallel() // in process, beside the tests that wait on the simulator
	cmds := allCommands()
	env := headless.Env{StateDir: t.TempDir()}
	simCmd := sim.NewCommand(nil, nil)
	root := NewRoot(&Program{Sim: Sim{Flags: simCmd.Flags, Run: simCmd.Run}, Env: env})
	root.InitDefaultCompletionCmd()
	listed := map[string][]string{}
	every := map[string][]string{} // flag: a command that lists it
	for _, path := range cmds {
		r := runLine(t, env, append(slices.Clone(path), "--help")...)
		if r.code != 0 || !strings.Contains(r.out, "Usage:") || r.console != nil {
			t.Fatalf("%v --help: exit %d, %q %q", path, r.code, r.out, r.errOut)
		}
		names := listedFlags(r.out)
		if !slices.Contains(names, "help") {
			t.Errorf("%v --help lists no --help: %q", path, names)
		}
		listed[strings.Join(path, " ")] = names
		for _, n := range names {
			every[n] = path
		}
	}
	if len(cmds) < 25 {
		t.Fatalf("only %d commands", len(cmds))
	}
	for _, path := range cmds {
		key := strings.Join(path, " ")
		lines := map[string][]string{} // flag: the command line that gives it
		for name := range every {
			args := append(slices.Clone(path), "--"+name)
			of := every[name] // a value of the flag's type on the command under test, when it has it
			if slices.Contains(listed[key], name) {
				of = path
			}
			lines[name] = append(append(args, flagValue(t, root, of, name)...), "--help")
		}
		t.Run(key, func(t *testing.T) {
			t.Parallel() // each command's lines run through a tree of its own
			tree := newLines(t, env)
			for name, args := range lines {
				r := tree.run(args...)
				switch {
				case slices.Contains(listed[key], name) && r.code != 0:
					t.Errorf("tradedesk %s lists --%s but refuses it: exit %d %q", key, name, r.code, r.errOut)
				case !slices.Contains(listed[key], name) && (r.code != headless.ExitUsage || !strings.Contains(r.errOut, "unknown flag: --"+name)):
					t.Errorf("tradedesk %s takes --%s without listing it: exit %d %q", key, name, r.code, r.errOut)
				}
			}
		})
	}
	// The issue's own cases: flags that do not apply are not there.
	for cmd, absent := range map[string][]string{
		"transfer": {"address", "slippage", "agent-keystore"}, "cancel-all": {"slippage", "address"}, "export": {"json", "slippage"},
		"tickers": {"keystore", "address"}, "version": {"url"}, "sim": {"url", "json"}, "completion bash": {"url"},
	} {
		for _, f := range absent {
			if slices.Contains(listed[cmd], f) {
				t.Errorf("%s lists --%s", cmd, f)
			}
		}
	}
	for cmd, present := range map[string][]string{
		"order": {"slippage", "json", "keystore", "agent-keystore", "account", "url", "config"}, "account": {"address", "user", "json"},
		"": {"url", "network", "keystore", "seed", "empty", "no-stream", "theme", "version"}, "sim": {"listen", "fund", "faults"},
	} {
		for _, f := range present {
			if !slices.Contains(listed[cmd], f) {
				t.Errorf("%q does not list --%s: %v", cmd, f, listed[cmd])
			}
		}
	}
}

// TestConsoleFlagsKeepWorking: no command opens the console with its flags, Go-style single-dash
// flags included; a stray word is an unknown command, exit 2.
func TestConsoleFlagsKeepWorking(t *testing.T) {
	t.Parallel()
	r := runLine(t, headless.Env{})
	if r.code != 0 || r.console == nil {
		t.Fatalf("no arguments: exit %d, console %v", r.code, r.console)
	}
	r = runLine(t, headless.Env{}, "--no-stream", "--seed", "7", "-theme", "light", "--url=http://127.0.0.1:1/", "-stats")
	if c := r.console; r.code != 0 || c == nil || !c.NoStream || c.Seed != 7 || c.Theme != "light" || c.URL != "http://127.0.0.1:1/" || !c.Stats {
		t.Fatalf("console flags: exit %d %q, %+v", r.code, r.errOut, r.console)
	}
	r = runLine(t, headless.Env{}, "--empty")
	if r.code != 0 || !r.console.Empty {
		t.Fatalf("--empty: %+v", r.console)
	}
	r = runLine(t, headless.Env{}, "--agent-keystore", "a.json", "--account", "0xabc", "--address", "0xdef")
	if r.code != 0 || r.console.AgentKeystore != "a.json" || r.console.Address != "0xdef" {
		t.Fatalf("account flags: %+v", r.console)
	}
	for _, f := range []string{"--account", "--address"} { // the read-only reason names the flag typed
		if r = runLine(t, headless.Env{}, f, "0xabc"); r.code != 0 || r.console.AddressFlag != f {
			t.Fatalf("%s: AddressFlag %q", f, r.console.AddressFlag)
		}
	}
	r = runLine(t, headless.Env{}, "frobnicate")
	if r.code != headless.ExitUsage || r.console != nil || !strings.Contains(r.errOut, `unknown command "frobnicate"`) || strings.Count(r.errOut, "\n") != 1 {
		t.Fatalf("unknown command: exit %d %q", r.code, r.errOut)
	}
}

// harness is a simulator on loopback with the test key funded.
type harness struct {
	t   *testing.T
	sim *sim.Sim
	srv *httptest.Server
	env headless.Env
	// faultOnExchange, when set, switches the simulator's faults to it at the next /exchange
	// request (after the reads an order needs).
	faultOnExchange atomic.Pointer[sim.Faults]
	bid             string // restingBid, once read
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	s := sim.New(sim.WithSeed(5))
	signer, err := api.SignerFromHex(testKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, sim: s}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := h.faultOnExchange.Load(); f != nil && r.URL.Path == "/exchange" && h.faultOnExchange.CompareAndSwap(f, nil) {
			if err := s.SetFaults(*f); err != nil {
				t.Error(err)
			}
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(h.srv.Close)
	h.env = headless.Env{Getenv: func(k string) string {
		if k == api.EnvPrivateKey {
			return "0x" + testKey
		}
		return ""
	}}
	return h
}

func (h *harness) run(args ...string) result {
	h.t.Helper()
	return runLine(h.t, h.env, append(args, "--url", h.srv.URL)...)
}

// restingBid is a buy price well under BTC-PERP's mid, on its tick.
func (h *harness) restingBid() string {
	h.t.Helper()
	r := h.run("tickers", "--json")
	var ts []api.Ticker
	if err := json.Unmarshal([]byte(r.out), &ts); err != nil {
		h.t.Fatalf("tickers: %v %q", err, r.errOut)
	}
	for _, x := range ts {
		if x.Symbol == "BTC-PERP" {
			return x.MidPrice.Mul(decimal.RequireFromString("0.9")).Truncate(0).String()
		}
	}
	h.t.Fatal("no BTC-PERP")
	return ""
}

// outcomeOf reads the outcome word of a --json output.
func outcomeOf(t *testing.T, out string) (string, int) {
	t.Helper()
	var j struct {
		Outcome  string `json:"outcome"`
		ExitCode int    `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	return j.Outcome, j.ExitCode
}

// TestExitCodesAgainstTheSimulator: each row of the exit table, made to happen against the
// simulator on loopback, with --json carrying the same outcome word. The two rows that wait (a
// lost answer looked up until the lookups give up, a stopped exchange's retries) run beside the
// others, each on a simulator of its own.
func TestExitCodesAgainstTheSimulator(t *testing.T) {
	t.Parallel() // waits on the wall clock (a lost answer's lookups, retries) while the others run
	t.Run("unknown", func(t *testing.T) {
		t.Parallel()
		// Sent, outcome unknown: the simulator acts on the order and drops the answer, and every
		// request after it too, so the lookup by cloid fails.
		h := newHarness(t)
		lost := "1f8fad5b-d9cb-469f-a165-70867728950e"
		h.faultOnExchange.Store(&sim.Faults{Lost: 1})
		// The lookups fail whatever their pace (every answer is dropped): the first pause 25 ms,
		// not exec's 250 ms, and the four tries take 0.4 s, not 3.75 s.
		h.env.LookupWait = 25 * time.Millisecond
		r := h.run(h.order(lost, "--json")...)
		checkExit(t, "unknown", r, headless.ExitUnknown, "unknown", "sent, outcome unknown")
		if err := h.sim.SetFaults(sim.Faults{}); err != nil {
			t.Fatal(err)
		}
		if r := h.run("orders", "--json"); !strings.Contains(r.out, lost) {
			t.Errorf("the order whose answer was lost is not on the exchange: %s", r.out)
		}
	})
	t.Run("unavailable", func(t *testing.T) {
		t.Parallel()
		// Unavailable: the exchange stopped.
		h := newHarness(t)
		order := h.order("2f8fad5b-d9cb-469f-a165-70867728950e") // its price read while the exchange answers
		h.srv.Close()
		r := h.run("positions", "--json")
		checkExit(t, "unavailable", r, headless.ExitUnavailable, "unavailable", "connection refused")
		r = h.run(order...)
		if r.code != headless.ExitUnavailable {
			t.Errorf("order to a stopped exchange: exit %d %q", r.code, r.errOut)
		}
	})
	h := newHarness(t)
	r := h.run(h.order("0b5e0c3e-6f3c-4c59-9d7c-1f7a3c8e2b11", "--json")...)
	checkExit(t, "ok", r, headless.ExitOK, "ok", "")

	// Refused before signing: the fat-finger guard (a price a tenth of the mark) without --yes.
	r = h.run("order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--price", "1000", "--json")
	checkExit(t, "refused", r, headless.ExitRefused, "refused", "nothing sent")

	// Refused by the exchange: the simulator refuses a cloid an open order already uses (no
	// local check knows the exchange's open orders' cloids).
	r = h.run(h.order("0b5e0c3e-6f3c-4c59-9d7c-1f7a3c8e2b11", "--json")...)
	checkExit(t, "rejected", r, headless.ExitRejected, "rejected", "already used")

	// A usage error: an unknown flag (refused by the parser), and a missing value (by the command).
	r = h.run("order", "--colour", "red", "--json")
	checkExit(t, "unknown flag", r, headless.ExitUsage, "usage", "unknown flag: --colour")
	r = h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--json")
	checkExit(t, "usage", r, headless.ExitUsage, "usage", "give --price PX")
}

// order is the command line of a buy of 0.01 BTC-PERP resting under the market (restingBid)
// with client id cloid.
func (h *harness) order(cloid string, extra ...string) []string {
	h.t.Helper()
	if h.bid == "" {
		h.bid = h.restingBid()
	}
	return append([]string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.bid, "--cloid", cloid}, extra...)
}

// checkExit fails the test unless r exited with code, its stderr holding says and its --json
// outcome word being word.
func checkExit(t *testing.T, name string, r result, code int, word, says string) {
	t.Helper()
	if r.code != code || !strings.Contains(r.errOut, says) {
		t.Errorf("%s: exit %d (want %d), stderr %q (want %q)", name, r.code, code, r.errOut, says)
	}
	if got, _ := outcomeOf(t, r.out); got != word {
		t.Errorf("%s: --json outcome %q, want %q", name, got, word)
	}
}

// TestCompletionScripts generates the completion script for bash, zsh and fish, and completes
// --instrument from the exchange, then, once it is stopped, from the list cached in the state
// directory.
func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	for shell, want := range map[string]string{
		"bash": "# bash completion V2 for tradedesk", "zsh": "#compdef tradedesk", "fish": "complete -c tradedesk",
	} {
		r := runLine(t, headless.Env{}, "completion", shell)
		if r.code != 0 || !strings.Contains(r.out, want) || !strings.Contains(r.out, "__complete") {
			t.Errorf("completion %s: exit %d, %q...", shell, r.code, r.out[:min(len(r.out), 200)])
		}
	}
	h := newHarness(t)
	h.env.StateDir = t.TempDir()
	complete := func() []string {
		r := runLine(t, h.env, "__complete", "order", "--url", h.srv.URL, "--instrument", "")
		if r.code != 0 {
			t.Fatalf("__complete: exit %d %q", r.code, r.errOut)
		}
		lines := strings.Split(strings.TrimSpace(r.out), "\n")
		return lines[:len(lines)-1] // the last line is the directive
	}
	fresh := complete()
	if !slices.Contains(fresh, "BTC-PERP") || !slices.Contains(fresh, "ETH-PERP") {
		t.Fatalf("instruments from the exchange: %q", fresh)
	}
	if b, err := os.ReadFile(filepath.Join(h.env.StateDir, "instruments")); err != nil || !strings.Contains(string(b), "BTC-PERP\n") {
		t.Fatalf("not cached: %q %v", b, err)
	}
	h.srv.Close()
	if cached := complete(); !slices.Equal(cached, fresh) {
		t.Fatalf("from the cache: %q, want %q", cached, fresh)
	}
	r := runLine(t, headless.Env{}, "__complete", "order", "--side", "")
	if !strings.Contains(r.out, "buy\n") || !strings.Contains(r.out, "sell\n") {
		t.Errorf("--side: %q", r.out)
	}
	r = runLine(t, headless.Env{}, "__complete", "export", "")
	if !strings.Contains(r.out, "fills\t") || !strings.Contains(r.out, "history\t") {
		t.Errorf("export: %q", r.out)
	}
}

// TestHelpCommand: tradedesk help CMD is CMD --help.
func TestHelpCommand(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"order"}, {"agent", "add"}, {"sim"}, {"completion", "fish"}} {
		help := runLine(t, headless.Env{}, append([]string{"help"}, cmd...)...)
		flag := runLine(t, headless.Env{}, append(slices.Clone(cmd), "--help")...)
		if help.code != 0 || help.out != flag.out || !strings.Contains(help.out, "tradedesk "+strings.Join(cmd, " ")) {
			t.Errorf("help %v: exit %d\n%s\nwant\n%s", cmd, help.code, help.out, flag.out)
		}
	}
}

// TestHelpOfNoCommandIsAUsageError (QA item 12): `tradedesk help orderz` names no command: exit 2
// with a line saying so (and what it resembles), not the root's help with 0; `help agent nope`
// too. Guards the help command falling back to the root's help.
func TestHelpOfNoCommandIsAUsageError(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help", "orderz"}, {"help", "agent", "nope"}} {
		r := runLine(t, headless.Env{}, args...)
		if r.code != headless.ExitUsage || r.out != "" || !strings.Contains(r.errOut, "unknown command") || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.out, r.errOut)
		}
	}
	if r := runLine(t, headless.Env{}, "help", "orderz"); !strings.Contains(r.errOut, "did you mean order") {
		t.Errorf("help orderz offers nothing: %q", r.errOut)
	}
}

// TestEveryHelpPointsToTheExitTable (QA item 12): the README says every command exits by one
// table; every command's --help ends with the statuses in one line and where the table is, and
// `tradedesk help exit-codes` prints the table, each code with its outcome word. Guards a command
// whose help drops the pointer, and the topic going missing.
func TestEveryHelpPointsToTheExitTable(t *testing.T) {
	t.Parallel()
	for _, path := range allCommands() {
		if len(path) == 0 {
			continue // the root's help holds the table itself (TestHelpListsEveryFlag in main)
		}
		r := runLine(t, headless.Env{}, append(slices.Clone(path), "--help")...)
		if r.code != 0 || !strings.Contains(r.out, exitPointer) {
			t.Errorf("%v --help: exit %d, no exit status line:\n%s", path, r.code, r.out)
		}
	}
	r := runLine(t, headless.Env{}, "help", "exit-codes")
	for _, row := range headless.ExitTable() {
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^\s+%d\s+%s\s`, row.Code, row.Outcome)).MatchString(r.out) {
			t.Errorf("help exit-codes lacks %d %s:\n%s", row.Code, row.Outcome, r.out)
		}
	}
	if r.code != 0 {
		t.Errorf("help exit-codes: exit %d", r.code)
	}
}

// TestManPage: the man page comes from the same definitions as the help.
func TestManPage(t *testing.T) {
	t.Parallel()
	r := runLine(t, headless.Env{}, "man", "order")
	if r.code != 0 || !strings.Contains(r.out, ".TH \"TRADEDESK\"") || !strings.Contains(r.out, "slippage") || !strings.Contains(r.out, "instrument") {
		t.Fatalf("man order: exit %d %q", r.code, r.out[:min(len(r.out), 300)])
	}
	dir := t.TempDir()
	if r := runLine(t, headless.Env{}, "man", "--dir", dir); r.code != 0 {
		t.Fatalf("man --dir: %d %q", r.code, r.errOut)
	}
	for _, page := range []string{"tradedesk.1", "tradedesk-order.1", "tradedesk-agent-add.1", "tradedesk-sim.1"} {
		if _, err := os.Stat(filepath.Join(dir, page)); err != nil {
			t.Error(err)
		}
	}
	root, _ := os.ReadFile(filepath.Join(dir, "tradedesk.1"))
	if !strings.Contains(string(root), "unavailable") {
		t.Error("the root page lacks the exit table")
	}
}

// TestSimServesThroughTheTree: tradedesk sim, its Go-declared flags adopted by the tree (one dash
// or two), serves the simulator until its context ends, then exits 0.
func TestSimServesThroughTheTree(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	var errb bytes.Buffer
	simCmd := sim.NewCommand(w, &errb)
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"sim", "-listen", "127.0.0.1:0", "--seed", "4"}, Program{Stdout: w, Stderr: &errb,
			Sim: Sim{Flags: simCmd.Flags, Help: sim.CommandHelp, Run: simCmd.Run}})
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(line, "tradedesk sim: serving ")
	if err != nil || !ok || !strings.Contains(url, "(seed 4)") {
		cancel()
		t.Fatalf("first line %q (%v), exit %d: %s", line, err, <-done, errb.String())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	resp, err := http.Post(strings.Fields(url)[0]+"info", "application/json", strings.NewReader(`{"method":"mids","params":{"symbol":"BTC-PERP"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d", resp.StatusCode)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}
