package transfer

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Drawing the form: one line a field, its error under it, and the submit button.

// View implements common.Pane; the form is drawn again only after something changed.
func (p *Pane) View() string {
	if p.dirty {
		p.view = p.draw()
		p.dirty = false
	}
	return p.view
}

func (p *Pane) draw() string {
	st := p.Styles
	if common.ExchangeAddress(p.ex) == "" {
		return common.FitLines([]string{st.Muted.On("no account: start with --keystore or a key to move collateral")}, p.w, p.h)
	}
	if len(p.Store.Collateral()) == 0 {
		return common.FitLines([]string{st.Muted.On(common.EmptyFor(p.Store, state.KindCollateral, "no collateral is supported"))}, p.w, p.h)
	}
	var lines []string
	if s := common.FreshLine(st, p.Store, state.KindAccount, p.w); s != "" {
		lines = append(lines, s) // the withdrawable amounts below may be out of date
	}
	for f := 0; f < fieldCount; f++ {
		if p.hidden(f) {
			continue
		}
		lines = append(lines, strings.Split(p.fieldLine(f), "\n")...)
		for _, e := range p.errs {
			if p.showError(f, e) {
				lines = append(lines, common.Wrapped(st.FieldErr, "! "+fundsErrText(e), "    ", p.w)...)
			}
		}
	}
	if c := p.checked; c.Collateral.Symbol != "" && c.Amount.IsPositive() {
		lines = append(lines, common.Wrapped(st.Muted, c.FeeLine(), "    ", p.w)...)
	}
	if p.sending {
		lines = append(lines, "", st.Muted.On("sending…"))
	} else if p.result != "" {
		pt := st.Good
		if p.failed {
			pt = st.Danger
		}
		lines = append(lines, "")
		lines = append(lines, common.Wrapped(pt, p.result, "", p.w)...)
	}
	return common.FitLines(lines, p.w, p.h)
}

// showError reports whether e shows under field f: errors of fields typed into, or every error
// after Enter.
func (p *Pane) showError(f int, e funds.FieldError) bool {
	switch e.Field {
	case funds.FieldAmount:
		return f == FieldAmount && (p.tried || p.amount.Value() != "")
	case funds.FieldDestination:
		return f == FieldDestination && (p.tried || p.dest.Value() != "")
	case funds.FieldChain:
		return f == FieldChain
	case funds.FieldCollateral:
		return f == FieldCollateral
	}
	return f == FieldOp
}

func fundsErrText(e funds.FieldError) string {
	if e.Suggest != "" {
		return e.Msg + " (try " + e.Suggest + ")"
	}
	return e.Msg
}

func (p *Pane) fieldLine(f int) string {
	st := p.Styles
	cur := p.focused && p.field == f && (p.editing || f == FieldSubmit) // Enter reviews from outside too
	marker, label := "  ", st.FieldLabel
	if cur {
		marker, label = "▸ ", st.FieldFocus
	}
	arrows := ""
	if cur {
		arrows = st.Muted.On(" " + p.Keys.ToggleHint())
	}
	var value string
	switch f {
	case FieldOp:
		value = st.Accent.On("["+p.opNow().String()+"]") + arrows
	case FieldCollateral:
		value = st.Accent.On("["+p.coll+"]") + arrows
		if c := p.checked; c.Collateral.Symbol != "" {
			w := "withdrawable " + state.FormatBalance(c.Withdrawable, c.Collateral.Symbol, int32(c.Collateral.Decimals)) +
				" (" + sideName(p.opNow()) + ")"
			if 14+ansi.StringWidth(value)+2+common.TextWidth(w) > p.w {
				// Too narrow for both: the figure goes on a line of its own rather than be cut.
				return marker + label.On(common.Pad(transferLabels[f], 12)) + value + "\n" + strings.Repeat(" ", 14) + st.Muted.On(w)
			}
			value += st.Muted.On("  " + w)
		}
	case FieldAmount:
		value = p.amount.View()
		if cur {
			value += st.Muted.On(" " + common.KeyName(p.Keys.TransferMax) + " all")
		}
	case FieldDestination:
		value = p.dest.View()
	case FieldChain:
		value = st.Accent.On("["+p.chainText()+"]") + arrows
	case FieldSubmit:
		return common.Pad("", 16) + p.submitButton(cur)
	}
	return marker + label.On(common.Pad(transferLabels[f], 12)) + value
}

func sideName(op funds.Op) string {
	if op.FromSpot() {
		return "spot"
	}
	return "derivative"
}

func (p *Pane) chainText() string {
	if p.chain == 0 {
		return "none enabled"
	}
	c, _ := p.Store.CollateralBySymbol(p.coll)
	for _, b := range c.BridgeByChain {
		if int64(b.BridgeChainID) == p.chain && !b.Enabled {
			return funds.ChainName(p.chain) + " disabled"
		}
	}
	return funds.ChainName(p.chain)
}

func (p *Pane) submitButton(cur bool) string {
	st := p.Styles
	switch {
	case p.ReadOnly != "":
		return st.Muted.On("[ read-only: cannot move collateral ]")
	case p.ex.IsAgent():
		return st.Muted.On("[ agent key: cannot move collateral ]")
	case cur:
		return st.ButtonFocus.On(" Review ⏎ ")
	}
	return st.Button.On(" Review ")
}
