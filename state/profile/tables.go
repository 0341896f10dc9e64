package profile

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// Depth is the [depth] table: the tape's large-print notional, and [depth.default_size], the
// order size the ladder's b and s put in the form per instrument (then Enter sends it through
// the usual checks and confirmation).
type Depth struct {
	LargeTrade  string            `toml:"large_trade"`
	DefaultSize map[string]string `toml:"default_size"`
}

// Settings are the default sizes by instrument (upper case) and the large-print notional (zero:
// the console's default).
func (d Depth) Settings() (map[string]string, decimal.Decimal, error) {
	large := decimal.Zero
	if d.LargeTrade != "" {
		v, err := decimal.NewFromString(d.LargeTrade)
		if err != nil || !v.IsPositive() {
			return nil, large, fmt.Errorf("config [depth] large_trade = %s: want a notional above zero such as \"50000\"", text.Quote(d.LargeTrade))
		}
		large = v
	}
	sizes := make(map[string]string, len(d.DefaultSize))
	for sym, size := range d.DefaultSize {
		v, err := decimal.NewFromString(size)
		if err != nil || !v.IsPositive() {
			return nil, large, fmt.Errorf("config [depth.default_size] %s = %s: want a size above zero such as \"0.01\"", text.Quote(sym), text.Quote(size))
		}
		sizes[strings.ToUpper(strings.TrimSpace(sym))] = v.String()
	}
	return sizes, large, nil
}

// Guard is the [guard] table: the fat-finger limits as decimal strings, and which orders ask for
// a confirmation (state.ConfirmPolicy). The console and the headless commands check orders
// against the same state.Guard it gives.
type Guard struct {
	MaxPriceDistance  string `toml:"max_price_distance"`
	MaxNotional       string `toml:"max_notional"`
	MaxMarketNotional string `toml:"max_market_notional"`
	Confirm           string `toml:"confirm"`
}

// Guard is state.DefaultGuard with the table's settings.
func (g Guard) Guard() (state.Guard, error) {
	out := state.DefaultGuard()
	policy, err := state.ParseConfirmPolicy(g.Confirm)
	if err != nil {
		return out, fmt.Errorf("config [guard] %w", err)
	}
	out.Confirm = policy
	for _, f := range []struct {
		name, val, example string
		dst                *decimal.Decimal
	}{
		// Each setting's example is of its own kind: a fraction of the mark, or USD.
		{"max_price_distance", g.MaxPriceDistance, "0.05 (5% from the mark)", &out.MaxPriceDistance},
		{"max_notional", g.MaxNotional, "250000 (USD)", &out.MaxNotional},
		{"max_market_notional", g.MaxMarketNotional, "100000 (USD)", &out.MaxMarketNotional},
	} {
		if f.val == "" {
			continue
		}
		d, err := decimal.NewFromString(f.val)
		if err != nil || d.IsNegative() {
			return out, fmt.Errorf("config [guard] %s = %s: want a non-negative number such as %s", f.name, text.Quote(f.val), f.example)
		}
		*f.dst = d
	}
	return out, nil
}
