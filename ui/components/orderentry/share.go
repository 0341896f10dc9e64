package orderentry

import (
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Size as a share (issue #35): "25%" in the size field is a share of the most the account can
// afford on the order (state.Store.ShareOfMax, the rule of the size the check offers), and that
// maximum is shown while the cursor is in the size field, before it is exceeded.

// withShare resolves a size typed as a share into lots; the error says what to fix.
func (p *Pane) withShare(in state.OrderIntent) (state.OrderIntent, *state.FieldError) {
	raw := strings.TrimSpace(in.Size)
	pct, ok := strings.CutSuffix(raw, "%")
	if !ok {
		return in, nil
	}
	v, err := decimal.NewFromString(strings.TrimSpace(pct))
	if err != nil {
		return in, &state.FieldError{Field: state.FieldSize, Msg: "a share is a number of percent, 1 to 100, e.g. 25%"}
	}
	size, _, err := p.Store.ShareOfMax(in, v, p.Guard)
	if err != nil {
		return in, &state.FieldError{Field: state.FieldSize, Msg: err.Error()}
	}
	in.Size, in.NotionalUSD = size.String(), ""
	return in, nil
}

// checkShare is check's part for a share: the problem of the share in place of the size's, and
// the maximum, offered in the empty size field while the cursor is in it.
func (p *Pane) checkShare() {
	p.errs = p.shareErrs(p.errs)
	p.max = decimal.Zero
	p.sizeHint()
	if p.field == FieldSize || strings.HasSuffix(strings.TrimSpace(p.inputs[FieldSize].Value()), "%") {
		p.max, _ = p.Store.OfferedMax(p.intent(), p.Guard)
	}
	if p.max.IsPositive() && p.field == FieldSize {
		// Up front, in the empty field: the most it takes, and that a share of it may be typed.
		p.inputs[FieldSize].Placeholder = "≤" + common.FmtNum(p.max, p.checked.Instrument.SizeDecimals()) + " or 25%"
	}
}

// shareErrs is errs with the share's problem, when the size is a share that does not resolve, in
// place of the size's.
func (p *Pane) shareErrs(errs []state.FieldError) []state.FieldError {
	_, bad := p.withShare(p.rawIntent())
	if bad == nil {
		return errs
	}
	out := []state.FieldError{*bad}
	for _, e := range errs {
		if e.Field != state.FieldSize {
			out = append(out, e)
		}
	}
	return out
}

// maxHint is the size line's "= 2.565" after a share typed (what it comes to); "" otherwise.
func (p *Pane) maxHint(bool) string {
	if !strings.HasSuffix(strings.TrimSpace(p.inputs[FieldSize].Value()), "%") || !p.checked.Size.IsPositive() {
		return ""
	}
	sd := p.checked.Instrument.SizeDecimals()
	return p.Styles.Muted.On(" = " + common.FmtNum(p.checked.Size, sd) + " of " + common.FmtNum(p.max, sd))
}
