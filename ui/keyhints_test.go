package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestRootHintsNameTheBoundKeys (issue #33, 5): with next_pane, help, dismiss, quit and the
// chart's keys rebound, the help overlay's foot, the too-small screen and the chart's foot name
// the bound keys, not the defaults. It fails if one of them spells out a default key again.
func TestRootHintsNameTheBoundKeys(t *testing.T) {
	t.Parallel()
	keys := map[string][]string{}
	for k, v := range testKeys {
		keys[k] = v
	}
	for k, v := range map[string][]string{"next_pane": {"ctrl+n"}, "help": {"f1"}, "dismiss": {"ctrl+g"}, "quit": {"ctrl+q"},
		"chart_finer": {"<"}, "chart_coarser": {">"}, "chart_type": {"y"}} {
		keys[k] = v
	}
	km, err := common.NewKeyMap(keys)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Config{Exchange: api.New("http://127.0.0.1:1/"), Timers: feed.NewFakeClock(simStart),
		Keys: km, Theme: testTheme, Mode: ModeDemo, Network: "demo", Instrument: "BTC-PERP"})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	m.renderHelp()
	if v := ansi.Strip(m.helpBox.View()); !strings.Contains(v, "ctrl+n moves between panes; in a form, between fields (ctrl+g leaves it). f1 or ctrl+g closes.") {
		t.Errorf("the help's foot does not name the bound keys:\n%s", v)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "< > resolution · y type") {
		t.Errorf("the chart's foot does not name the bound keys:\n%s", v)
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	if v := ansi.Strip(m.View()); !strings.Contains(strings.Join(strings.Fields(v), " "), "press ctrl+q to quit") {
		t.Errorf("the too-small screen does not name the quit key:\n%s", v)
	}
}
