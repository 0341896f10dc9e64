package alerts

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func newAlerts(t *testing.T, now *time.Time) (*Model, *journal.Journal, *int) {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	seed, _ := alert.Parse("btc-perp > 100000")
	keys := commontest.Keys(t)
	bells := 0
	clock := func() time.Time { return *now }
	m, err := New(Config{Store: state.New(clock), Journal: j, Seed: []alert.Rule{seed}, Clock: clock, Bell: func() { bells++ }},
		&keys, common.NewStyles(common.Theme{NoColor: true}))
	if err != nil {
		t.Fatal(err)
	}
	return m, j, &bells
}

func notices(cmd tea.Cmd) []string {
	if cmd == nil {
		return nil
	}
	var out []string
	var walk func(tea.Msg)
	walk = func(msg tea.Msg) {
		switch msg := msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				if c != nil {
					walk(c())
				}
			}
		case common.NoticesMsg:
			for _, n := range msg {
				out = append(out, n.Text)
			}
		case common.NoticeMsg:
			out = append(out, msg.Text)
		}
	}
	walk(cmd())
	return out
}

// TestABurstIsOneLineAndEveryAlertIsKept: two alerts in one check ring the bell once and reach
// the messages view each, with a last line "2 alerts: ..." for the status line; the journal
// records when each fired.
func TestABurstIsOneLineAndEveryAlertIsKept(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m, j, bells := newAlerts(t, &now)
	if got := notices(m.Add("btc-perp last > 100000")); len(got) != 1 || !strings.Contains(got[0], "set: BTC-PERP last > 100000") {
		t.Fatalf("%q", got)
	}
	apply := func(px string) []string {
		msg := state.TickerUpdateMsg{At: now, Ticker: api.Ticker{Symbol: "BTC-PERP", MarkPrice: decimal.RequireFromString(px),
			LastPrice: decimal.RequireFromString(px), LastUpdated: api.Time{Time: now}}}
		m.cfg.Store.Apply(msg)
		return notices(m.Check(alert.Link{ExchangeUp: true}, []state.Msg{msg}))
	}
	apply("99000")
	now = now.Add(time.Second)
	got := apply("100500")
	if len(got) != 3 || !strings.HasPrefix(got[2], "alert: 2 alerts: ") || *bells != 1 {
		t.Fatalf("notices %q, bells %d", got, *bells)
	}
	defs, _ := j.Alerts(t.Context())
	if len(defs) != 2 || !defs[0].LastFired.Equal(now) || !defs[1].LastFired.Equal(now) {
		t.Fatalf("%+v", defs)
	}
}

// press sends each key to the view ("enter", "esc", "backspace", or the runes typed).
func press(m *Model, names ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, n := range names {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(n)}
		switch n {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "backspace":
			msg = tea.KeyMsg{Type: tea.KeyBackspace}
		}
		cmd = m.Key(msg)
	}
	return cmd
}

// TestTheAlertsViewDeletesAndEdits (issue #37): the view lists each definition with its state
// (armed, cooling) and when it last fired; x deletes the selected one from the journal; a edits
// one in place: a rule that does not parse says why and stays open, Esc keeps the old rule, Enter
// replaces it.
func TestTheAlertsViewDeletesAndEdits(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m, j, _ := newAlerts(t, &now)
	m.Add("eth liq < 5%")
	m.Open()
	if v := m.View(100, 20); !strings.Contains(v, "BTC-PERP mark > 100000") || !strings.Contains(v, "ETH liq < 5%") || !strings.Contains(v, "never fired") {
		t.Fatalf("%s", v)
	}
	tick := func(px string) {
		msg := state.TickerUpdateMsg{At: now, Ticker: api.Ticker{Symbol: "BTC-PERP", MarkPrice: decimal.RequireFromString(px), LastUpdated: api.Time{Time: now}}}
		m.cfg.Store.Apply(msg)
		m.Check(alert.Link{ExchangeUp: true}, []state.Msg{msg})
	}
	tick("99000")
	if v := m.View(100, 20); !strings.Contains(v, "armed") {
		t.Fatalf("not armed:\n%s", v)
	}
	now = now.Add(time.Second)
	tick("100500")
	if v := m.View(100, 20); !strings.Contains(v, "cooling") || !strings.Contains(v, "fired "+now.Local().Format("01-02 15:04:05")) {
		t.Fatalf("fired: not cooling, or no time:\n%s", v)
	}
	press(m, "x")
	if defs, _ := j.Alerts(t.Context()); len(defs) != 1 || defs[0].Rule != "ETH liq < 5%" {
		t.Fatalf("after x: %+v", defs)
	}
	press(m, "a", "backspace", "backspace", "9", "esc")
	if defs, _ := j.Alerts(t.Context()); len(defs) != 1 || defs[0].Rule != "ETH liq < 5%" || !m.Active() {
		t.Fatalf("after an edit dismissed: %+v, view open %v", defs, m.Active())
	}
	press(m, "a", " loudly", "enter")
	if v := m.View(100, 20); !strings.Contains(v, "ETH liq < 5% loudly") || !strings.Contains(v, "! ") || !strings.Contains(v, "once, rearm") {
		t.Fatalf("a bad edit:\n%s", v)
	}
	press(m, "esc", "a", "backspace", "backspace", "9%", "enter")
	if defs, _ := j.Alerts(t.Context()); len(defs) != 1 || defs[0].Rule != "ETH liq < 9%" || !m.Active() {
		t.Fatalf("after the edit: %+v, view open %v", defs, m.Active())
	}
	if v := m.View(100, 20); !strings.Contains(v, "ETH liq < 9%") || strings.Contains(v, "ETH liq < 5%") {
		t.Fatalf("after the edit:\n%s", v)
	}
}
