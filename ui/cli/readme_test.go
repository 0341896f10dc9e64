package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui/headless"
)

// readmeCommands are the tradedesk command lines the README writes (a backslash-continued line
// joined), each cut at the first shell or placeholder character (| & ; ( [ < > ` #).
func readmeCommands(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`\\\n\s*`).ReplaceAllString(string(b), " ")
	var out [][]string
	for _, m := range regexp.MustCompile("(?:^|[\\s`(/])tradedesk((?: +[^\\s|&;()<>\\[\\]`#]+)*)").FindAllStringSubmatch(text, -1) {
		out = append(out, strings.Fields(m[1]))
	}
	return out
}

// placeholder is the refusal of a synopsis's placeholder (ID, N) as a flag's value: cobra's for a
// value of tradedesk's own type, headless.Execute's for a number or a duration.
var placeholder = regexp.MustCompile(`invalid argument "[A-Z]+" for "--|--[a-z-]+ "[A-Z]+": not a`)

// TestReadmeCommandLinesParse: every tradedesk command line in the README names a command of the
// tree and only flags that command takes (run with --help after them: the flags are parsed, then
// nothing runs). Guards a README example that a change of flags broke.
func TestReadmeCommandLinesParse(t *testing.T) {
	t.Parallel()
	root := NewRoot(&Program{})
	root.InitDefaultCompletionCmd()
	n := 0
	for _, args := range readmeCommands(t) {
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			if c, _, err := root.Find(args[:1]); err != nil || c == root {
				continue // prose: "tradedesk COMMAND --help", "tradedesk · 0x0f42…"
			}
		}
		n++
		r := runLine(t, headless.Env{}, append(args, "--help")...)
		if r.code == headless.ExitUsage && placeholder.MatchString(r.errOut) {
			continue // the synopsis's --chain ID, --leverage N: a placeholder, not a value
		}
		if r.code != 0 {
			t.Errorf("README: tradedesk %s: exit %d %q", strings.Join(args, " "), r.code, r.errOut)
		}
	}
	if n < 20 {
		t.Fatalf("only %d command lines found in the README", n)
	}
	t.Logf("%d README command lines parse", n)
}
