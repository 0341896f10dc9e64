package risk

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

var hundred = decimal.NewFromInt(100)

// observe takes the account's day-start marks and high-water mark and trips REDUCING when a loss
// limit is reached; it saves the record when anything changed.
func (e *Engine) observe(ctx context.Context, acct Account) error {
	before := e.rec
	total := acct.PnL.Add(acct.Upnl)
	if e.rec.DayStartEquity.IsZero() && e.rec.DayStartPnL.IsZero() {
		e.rec.DayStartPnL, e.rec.DayStartEquity = total, acct.Equity
	}
	if !e.rec.HWMSet || total.GreaterThan(e.rec.HWM) {
		e.rec.HWMSet, e.rec.HWM, e.rec.HWMEquity = true, total, acct.Equity
	}
	if e.rec.Tripped == "" {
		e.rec.Tripped = e.tripped(total)
	}
	if e.rec.Tripped == before.Tripped && e.rec.HWM.Equal(before.HWM) && e.rec.DayStartPnL.Equal(before.DayStartPnL) &&
		e.rec.DayStartEquity.Equal(before.DayStartEquity) && e.rec.HWMSet == before.HWMSet {
		return nil
	}
	return e.save(ctx)
}

// tripped says which loss limit total (the cumulative PnL now) reaches, or "".
func (e *Engine) tripped(total decimal.Decimal) string {
	l := e.rec.Limits
	loss := e.rec.DayStartPnL.Sub(total)
	if max := l.Get(DailyLoss); max.IsPositive() && loss.GreaterThanOrEqual(max) {
		return fmt.Sprintf("the day's loss %s USD reached %s = %s USD", usd(loss), DailyLoss, usd(max))
	}
	if pct := l.Get(DailyLossPct); pct.IsPositive() && e.rec.DayStartEquity.IsPositive() {
		if max := e.rec.DayStartEquity.Mul(pct).Div(hundred); loss.GreaterThanOrEqual(max) {
			return fmt.Sprintf("the day's loss %s USD reached %s = %s%% (%s USD)", usd(loss), DailyLossPct, pct, usd(max))
		}
	}
	dd := e.rec.HWM.Sub(total)
	if max := l.Get(Drawdown); max.IsPositive() && dd.GreaterThanOrEqual(max) {
		return fmt.Sprintf("the drawdown %s USD from the high-water mark reached %s = %s USD", usd(dd), Drawdown, usd(max))
	}
	if pct := l.Get(DrawdownPct); pct.IsPositive() && e.rec.HWMEquity.IsPositive() {
		if max := e.rec.HWMEquity.Mul(pct).Div(hundred); dd.GreaterThanOrEqual(max) {
			return fmt.Sprintf("the drawdown %s USD reached %s = %s%% (%s USD)", usd(dd), DrawdownPct, pct, usd(max))
		}
	}
	return ""
}

// Use is one limit with what the account uses of it.
type Use struct {
	Name  string          `json:"name"`
	Limit decimal.Decimal `json:"limit"`
	// Used is what is used of it (zero where nothing is measured, as for a per-order cap).
	Used decimal.Decimal `json:"used"`
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
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return Report{}, err
	}
	if err := e.apply(ctx, e.want); err != nil {
		return Report{}, err
	}
	var acct *Account
	if src != nil {
		a, err := src.Account(ctx)
		if err != nil {
			return Report{}, fmt.Errorf("the account: %w", err)
		}
		if err := e.observe(ctx, a); err != nil {
			return Report{}, err
		}
		acct = &a
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
			u.Used = e.used(k, *acct)
		}
		if p, ok := e.rec.Pending[k]; ok {
			v, at := p.Value, p.At
			u.Pending, u.PendingAt = &v, &at
		}
		r.Limits = append(r.Limits, u)
	}
	return r, nil
}

// used is what acct uses of limit name.
func (e *Engine) used(name string, acct Account) decimal.Decimal {
	total := acct.PnL.Add(acct.Upnl)
	switch name {
	case DailyLoss, DailyLossPct:
		loss := decimal.Max(decimal.Zero, e.rec.DayStartPnL.Sub(total))
		if name == DailyLossPct && e.rec.DayStartEquity.IsPositive() {
			return loss.Div(e.rec.DayStartEquity).Mul(hundred).Round(2)
		}
		return loss
	case Drawdown, DrawdownPct:
		dd := decimal.Max(decimal.Zero, e.rec.HWM.Sub(total))
		if name == DrawdownPct && e.rec.HWMEquity.IsPositive() {
			return dd.Div(e.rec.HWMEquity).Mul(hundred).Round(2)
		}
		return dd
	case OpenOrders:
		return decimal.NewFromInt(int64(acct.OpenOrders))
	case Leverage:
		gross := decimal.Zero
		for _, v := range acct.Values {
			gross = gross.Add(v.Abs())
		}
		if acct.Equity.IsPositive() {
			return gross.Div(acct.Equity).Round(2)
		}
	}
	return decimal.Zero
}

func boolKeys(m map[string]bool) Limits {
	out := Limits{}
	for k := range m {
		out[k] = decimal.Zero
	}
	return out
}
