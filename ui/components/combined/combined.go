// Package combined is the combined view (issue #42): every profile's account side by side and
// summed, read-only: equity, margin used and its share of equity, unrealised PnL, the number of
// positions and open orders, each instrument's position in each profile and in all, and every
// open order with the profile it belongs to. The figures are session.Summary's, read from each
// profile's own store, which its own polls and stream keep current.
package combined

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/session"
	"github.com/tradedesk/tradedesk/ui/common"
)

// labelWidth is the width of the row names' column.
const labelWidth = 13

// View draws the summaries (one per profile, in order) and their total in width x height.
func View(st *common.Styles, all []session.Summary, width, height int) string {
	total := session.Total(all)
	cols := append(append([]session.Summary{}, all...), total)
	colW := max((width-labelWidth)/len(cols), 8)
	head := common.Pad("", labelWidth)
	for _, c := range cols {
		head += common.Fit(session.Label(c.Profile), colW, true)
	}
	lines := []string{st.Accent.On("Combined") + st.Muted.On(" · read-only · "+strconv.Itoa(len(all))+" profiles"), st.Bold.On(head)}
	row := func(name string, f func(session.Summary) string) {
		l := common.Pad(name, labelWidth)
		for _, c := range cols {
			v := "…"
			if c.Loaded || c.Profile == "total" && anyLoaded(all) {
				v = f(c)
			}
			l += common.Fit(v, colW, true)
		}
		lines = append(lines, l)
	}
	row("Equity", func(s session.Summary) string { return common.FmtNum(s.Equity, 2) })
	row("Margin used", func(s session.Summary) string { return common.FmtNum(s.MarginUsed, 2) })
	row("Margin use", func(s session.Summary) string { return pct(s.MarginUse()) })
	row("Unreal. PnL", func(s session.Summary) string { return common.FmtSigned(s.Upnl, 2) })
	row("Positions", func(s session.Summary) string { return strconv.Itoa(len(s.Positions)) })
	row("Open orders", func(s session.Summary) string { return strconv.Itoa(len(s.Orders)) })
	if !total.Loaded {
		lines = append(lines, st.Warn.On("the total leaves out a profile whose account has not arrived (…)"))
	}
	lines = append(lines, "", st.Bold.On("Positions by instrument"))
	for _, n := range session.Nets(all) {
		l := common.Pad(text.Clean(n.Instrument), labelWidth)
		for _, c := range all {
			v, ok := n.By[c.Profile]
			l += common.Fit(size(v, ok), colW, true)
		}
		lines = append(lines, l+common.Fit(size(n.Total, true), colW, true))
	}
	lines = append(lines, "", st.Bold.On("Open orders"))
	for _, c := range all {
		for _, o := range c.Orders {
			lines = append(lines, common.Pad(session.Label(c.Profile), labelWidth)+text.Clean(side(o.Side)+" "+o.Unfilled.String()+" "+o.Instrument+" @ "+o.LimitPrice.String()))
		}
	}
	return common.FitLines(lines, width, height)
}

func anyLoaded(all []session.Summary) bool {
	for _, s := range all {
		if s.Loaded {
			return true
		}
	}
	return false
}

func size(d decimal.Decimal, ok bool) string {
	if !ok || d.IsZero() {
		return "—"
	}
	return d.String()
}

func pct(d decimal.Decimal) string {
	return strings.TrimSpace(d.Mul(decimal.NewFromInt(100)).StringFixed(1)) + " %"
}

// side is an order's side in words.
func side(s string) string {
	switch s {
	case "b":
		return "buy"
	case "s", "a":
		return "sell"
	}
	return s
}
