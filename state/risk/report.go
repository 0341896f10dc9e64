package risk

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Use is one limit with what the account uses of it.
type Use struct {
	Name  string          `json:"name"`
	Limit decimal.Decimal `json:"limit"`
	// Used is what is used of it; Measured says it is measured at all (a per-order cap is not:
	// each order is checked against it alone).
	Used     decimal.Decimal `json:"used"`
	Measured bool            `json:"measured"`
	// Pending is a loosening waiting for its delay, and when it applies.
	Pending   *decimal.Decimal `json:"pending,omitempty"`
	PendingAt *time.Time       `json:"pending_at,omitempty"`
}

// Report is the state, why, and each limit's use: what `tradedesk risk --json` prints and the
// console shows.
type Report struct {
	State  State  `json:"state"`
	Why    string `json:"why,omitempty"`
	Day    string `json:"day"`
	Limits []Use  `json:"limits"`
}

// Report reads the account (src may be nil: then no use is measured), updates the day's marks
// and the state, and says each limit's use.
func (e *Engine) Report(ctx context.Context, src Source) (Report, error) {
	var acct *Account
	if src != nil {
		a, err := src.Account(ctx)
		if err != nil {
			return Report{}, fmt.Errorf("the account: %w", err)
		}
		acct = &a
	}
	return e.report(ctx, acct)
}

// Observe is Report on an account already read (the console's, as its data arrives): a loss
// limit the account reaches trips REDUCING here, with no order needed to find it.
func (e *Engine) Observe(ctx context.Context, acct Account) (Report, error) {
	return e.report(ctx, &acct)
}

func (e *Engine) report(ctx context.Context, acct *Account) (Report, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return Report{}, err
	}
	if err := e.apply(ctx, e.want); err != nil {
		return Report{}, err
	}
	if acct != nil {
		if err := e.observe(ctx, *acct); err != nil {
			return Report{}, err
		}
	}
	s, why := e.state()
	r := Report{State: s, Why: why, Day: e.rec.Day, Limits: []Use{}}
	names := map[string]bool{}
	for _, k := range e.rec.Limits.Names() {
		names[k] = true
	}
	for k := range e.rec.Pending {
		names[k] = true
	}
	for _, k := range Limits(boolKeys(names)).Names() {
		u := Use{Name: k, Limit: e.rec.Limits[k]}
		if acct != nil {
			u.Used, u.Measured = e.used(k, *acct)
		}
		if p, ok := e.rec.Pending[k]; ok {
			v, at := p.Value, p.At
			u.Pending, u.PendingAt = &v, &at
		}
		r.Limits = append(r.Limits, u)
	}
	return r, nil
}

// used is what acct uses of limit name, and whether it is measured at all.
func (e *Engine) used(name string, acct Account) (decimal.Decimal, bool) {
	total := acct.PnL.Add(acct.Upnl)
	base, inst, per := cut(name)
	switch base {
	case DailyLoss, DailyLossPct:
		loss := decimal.Max(decimal.Zero, e.rec.DayStartPnL.Sub(total))
		if base == DailyLossPct && e.rec.DayStartEquity.IsPositive() {
			return loss.Div(e.rec.DayStartEquity).Mul(hundred).Round(2), true
		}
		return loss, true
	case Drawdown, DrawdownPct:
		dd := decimal.Max(decimal.Zero, e.rec.HWM.Sub(total))
		if base == DrawdownPct && e.rec.HWMEquity.IsPositive() {
			return dd.Div(e.rec.HWMEquity).Mul(hundred).Round(2), true
		}
		return dd, true
	case OpenOrders:
		return decimal.NewFromInt(int64(acct.OpenOrders)), true
	case OrdersPerMinute:
		return e.spent(), true
	case PositionNotional:
		if per {
			return acct.Values[inst].Abs(), true
		}
		largest := decimal.Zero // the default cap: the largest position it covers
		for k, v := range acct.Values {
			if _, own := e.rec.Limits[PositionNotional+"."+k]; !own {
				largest = decimal.Max(largest, v.Abs())
			}
		}
		return largest, true
	case Leverage:
		gross := decimal.Zero
		for _, v := range acct.Values {
			gross = gross.Add(v.Abs())
		}
		if acct.Equity.IsPositive() {
			return gross.Div(acct.Equity).Round(2), true
		}
		return decimal.Zero, true
	}
	return decimal.Zero, false
}

// spent is how many orders the bucket counts in the last minute: its capacity less the tokens
// it holds now (refilled to now, nothing taken).
func (e *Engine) spent() decimal.Decimal {
	max := e.rec.Limits.Get(OrdersPerMinute)
	if !max.IsPositive() || e.filled.IsZero() {
		return decimal.Zero
	}
	capacity := max.InexactFloat64()
	tokens := min(e.tokens+e.now().Sub(e.filled).Minutes()*capacity, capacity)
	return decimal.NewFromFloat(capacity - tokens).Ceil()
}

// cut splits a per-instrument limit's name ("max_position_notional.BTC-PERP").
func cut(name string) (base, inst string, per bool) {
	base, inst, per = strings.Cut(name, ".")
	return base, inst, per
}

func boolKeys(m map[string]bool) Limits {
	out := Limits{}
	for k := range m {
		out[k] = decimal.Zero
	}
	return out
}
