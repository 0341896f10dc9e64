package cli

import (
	"testing"

	"github.com/tradedesk/tradedesk/ui/headless"
)

// TestOnlyTheCompletionRunRegistersCompletions: cobra keeps flag completions in a process-wide
// table that never lets go of a command tree, so a tree built for any run but the completion
// scripts' hidden command registers none (a test process running thousands of command lines
// kept every tree: 750 MB live in one test); the tree Run builds for __complete has them.
func TestOnlyTheCompletionRunRegistersCompletions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"order", "--help"}, false}, {[]string{"completion", "bash"}, false}, {[]string{"order", "__complete"}, false},
		{[]string{"__complete", "order", "--side", ""}, true}, {[]string{"__completeNoDesc", "order", ""}, true},
	} {
		if got := headless.Completing(c.args); got != c.want {
			t.Errorf("Completing(%q) = %v", c.args, got)
		}
		root := NewRoot(&Program{Env: headless.Env{Completion: c.want}})
		order, _, err := root.Find([]string{"order"})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []struct{ cmd, flag string }{{"", "theme"}, {"", "network"}, {"order", "side"}, {"order", "instrument"}, {"order", "network"}} {
			cmd := root
			if f.cmd == "order" {
				cmd = order
			}
			if _, ok := cmd.GetFlagCompletionFunc(f.flag); ok != c.want {
				t.Errorf("%q: %q --%s has a completion: %v, want %v", c.args, f.cmd, f.flag, ok, c.want)
			}
		}
	}
}
