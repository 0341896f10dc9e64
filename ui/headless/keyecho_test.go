package headless

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api"
)

// pastedKey is a throwaway key a trader pastes into the wrong flag (not the harness's key, so
// the check does not lean on the environment key's own redaction).
const pastedKey = "b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291"

// baseArgs make each command valid, so that a pasted key meets the checks of the flag it is in.
var baseArgs = map[string][]string{
	"order":          {"--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", "90000", "--dry-run"},
	"cancel":         {"--instrument", "BTC-PERP", "--cloid", "0b5e0c3e-6f3c-4c59-9d7c-1f7a3c8e2b11"},
	"transfer":       {"--collateral", "USDC", "--amount", "1", "--to-derivatives"},
	"withdraw":       {"--collateral", "USDC", "--amount", "1", "--chain", "1"},
	"export":         {"fills"},
	"agent add":      {"--name", "desk"},
	"agent revoke":   {},
	"agent list":     {},
	"leverage":       {"--instrument", "BTC-PERP", "--leverage", "5", "--dry-run"},
	"broker approve": {"--broker", "0x9908658A316D743159F001026F1ef08aa8F0b55B", "--max-fee-rate", "0.001"},
	"broker revoke":  {"--broker", "0x9908658A316D743159F001026F1ef08aa8F0b55B"},
}

// keyParts reports the first 16-digit run of key found in out (any case), or "".
func keyParts(out, key string) string {
	lo := strings.ToLower(out)
	for i := 0; i+16 <= len(key); i++ {
		if strings.Contains(lo, key[i:i+16]) {
			return key[i : i+16]
		}
	}
	return ""
}

// TestPastedKeyNeverEchoed pastes a private key into every flag that takes a value (addresses,
// cloids, URLs, amounts, prices and the rest), bare and with 0x, for every command, and as the
// command name and a positional argument: no output, stdout or stderr, holds 16 digits of it
// in a row, nor does the passphrase prompt. Guards every message that repeats a malformed value.
func TestPastedKeyNeverEchoed(t *testing.T) {
	// --output and --keystore name files after the key, in the working directory: the test runs
	// in a child process whose working directory is its own, beside the parallel tests.
	if !inOwnDir(t) {
		return
	}
	h := newHarness(t)
	run := func(args []string, withURL bool, stateDir string) string {
		var out, errb, prompts bytes.Buffer
		if withURL {
			args = append(args, "--url", h.srv.URL)
		}
		env := func(k string) string {
			if k == api.EnvPrivateKey && slices.Contains(args, "--keystore") {
				return "" // the keystore is used, and its passphrase asked for
			}
			return h.env[k]
		}
		Run(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Getenv: env, StateDir: stateDir,
			Passphrase: func(p string) (string, error) { prompts.WriteString(p); return "x", nil }})
		return out.String() + errb.String() + prompts.String()
	}
	check := func(args []string, withURL bool, stateDir string) {
		t.Helper()
		if part := keyParts(run(args, withURL, stateDir), pastedKey); part != "" {
			t.Errorf("tradedesk %s: the output holds %s of the key", strings.Join(args, " "), part)
		}
	}
	// Each form of the key runs on its own goroutine, its command lines one after another: the
	// files named after it (--output, --out) and its journal are its own, and the forms share
	// both cores. The plain run puts every form into every flag. Under -race (raceBuild), where
	// the command lines are the package's largest share of the CPU, the forms take the flags in
	// turn (keyCase): every flag of every command, and every command's key as a flag's name,
	// still gets a key, in one form instead of all six.
	forms := []string{pastedKey, "0x" + pastedKey, "0X" + strings.ToUpper(pastedKey), pastedKey[:50], pastedKey[:40], "0x" + pastedKey[:38]}
	var wg sync.WaitGroup
	for form, v := range forms {
		wg.Add(1)
		dir := t.TempDir()
		check := func(args []string, withURL bool) { check(args, withURL, dir) }
		go func() {
			defer wg.Done()
			check([]string{v}, true)
			check([]string{"export", v}, true)
			n := 0 // the command lines this form would run, counted for keyCase
			for _, cmd := range leafCommands(NewCommands(Env{})) {
				name := strings.TrimPrefix(cmd.CommandPath(), "tradedesk ")
				var flags []string
				cmd.Flags().VisitAll(func(f *pflag.Flag) {
					if f.NoOptDefVal == "" { // takes a value
						flags = append(flags, f.Name)
					}
				})
				for _, fl := range append(flags, "") { // "": the key as a flag's name
					n++
					if !keyCase(n, form, len(forms)) {
						continue
					}
					if fl == "" {
						check(append(strings.Fields(name), "--"+v), true)
						continue
					}
					args := append(append(strings.Fields(name), baseArgs[name]...), "--"+fl, v)
					check(args, fl != "url")
					check(append(slices.Clone(args), "--json"), fl != "url")
				}
			}
		}()
	}
	wg.Wait()
}

// keyCase says whether form (of forms) of the key runs its nth command line: every one in the
// plain run; under -race, one form in turn for each line, so each line runs once.
func keyCase(n, form, forms int) bool { return !raceBuild || n%forms == form }

// leafCommands are the commands that run (agent add, not agent), each in a tree of its own.
func leafCommands(cmds []*cobra.Command) []*cobra.Command {
	root := &cobra.Command{Use: "tradedesk"}
	root.AddCommand(cmds...)
	var out []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.HasSubCommands() {
			out = append(out, c)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	for _, c := range root.Commands() {
		walk(c)
	}
	return out
}
