package leverage

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestRefusalSaysWhy: a read-only console, an agent key and a spot or unknown instrument are each
// refused in words; a perpetual on a console holding the account's key is not.
func TestRefusalSaysWhy(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := state.New(func() time.Time { return now })
	var ins api.Instruments
	ins.Perps = append(ins.Perps, api.PerpInstrument{ID: 1, Name: "BTC-PERP", TickSize: decimal.RequireFromString("0.1"),
		LotSize: decimal.RequireFromString("0.001")})
	ins.Spot = append(ins.Spot, api.SpotInstrument{ID: 2, Name: "BTC/USDC", TickSize: decimal.RequireFromString("0.1"),
		LotSize: decimal.RequireFromString("0.001")})
	s.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: ins})
	if why := Refusal(s, "", false, "BTC-PERP"); why != "" {
		t.Fatalf("a perpetual with the account's key: %q", why)
	}
	for _, c := range []struct {
		readOnly string
		agent    bool
		symbol   string
		want     string
	}{
		{"watching 0x…", false, "BTC-PERP", "read-only"},
		{"", true, "BTC-PERP", "an agent key"},
		{"", false, "BTC/USDC", "no leverage to set"},
		{"", false, "NOPE-PERP", "no leverage to set"},
	} {
		if why := Refusal(s, c.readOnly, c.agent, c.symbol); !strings.Contains(why, c.want) {
			t.Errorf("%+v: %q, want it to say %q", c, why, c.want)
		}
	}
}

// An untouched dialog shows the leverage in force with a hint, not an error; the note that the
// value is the leverage in force already shows once the trader types it or presses Enter, and
// Enter sends nothing. Guards a dialog that opens on an error the trader did not make (#13 QA).
func TestUntouchedDialogShowsNoError(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := state.New(func() time.Time { return now })
	var ins api.Instruments
	ins.Perps = append(ins.Perps, api.PerpInstrument{ID: 1, Name: "BTC-PERP", TickSize: decimal.RequireFromString("0.1"),
		LotSize: decimal.RequireFromString("0.001"), MaxLeverage: decimal.NewFromInt(50)})
	s.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: ins})
	c := commontest.NewCommon(t, s, func() time.Time { return now })
	d := New(c.Styles, c.Keys, s, "BTC-PERP", 80)
	if v := d.View(); strings.Contains(v, "!") || !strings.Contains(v, "type a new leverage, 1x to 50x") {
		t.Fatalf("the untouched dialog:\n%s", v)
	}
	if cmd := d.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil {
		t.Fatalf("Enter on the leverage in force answered %#v", cmd())
	}
	if v := d.View(); !strings.Contains(v, "! that is the leverage in force already") {
		t.Errorf("after Enter the dialog does not say why nothing was sent:\n%s", v)
	}
	d = New(c.Styles, c.Keys, s, "BTC-PERP", 80)
	d.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(d.Change().Current.String()[len(d.Change().Current.String())-1:])})
	if v := d.View(); !strings.Contains(v, "! that is the leverage in force already") {
		t.Errorf("typing the leverage in force again shows no note:\n%s", v)
	}
}

// TestReboundDialogKeysAreNamed (issue #33, 5): with confirm on ctrl+y and dismiss on ctrl+g the
// dialog's last line names them. It fails if it spells out Enter and Esc again.
func TestReboundDialogKeysAreNamed(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := state.New(func() time.Time { return now })
	s.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001"), MaxLeverage: decimal.NewFromInt(50)}}}})
	c := commontest.NewCommon(t, s, func() time.Time { return now })
	keys := commontest.Rebound(t, map[string][]string{"confirm": {"ctrl+y"}, "dismiss": {"ctrl+g"}})
	d := New(c.Styles, &keys, s, "BTC-PERP", 80)
	if v := d.View(); !strings.Contains(v, "ctrl+y to set · ctrl+g to go back") || strings.Contains(v, "Enter") {
		t.Errorf("the dialog does not name the bound keys:\n%s", v)
	}
}
