package tickers

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The foot: when the width leaves the Funding column out (it goes before Last and Vol 24h), the
// pane keeps its last line for the selected perpetual's funding, which every position pays or
// receives: "BTC-PERP  funding +0.0013%/1h · next in 44m56s · open int. 1.23K BTC" (issue #31:
// funding was nowhere on screen at 200x60 and below).

// fitFoot gives the table every line but the last when the Funding column is not shown at this
// width and the pane has room for a row besides the header and the foot.
func (p *Pane) fitFoot(h int) {
	p.foot = !p.visible(tcFunding) && h >= 3
	if p.foot {
		p.tbl.SetSize(p.w, h-1)
	}
}

// footLine is the foot for the selected instrument, as much of it as fits: the rate and the time
// to the next payment always, the name (the selected row has it too) and the open interest when
// there is room. Blank for a spot market or none.
func (p *Pane) footLine() string {
	st := p.Styles
	sym := p.Selected()
	if sym == "" || p.spot(sym) {
		return common.Pad("", p.tbl.Width)
	}
	t := p.tickers[p.rows[p.tbl.Cursor]]
	name, rate, until := " "+st.Bold.On(sym), fundingText(st, t), p.untilFunding()
	full := name + st.Muted.On("  funding ") + rate + st.Muted.On(" · next in "+until)
	for _, line := range []string{
		full + st.Muted.On(" · open int. "+state.FormatOpenInterest(t.OpenInterest, t.Symbol)),
		full,
		st.Muted.On(" funding ") + rate + st.Muted.On(" next "+until), // the selected row names it
	} {
		if ansi.StringWidth(line) <= p.tbl.Width {
			return common.FitStyled(line, p.tbl.Width)
		}
	}
	return common.FitStyled(" "+rate+st.Muted.On(" next "+until), p.tbl.Width)
}

// fundingText is a ticker's funding rate per period, painted by its sign.
func fundingText(st *common.Styles, t api.Ticker) string {
	return common.SignPaint(st, t.FundingRate).On(state.FormatFunding(t.FundingRate, state.FundingPeriod))
}

// untilFunding is the time to the next funding payment ("44m56s").
func (p *Pane) untilFunding() string {
	now := p.Clock()
	return common.FmtAge(state.NextFunding(now).Sub(now))
}
