package report

import (
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
)

// SlipBp is how far avg is from ref in basis points of ref, against the trader on side
// (positive: a buy paid more, a sell got less); false when ref is not known.
func SlipBp(side string, avg, ref decimal.Decimal) (decimal.Decimal, bool) {
	if !ref.IsPositive() || !avg.IsPositive() {
		return decimal.Zero, false
	}
	d := avg.Sub(ref)
	if side == api.SideSell {
		d = d.Neg()
	}
	return d.Div(ref).Mul(bpScale), true
}

// Phrase is a sent order's cost in one phrase for its result line: "slip 1.2 bp vs preview, fee
// 4.85 USD" (against the arrival mid when the preview walked no book; each part only when known,
// "" when neither is). Console and headless both say it from here.
func Phrase(side string, avg api.OptDecimal, a record.Arrival, fee api.OptDecimal) string {
	var out string
	if bp, ok := SlipBp(side, avg.Decimal, a.Expected); avg.Valid && ok {
		out = "slip " + state.FormatSigned(bp, 1) + " bp vs preview"
	} else if bp, ok := SlipBp(side, avg.Decimal, a.Mid); avg.Valid && ok {
		out = "slip " + state.FormatSigned(bp, 1) + " bp vs mid"
	}
	if fee.Valid {
		if out != "" {
			out += ", "
		}
		out += "fee " + state.FormatUSDFee(fee.Decimal) + " USD"
	}
	return out
}
