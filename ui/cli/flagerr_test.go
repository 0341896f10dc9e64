package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// typedForms are the flag value types whose parse errors are rewritten, and what each message
// says to give.
var typedForms = map[string]string{
	"duration": "not a duration; give one like 30s, 5m or 1h",
	"bool":     "not true or false; give the flag alone for true, or --",
	"int":      "not a whole number; give one like 10",
	"int64":    "not a whole number; give one like 10",
	"uint64":   "not a whole number of 0 or more; give one like 10",
}

// TestBadFlagValuesSayWhatToGive runs every command of the tree (the console, the headless
// commands, sim) with each of its duration, number and true/false flags given a value that does
// not parse: each is a usage error (exit 2) whose message names the flag, echoes the value through
// the sanitiser (an escape sequence shown, not sent; a key cut to its ends) and says what form to
// give, with the range the help gives where it gives one; never Go's parse wording. Guards a new
// flag of another type left with the raw message (its type is not in typedForms: the test fails).
func TestBadFlagValuesSayWhatToGive(t *testing.T) {
	t.Parallel()
	simCmd := sim.NewCommand(nil, nil)
	root := NewRoot(&Program{Sim: Sim{Flags: simCmd.Flags, Run: simCmd.Run}, Env: headless.Env{}})
	root.InitDefaultCompletionCmd()
	ranges := map[string]string{"expiry-window": "(1s to 24h)", "markets": "(0 to 2000)", "every": "(at least 200ms)", "scale count": "(1 to 100)"}
	bad := "so\x1b[31mon"
	seen, n := map[string]bool{}, 0
	for _, path := range allCommands() {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			form, typed := typedForms[f.Value.Type()]
			if !typed {
				return
			}
			seen[f.Value.Type()] = true
			n++
			value := bad
			if f.Name == "markets" && len(path) == 0 {
				value = testKey // a key pasted in the wrong place is not repeated
			}
			line := append(append([]string(nil), path...), "--"+f.Name+"="+value)
			r := runLine(t, headless.Env{}, line...)
			want := "--" + f.Name + " " + text.Quote(value) + ": " + form
			if r.code != headless.ExitUsage || !strings.Contains(r.errOut, want) || strings.Contains(r.errOut, "invalid argument") ||
				strings.ContainsRune(r.errOut, 0x1b) || strings.Contains(r.errOut, testKey[8:]) {
				t.Errorf("tradedesk %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(line, " "), r.code, r.errOut, want)
			}
			rg := ranges[f.Name]
			if f.Name == "count" {
				rg = ranges[strings.Join(path, " ")+" count"]
			}
			if rg != "" && (len(path) == 0 || f.Name != "markets") && !strings.Contains(r.errOut, want+" "+rg) {
				t.Errorf("tradedesk %s: stderr %q does not give the range %s", strings.Join(line, " "), r.errOut, rg)
			}
		})
	}
	t.Logf("%d flags of %d commands given a bad value", n, len(allCommands()))
	if len(seen) != len(typedForms) {
		t.Errorf("flag types met %v: want each of %v (a type no flag has any more: drop it here)", seen, typedForms)
	}
	r := runLine(t, headless.Env{}, "sim", "--markets=99999999999999999999")
	if !strings.Contains(r.errOut, `": out of range; give one like 10`) {
		t.Errorf("an overflowing number: stderr %q, want it called out of range", r.errOut)
	}
}
