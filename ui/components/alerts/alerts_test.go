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
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
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

// TestTheAlertsViewDeletesAndEdits: x deletes the selected definition from the journal; a edits
// one (it goes, and the command line opens on its rule).
func TestTheAlertsViewDeletesAndEdits(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m, j, _ := newAlerts(t, &now)
	m.Add("eth liq < 5%")
	m.Open()
	if v := m.View(100, 20); !strings.Contains(v, "BTC-PERP mark > 100000") || !strings.Contains(v, "ETH liq < 5%") || !strings.Contains(v, "never fired") {
		t.Fatalf("%s", v)
	}
	m.Key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if defs, _ := j.Alerts(t.Context()); len(defs) != 1 || defs[0].Rule != "ETH liq < 5%" {
		t.Fatalf("after x: %+v", defs)
	}
	cmd := m.Key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
	if open, ok := cmd().(cmdline.OpenMsg); !ok || open.Line != "alert ETH liq < 5%" || m.Active() {
		t.Fatalf("edit: %#v, view open %v", cmd(), m.Active())
	}
	if defs, _ := j.Alerts(t.Context()); len(defs) != 0 {
		t.Fatalf("after edit: %+v", defs)
	}
}
