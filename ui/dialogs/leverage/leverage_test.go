package leverage

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
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
