package ui

import (
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/help"
)

// footerItems are the footer's keys, item by item ("S-↑/K S-↓/J move my order a tick" names four).
func footerItems(footer string) [][]string {
	var out [][]string
	for _, it := range strings.Split(strings.TrimRight(ansi.Strip(footer), " …"), " • ") {
		if f := strings.Fields(it); len(f) > 0 {
			out = append(out, help.Tokens(key.NewBinding(key.WithHelp(strings.SplitN(it, " ", 2)[0], ""))))
		}
	}
	return out
}

// checkNoKeyTwice fails when a key is named by two lines of one help.
func checkNoKeyTwice(t *testing.T, what string, items [][]string) {
	t.Helper()
	seen := map[string]bool{}
	for _, it := range items {
		for _, k := range it {
			if seen[k] {
				t.Errorf("%s names %q twice: %q", what, k, items)
				return
			}
			seen[k] = true
		}
	}
}

// TestNoHelpLineRepeatsAKey (QA 14): in every pane and every view of a group, at 80x24, each
// block of the `?` help's pane keys and the footer name each key once (the ladder listed "S-↑ S-↓ move my order a
// tick" and "S-↓ move my order a tick down", "+ - group levels" and "- group levels finer", the
// groups "[ ] switch view" and "] next view"; the footer in a field "Esc back • Esc leave field");
// the ladder's help names K and J; the command-line grammar is not broken mid-row at 80 columns.
func TestNoHelpLineRepeatsAKey(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	placeFixtureOrders(t, c.m.ex)
	pump(t, c.m, c.m.refreshNow(c.m.kinds...))
	check := func(what string) {
		for _, g := range c.m.paneHelp() {
			var items [][]string
			for _, b := range g {
				items = append(items, help.Tokens(b))
			}
			checkNoKeyTwice(t, what+" help block", items)
		}
		c.m.footerDirty = true
		checkNoKeyTwice(t, what+" footer", footerItems(c.m.footerView()))
	}
	for i, s := range c.m.slots {
		c.m.setFocus(i)
		panes := []common.Pane{s.pane}
		if g, ok := s.pane.(*common.Group); ok {
			panes = g.Panes()
		}
		for _, p := range panes {
			c.m.showPane(p)
			check(p.Title())
		}
	}

	c.key(t, "9")
	var names []string
	for _, g := range c.m.paneHelp() {
		for _, b := range g {
			names = append(names, b.Help().Key+" "+b.Help().Desc)
		}
	}
	all := strings.Join(names, "\n")
	for _, want := range []string{"S-↑/K S-↓/J move my order a tick", "+/= - group levels", "[ ] switch view"} {
		if !strings.Contains(all, want) {
			t.Errorf("the ladder's help lacks %q:\n%s", want, all)
		}
	}
	c.key(t, "?")
	for _, l := range strings.Split(ansi.Strip(c.m.helpBox.View()), "\n") {
		if strings.Contains(l, "sell 2 eth mkt · buy 500usd") && !strings.Contains(l, "buy 0.1 btc 97000") {
			t.Errorf("the grammar's example row is broken mid-row at 80 columns: %q", l)
		}
	}
	c.key(t, "esc")

	// A text field's footer: the amend row of Open orders says Esc once.
	for _, s := range c.m.slots {
		if p, ok := s.pane.(*orders.Pane); ok {
			c.m.showPane(p)
		}
	}
	c.key(t, "a")
	check("amend row")
}
