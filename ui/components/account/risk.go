package account

import (
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
)

// RiskMsg is the trading state and each limit's use, read from the executor's engine (the root
// reads it as the account's data arrives): the pane shows it under the margin bars.
type RiskMsg struct{ Report risk.Report }

// riskLines are the trading state and each limit's use ("daily loss  120/500 USD 24%"), painted
// by how much of it is used; none when no limit is set and trading is ACTIVE.
func (p *Pane) riskLines() []string {
	r := p.risk
	if r == nil || len(r.Limits) == 0 && r.State == risk.Active {
		return nil
	}
	st := p.Styles
	state := st.Good.On(string(r.State))
	if r.State != risk.Active {
		state = st.Danger.On(string(r.State)) + st.Muted.On(" "+r.Why)
	}
	out := []string{st.Header.On("  Risk limits ") + state}
	for _, u := range r.Limits {
		paint := st.Text
		if u.Measured && u.Limit.IsPositive() {
			paint = common.UtilPaint(st, u.Used.Div(u.Limit).Mul(hundred))
		}
		label := u.Label()
		if common.TextWidth(label) >= common.LabelWidth {
			out = append(out, "  "+st.FieldLabel.On(label)+" "+paint.On(u.Text()))
			continue
		}
		out = append(out, p.row(label, u.Text(), paint))
	}
	return out
}

// riskUpdate keeps the report and redraws when it changed.
func (p *Pane) riskUpdate(m RiskMsg) {
	if p.risk != nil && sameReport(*p.risk, m.Report) {
		return
	}
	r := m.Report
	p.risk = &r
	p.render()
}

func sameReport(a, b risk.Report) bool {
	if a.State != b.State || a.Why != b.Why || len(a.Limits) != len(b.Limits) {
		return false
	}
	for i := range a.Limits {
		if a.Limits[i].Label() != b.Limits[i].Label() || a.Limits[i].Text() != b.Limits[i].Text() {
			return false
		}
	}
	return true
}
