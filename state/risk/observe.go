package risk

import (
	"context"
	"fmt"

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
