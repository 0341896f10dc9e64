package ui

import (
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// Utilization thresholds (percent) at which the margin bars turn amber and red. Maintenance
// utilization at 100% is liquidation.
var (
	utilWarn   = decimal.NewFromInt(60)
	utilDanger = decimal.NewFromInt(85)
	hundred    = decimal.NewFromInt(100)
)

// accountPane shows the account's equity, margin, PnL and collateral balances.
type accountPane struct {
	*Common
	width, height int
	version       [2]uint64
	lines         []string // rendered when the account changes
	empty         string
}

func newAccountPane(c *Common, empty string) *accountPane {
	return &accountPane{Common: c, empty: empty}
}

// Title implements Pane.
func (p *accountPane) Title() string { return "Account" }

// Kinds implements kindsShower.
func (p *accountPane) Kinds() []state.Kind { return []state.Kind{state.KindAccount} }

// SetSize implements Pane.
func (p *accountPane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.render()
}

// SetFocused implements Pane.
func (p *accountPane) SetFocused(bool) {}

// Update implements Pane.
func (p *accountPane) Update(msg tea.Msg) tea.Cmd {
	if d, ok := msg.(DataMsg); ok && (d.Kind == state.KindAccount || d.Kind == state.KindCollateral) {
		v := [2]uint64{p.Store.Version(state.KindAccount), p.Store.Version(state.KindCollateral)}
		if v != p.version {
			p.version = v
			p.render()
		}
	}
	return nil
}

func utilPaint(st *Styles, pct decimal.Decimal) paint {
	switch {
	case pct.GreaterThanOrEqual(utilDanger):
		return st.Danger
	case pct.GreaterThanOrEqual(utilWarn):
		return st.Warn
	}
	return st.Good
}

// maintenanceUtilization is maintenance margin over the margin balance in percent: at 100 the
// account is liquidated. It is computed from the amounts, whose units are unambiguous, rather than
// read from the utilization fields.
func maintenanceUtilization(a api.AccountSummary) decimal.Decimal {
	eq := a.MarginBalance
	if !eq.IsPositive() {
		eq = a.TotalAccountEquity
	}
	if !eq.IsPositive() {
		if a.MaintenanceMargin.IsPositive() {
			return hundred
		}
		return decimal.Zero
	}
	return a.MaintenanceMargin.Div(eq).Mul(hundred)
}

// bar draws a utilization bar w cells wide, with the percentage and a word so it reads without colour.
func (p *accountPane) bar(label string, pct decimal.Decimal, w int) string {
	st := p.Styles
	pc := utilPaint(st, pct)
	word := "ok"
	switch {
	case pct.GreaterThanOrEqual(utilDanger):
		word = "DANGER"
	case pct.GreaterThanOrEqual(utilWarn):
		word = "high"
	}
	text := state.FormatPercent(pct, 1) + " " + word
	barW := max(w-labelWidth-len(text)-3, 4)
	filled := int(pct.Div(hundred).Mul(decimal.NewFromInt(int64(barW))).Round(0).IntPart())
	filled = min(max(filled, 0), barW)
	return "  " + st.FieldLabel.on(pad(label, labelWidth)) + pc.on(strings.Repeat("█", filled)) +
		st.Muted.on(strings.Repeat("░", barW-filled)) + " " + pc.on(text)
}

func (p *accountPane) row(label, value string, vp paint) string {
	return "  " + p.Styles.FieldLabel.on(pad(label, labelWidth)) + vp.on(fit(value, max(p.width-labelWidth-2, 1), false))
}

// render draws the pane's lines once per account change.
func (p *accountPane) render() {
	st := p.Styles
	a := p.Store.Account()
	var l []string
	if f := p.Store.Freshness(state.KindAccount); !f.Loaded() {
		text := p.empty
		if f.Err != nil {
			text = "account request failed: " + plainError(f.Err) + " (retrying)"
		}
		l = append(l, st.Muted.on("  "+text))
	} else {
		l = append(l,
			p.row("Equity", fmtNum(a.TotalAccountEquity, 2)+" USD", st.Bold),
			p.row("Margin bal.", fmtNum(a.MarginBalance, 2), st.Text),
			p.row("Available", fmtNum(a.AvailableBalance, 2), st.Text),
			p.row("Unrealized", fmtSigned(a.Upnl, 2), signPaint(st, a.Upnl)),
			p.row("Total PnL", fmtSigned(a.TotalPnl, 2), signPaint(st, a.TotalPnl)),
			p.row("Init. margin", fmtNum(a.InitialMargin, 2), st.Text),
			p.row("Maint. margin", fmtNum(a.MaintenanceMargin, 2), st.Text),
			p.bar("IM used", state.MarginUtilizationAfter(a, decimal.Zero), p.width),
			p.bar("MM used", maintenanceUtilization(a), p.width),
		)
		l = append(l, p.collateral("Derivative", a.Collateral)...)
		l = append(l, p.collateral("Spot", a.SpotCollateral)...)
	}
	for i := range l {
		l[i] = fitStyled(l[i], p.width)
	}
	for len(l) < p.height {
		l = append(l, strings.Repeat(" ", p.width))
	}
	p.lines = l[:max(p.height, 0)]
}

func (p *accountPane) collateral(title string, m map[string]api.CollateralBalance) []string {
	st := p.Styles
	out := []string{st.Header.on("  " + title + " collateral")}
	if len(m) == 0 {
		return append(out, st.Muted.on("    none"))
	}
	for _, s := range slices.Sorted(maps.Keys(m)) {
		b := m[s]
		out = append(out, "    "+pad(s, 8)+fit(fmtNum(b.Balance, 2), 16, true)+st.Muted.on(" free "+fmtNum(b.WithdrawableBalance, 2)))
	}
	return out
}

// View implements Pane.
func (p *accountPane) View() string { return strings.Join(p.lines, "\n") }

// ShortHelp implements Pane.
func (p *accountPane) ShortHelp() []key.Binding { return nil }

// FullHelp implements Pane.
func (p *accountPane) FullHelp() [][]key.Binding { return nil }
