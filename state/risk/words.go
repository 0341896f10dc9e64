package risk

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// labels are the limits' short names on screen.
var labels = map[string]string{
	OrderNotional: "order notional", PositionNotional: "position", Leverage: "leverage", OpenOrders: "open orders",
	OrdersPerMinute: "orders/min", DailyLoss: "daily loss", DailyLossPct: "daily loss", Drawdown: "drawdown",
	DrawdownPct: "drawdown", LoosenDelay: "loosen delay",
}

// Label is the limit's short name ("daily loss", "position BTC-PERP").
func (u Use) Label() string {
	base, inst, per := cut(u.Name)
	l := labels[base]
	if l == "" {
		l = base
	}
	if per {
		l += " " + inst
	}
	return l
}

// Text is the limit's use against it ("120/500 USD 24%", "40k/100k USD", "3/30", "≤ 5000 USD
// each"), and a pending loosening ("; 1000 at 12:15 UTC").
func (u Use) Text() string {
	base, _, _ := cut(u.Name)
	lim := u.Limit
	var s string
	switch base {
	case LoosenDelay:
		s = (time.Duration(lim.IntPart()) * time.Second).String()
	case OrderNotional:
		s = "≤ " + compact(lim) + " USD each"
	case DailyLoss, Drawdown, PositionNotional:
		s = compact(u.Used) + "/" + compact(lim) + " USD"
		if lim.IsPositive() {
			pct := u.Used.Div(lim).Mul(hundred)
			if pct.LessThan(decimal.NewFromInt(10)) {
				s += " " + pct.Round(1).String() + "%" // 0.3%, not 0%: some of it is used
			} else {
				s += " " + pct.Round(0).String() + "%"
			}
		}
	case DailyLossPct, DrawdownPct:
		s = u.Used.Round(2).String() + "/" + lim.String() + "%"
	case Leverage:
		s = u.Used.Round(2).String() + "/" + lim.String() + "x"
	default:
		s = u.Used.String() + "/" + lim.String()
	}
	if lim.IsZero() && base != LoosenDelay {
		s = "none"
	}
	if !u.Measured && base != OrderNotional && base != LoosenDelay && !lim.IsZero() {
		s = "≤ " + lim.String()
	}
	if u.Pending != nil {
		p := "none"
		if u.Pending.IsPositive() {
			p = compact(*u.Pending)
		}
		s += "; pending " + p + " at " + u.PendingAt.UTC().Format("15:04") + " UTC"
	}
	return s
}

// compact is an amount in few characters: 950.5, 40k, 1.25M.
func compact(d decimal.Decimal) string {
	a := d.Abs()
	switch {
	case a.GreaterThanOrEqual(decimal.NewFromInt(1_000_000)):
		return d.Div(decimal.NewFromInt(1_000_000)).Round(2).String() + "M"
	case a.GreaterThanOrEqual(decimal.NewFromInt(10_000)):
		return d.Div(decimal.NewFromInt(1000)).Round(1).String() + "k"
	}
	return d.Round(2).String()
}

// Line is the report in one line: the state, why, and each limit's use ("ACTIVE · daily loss
// 120/500 USD 24% · orders/min 3/30").
func (r Report) Line() string {
	parts := []string{string(r.State)}
	if r.Why != "" {
		parts[0] += " (" + r.Why + ")"
	}
	for _, u := range r.Limits {
		parts = append(parts, u.Label()+" "+u.Text())
	}
	if len(r.Limits) == 0 {
		parts = append(parts, "no limits set ([risk] in the config)")
	}
	return strings.Join(parts, " · ")
}

// ParseLimit reads a limit as the trader types it (`:risk max_daily_loss 300`, `:risk
// max_daily_loss 2%`, `:risk max_order_notional.BTC-PERP 5000`, `:risk loosen_delay 30m`): its
// name in the engine and its value, or what to fix.
func ParseLimit(name, value string) (string, decimal.Decimal, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if base, inst, per := strings.Cut(name, "."); per {
		name = base + "." + strings.ToUpper(inst)
	}
	value = strings.TrimSpace(value)
	if name == "loosen_delay" || name == LoosenDelay {
		d, err := time.ParseDuration(value)
		if err != nil || d < 0 {
			return "", decimal.Zero, fmt.Errorf("loosen_delay %s: want a duration such as 15m", value)
		}
		return LoosenDelay, decimal.NewFromInt(int64(d / time.Second)), nil
	}
	if p, ok := strings.CutSuffix(value, "%"); ok {
		switch name {
		case DailyLoss:
			name = DailyLossPct
		case Drawdown:
			name = DrawdownPct
		default:
			return "", decimal.Zero, fmt.Errorf("%s %s: a percentage is for %s and %s only", name, value, DailyLoss, Drawdown)
		}
		value = strings.TrimSpace(p)
	}
	v, err := decimal.NewFromString(value)
	if err != nil {
		return "", decimal.Zero, fmt.Errorf("%s %s: want a number (0: no limit)", name, value)
	}
	if err := Check(name, v); err != nil {
		return "", decimal.Zero, err
	}
	return name, v, nil
}

// SetLimit asks for one limit (a `:risk` command), the others as asked before: a tightening
// applies at once, a loosening after the delay (pending until then). It lasts while the engine
// does: the config's value is asked for again at the next start. It says whether the limit is
// in force, or when it will be.
func (e *Engine) SetLimit(ctx context.Context, name string, v decimal.Decimal) (bool, time.Time, error) {
	if err := Check(name, v); err != nil {
		return false, time.Time{}, err
	}
	e.mu.Lock()
	want := Limits{}
	for k, x := range e.want {
		want[k] = x
	}
	e.mu.Unlock()
	want[name] = v
	if err := e.SetLimits(ctx, want); err != nil {
		return false, time.Time{}, err
	}
	_, pending, err := e.Limits(ctx)
	if p, ok := pending[name]; ok {
		return false, p.At, err
	}
	return true, time.Time{}, err
}
