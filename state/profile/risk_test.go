package profile

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/state/risk"
)

func TestTheRiskTableGivesTheLimits(t *testing.T) {
	f, err := loadText(t, `[risk]
max_order_notional = 50000
max_leverage = 3.5
max_open_orders = 20
max_orders_per_minute = 30
max_daily_loss = "2%"
max_drawdown = "1500"
loosen_delay = "30m"
[risk.instrument.btc-perp]
max_order_notional = "100000"
max_position_notional = 250000
`)
	if err != nil {
		t.Fatal(err)
	}
	l, err := f.Risk.Limits()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{risk.OrderNotional: "50000", risk.Leverage: "3.5", risk.OpenOrders: "20", risk.OrdersPerMinute: "30",
		risk.DailyLossPct: "2", risk.Drawdown: "1500", risk.LoosenDelay: "1800",
		risk.OrderNotional + ".BTC-PERP": "100000", risk.PositionNotional + ".BTC-PERP": "250000"}
	for k, v := range want {
		if got := l[k]; got.String() != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	if len(l) != len(want) {
		t.Errorf("limits: %v", l)
	}
	if !strings.Contains(Known(), "[risk]") {
		t.Errorf("Known: %s", Known())
	}
}

func TestABadRiskValueSaysWhatToFix(t *testing.T) {
	for body, want := range map[string]string{
		"[risk]\nmax_daily_loss = \"150%\"\n": "at most 100",
		"[risk]\nmax_open_orders = 2.5\n":     "whole number",
		"[risk]\nmax_leverage = \"lots\"\n":   "max_leverage",
		"[risk]\nloosen_delay = \"soon\"\n":   "15m",
		"[risk]\nmax_order_notional = -5\n":   "zero (no limit) or more",
		"[risk]\nmax_notional_total = 5\n":    "max_notional_total",
	} {
		if _, err := loadText(t, body); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}
