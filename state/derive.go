package state

import (
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

var (
	hundred = decimal.NewFromInt(100)
	one     = decimal.NewFromInt(1)
)

// Fees are the fee rates used for estimates, as fractions of notional (0.00045 is 0.045%).
type Fees struct {
	Taker decimal.Decimal
	Maker decimal.Decimal
}

// DefaultFees are the rates used until configured: taker 0.045%, maker 0.015%.
func DefaultFees() Fees {
	return Fees{Taker: decimal.RequireFromString("0.00045"), Maker: decimal.RequireFromString("0.00015")}
}

// Estimate is the fee on notional at the taker or the maker rate.
func (f Fees) Estimate(notional decimal.Decimal, taker bool) decimal.Decimal {
	if taker {
		return notional.Abs().Mul(f.Taker)
	}
	return notional.Abs().Mul(f.Maker)
}

// Notional is |size| x price.
func Notional(size, price decimal.Decimal) decimal.Decimal {
	return api.Mul(size.Abs(), price)
}

// UnrealizedPnL is size x (mark - entry); size is negative for a short, so a short gains when the
// mark falls.
func UnrealizedPnL(size, entry, mark decimal.Decimal) decimal.Decimal {
	return api.Mul(size, mark.Sub(entry))
}

// ROE is the return on the margin posted, in percent: upnl / (|size| x entry / leverage) x 100,
// worked out as upnl x leverage x 100 / (|size| x entry): one division, rounded once (the margin
// rounded first could put a half-cent ROE on the wrong side, and each division costs). It is
// zero when the margin is zero (no size or no entry); no leverage counts as 1x.
func ROE(upnl, entry, size, leverage decimal.Decimal) decimal.Decimal {
	if !leverage.IsPositive() {
		leverage = one
	}
	cost := api.Mul(size.Abs(), entry)
	if cost.IsZero() {
		return decimal.Zero
	}
	return api.Div(api.Mul(api.Mul(upnl, leverage), hundred), cost)
}

// LiquidationDistance is how far the mark is from the liquidation price, in percent of the mark
// (always >= 0). It is zero when either price is unknown (zero or negative).
func LiquidationDistance(liq, mark decimal.Decimal) decimal.Decimal {
	if !liq.IsPositive() || !mark.IsPositive() {
		return decimal.Zero
	}
	return api.Div(mark.Sub(liq).Abs(), mark).Mul(hundred)
}

// MarginRequired is the initial margin of a position of the given notional: notional / leverage
// (leverage below 1 counts as 1).
func MarginRequired(notional, leverage decimal.Decimal) decimal.Decimal {
	if leverage.LessThan(one) {
		leverage = one
	}
	return notional.Abs().Div(leverage)
}

// accountEquity is the balance margin is measured against: the margin balance, or the total
// equity when the summary has no margin balance.
func accountEquity(a api.AccountSummary) decimal.Decimal {
	if a.MarginBalance.IsPositive() {
		return a.MarginBalance
	}
	return a.TotalAccountEquity
}

// MarginUtilizationAfter is the account's initial margin utilization in percent once extraIM more
// initial margin is in use: (initial margin + extraIM) / margin balance x 100. With no equity it is
// 0 when nothing is used and 100 otherwise.
func MarginUtilizationAfter(account api.AccountSummary, extraIM decimal.Decimal) decimal.Decimal {
	return utilization(account.InitialMargin.Add(extraIM), accountEquity(account))
}

// MaintenanceUtilization is maintenance margin over the margin balance in percent: at 100 the
// account is liquidated. It is computed from the amounts, whose units are unambiguous, rather than
// read from the summary's utilization fields. With no equity it is 0 when no maintenance margin is
// needed and 100 otherwise.
func MaintenanceUtilization(account api.AccountSummary) decimal.Decimal {
	return utilization(account.MaintenanceMargin, accountEquity(account))
}

// utilization is used / equity in percent; with no equity, 0 when nothing is used, else 100.
func utilization(used, equity decimal.Decimal) decimal.Decimal {
	if !equity.IsPositive() {
		if used.IsPositive() {
			return hundred
		}
		return decimal.Zero
	}
	return used.Div(equity).Mul(hundred)
}

// PositionRow is every figure the positions pane shows for one position.
type PositionRow struct {
	Instrument   string
	InstrumentID api.InstrumentID
	Long         bool
	Side         string          // "long" or "short"
	Size         decimal.Decimal // absolute size
	SignedSize   decimal.Decimal // negative for a short
	Entry        decimal.Decimal
	Mark         decimal.Decimal // zero when no ticker is known and no position value was sent
	Notional     decimal.Decimal // |size| x mark (or the position value when there is no mark)
	UPnL         decimal.Decimal
	ROE          decimal.Decimal // percent
	Leverage     decimal.Decimal
	MarginMode   string
	Liquidation  decimal.Decimal // zero when unknown
	LiqDistance  decimal.Decimal // percent of mark; zero when unknown
}

// Margin is the position's initial margin, notional / leverage: worked out when asked, as no pane
// shows it beside every mark.
func (r *PositionRow) Margin() decimal.Decimal { return MarginRequired(r.Notional, r.Leverage) }

// PositionView computes the positions pane's figures for pos from its ticker's mark price and the
// account summary (which carries the liquidation price). A zero ticker falls back to the position
// value for the mark.
func PositionView(pos api.Position, ticker api.Ticker, summary api.AccountSummary) PositionRow {
	r := PositionRow{
		Instrument: pos.Instrument, InstrumentID: pos.InstrumentID,
		Long: pos.Size.IsPositive(), Size: pos.Size.Abs(), SignedSize: pos.Size,
		Entry: pos.EntryPrice, Leverage: pos.Leverage, MarginMode: pos.MarginMode,
		Mark: ticker.MarkPrice,
	}
	r.Side = "short"
	if r.Long {
		r.Side = "long"
	}
	if !r.Mark.IsPositive() && !r.Size.IsZero() {
		r.Mark = pos.PositionValue.Abs().Div(r.Size)
	}
	r.Notional = Notional(r.Size, r.Mark)
	r.UPnL = UnrealizedPnL(pos.Size, pos.EntryPrice, r.Mark)
	ps, ok := summary.PerpPositions[pos.Instrument]
	if !r.Mark.IsPositive() && ok {
		r.UPnL = ps.Upnl
	}
	r.ROE = ROE(r.UPnL, r.Entry, r.Size, r.Leverage)
	if ok && ps.LiquidationPrice.IsPositive() {
		r.Liquidation = ps.LiquidationPrice
		r.LiqDistance = LiquidationDistance(r.Liquidation, r.Mark)
	}
	return r
}
