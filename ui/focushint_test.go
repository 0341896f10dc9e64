package ui

import (
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestThePaneNumbersHintNamesTheBoundKeys (issue #33): the global hint of the pane numbers is
// "1-N" by default (N panes, at most 9) and names the first and last bound keys when focus_1 to
// focus_9 are rebound. It fails if the hint spells out "1-" whatever the binding.
func TestThePaneNumbersHintNamesTheBoundKeys(t *testing.T) {
	t.Parallel()
	hint := func(over map[string][]string) (string, int) {
		keys := map[string][]string{}
		for k, v := range testKeys {
			keys[k] = v
		}
		for k, v := range over {
			keys[k] = v
		}
		km, err := common.NewKeyMap(keys)
		if err != nil {
			t.Fatal(err)
		}
		m := New(Config{Exchange: api.New("http://127.0.0.1:1/"), Timers: feed.NewFakeClock(simStart), Keys: km, Theme: testTheme,
			Mode: ModeDemo, Network: "demo"})
		for _, b := range m.globalHelp() {
			if b.Help().Desc == "focus pane" {
				return b.Help().Key, min(len(m.slots), 9)
			}
		}
		t.Fatal("no focus pane hint")
		return "", 0
	}
	got, n := hint(nil)
	if want := "1-" + string(rune('0'+n)); got != want {
		t.Errorf("default hint %q, want %q", got, want)
	}
	over := map[string][]string{}
	for i := 1; i <= 9; i++ {
		over["focus_"+string(rune('0'+i))] = []string{"alt+" + string(rune('0'+i))}
	}
	if got, _ := hint(over); got != "alt+1-alt+"+string(rune('0'+n)) {
		t.Errorf("rebound hint %q, want alt+1-alt+%d", got, n)
	}
}
