package profile

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/risk"
)

// Num is a number in the config written bare (20, 2.5) or quoted ("500", "2%").
type Num string

// UnmarshalTOML takes an integer, a float or a string.
func (n *Num) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		*n = Num(strconv.FormatInt(x, 10))
	case float64:
		*n = Num(strconv.FormatFloat(x, 'f', -1, 64))
	case string:
		*n = Num(x)
	default:
		return fmt.Errorf("want a number such as 500 or \"2%%\", not %v", v)
	}
	return nil
}

// RiskInstrument is a [risk.instrument."SYM"] table: that instrument's own caps.
type RiskInstrument struct {
	MaxOrderNotional    Num `toml:"max_order_notional"`
	MaxPositionNotional Num `toml:"max_position_notional"`
}

// Risk is the [risk] table: the trader's own hard limits (state/risk), which no flag or
// confirmation overrides. max_daily_loss and max_drawdown are USD, or a percentage ("2%": of
// the day's starting equity, of the equity at the high-water mark). loosen_delay is how long a
// loosened limit waits before it applies ("15m" when unset).
type Risk struct {
	MaxOrderNotional    Num                       `toml:"max_order_notional"`
	MaxPositionNotional Num                       `toml:"max_position_notional"`
	MaxLeverage         Num                       `toml:"max_leverage"`
	MaxOpenOrders       Num                       `toml:"max_open_orders"`
	MaxOrdersPerMinute  Num                       `toml:"max_orders_per_minute"`
	MaxDailyLoss        Num                       `toml:"max_daily_loss"`
	MaxDrawdown         Num                       `toml:"max_drawdown"`
	LoosenDelay         string                    `toml:"loosen_delay"`
	Instrument          map[string]RiskInstrument `toml:"instrument"`
}

// Limits are the table's limits by name (risk.Limits); a bad value says what to fix.
func (r Risk) Limits() (risk.Limits, error) {
	out := risk.Limits{}
	put := func(name string, v Num, pct string) error {
		s := strings.TrimSpace(string(v))
		if s == "" {
			return nil
		}
		if p, ok := strings.CutSuffix(s, "%"); ok && pct != "" {
			name, s = pct, strings.TrimSpace(p)
		}
		d, err := decimal.NewFromString(s)
		if err == nil {
			err = risk.Check(name, d)
		}
		if err != nil {
			return fmt.Errorf("config [risk] %s = %s: %v", name, text.Quote(string(v)), err)
		}
		out[name] = d
		return nil
	}
	for _, f := range []struct {
		name, pct string
		v         Num
	}{
		{risk.OrderNotional, "", r.MaxOrderNotional}, {risk.PositionNotional, "", r.MaxPositionNotional},
		{risk.Leverage, "", r.MaxLeverage}, {risk.OpenOrders, "", r.MaxOpenOrders}, {risk.OrdersPerMinute, "", r.MaxOrdersPerMinute},
		{risk.DailyLoss, risk.DailyLossPct, r.MaxDailyLoss}, {risk.Drawdown, risk.DrawdownPct, r.MaxDrawdown},
	} {
		if err := put(f.name, f.v, f.pct); err != nil {
			return nil, err
		}
	}
	for sym, in := range r.Instrument {
		sym = strings.ToUpper(strings.TrimSpace(sym))
		if err := put(risk.OrderNotional+"."+sym, in.MaxOrderNotional, ""); err != nil {
			return nil, err
		}
		if err := put(risk.PositionNotional+"."+sym, in.MaxPositionNotional, ""); err != nil {
			return nil, err
		}
	}
	if r.LoosenDelay != "" {
		d, err := time.ParseDuration(r.LoosenDelay)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("config [risk] loosen_delay = %s: want a duration such as \"15m\"", text.Quote(r.LoosenDelay))
		}
		out[risk.LoosenDelay] = decimal.NewFromInt(int64(d / time.Second))
	}
	return out, nil
}
