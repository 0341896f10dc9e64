package account

import (
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
)

var hundred = decimal.NewFromInt(100)

// Pane shows the account's equity, margin, PnL, the risk limits' use and collateral balances.
type Pane struct {
	*common.Common
	width, height int
	version       [4]uint64
	lines         []string // rendered when the account changes
	empty         string
	risk          *risk.Report // the trading state and the limits' use (RiskMsg); nil until read
}

// New is the account pane; empty is what it says before the account loads (or without one).
func New(c *common.Common, empty string) *Pane {
	return &Pane{Common: c, empty: empty}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Account" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindAccount} }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.render()
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(bool) {}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if r, ok := msg.(RiskMsg); ok {
		p.riskUpdate(r)
		return nil
	}
	if d, ok := msg.(common.DataMsg); ok && (d.Kind == state.KindAccount || d.Kind == state.KindCollateral ||
		d.Kind == state.KindTickers || d.Kind == state.KindPositions) {
		// uPnL is at the freshest mark (state.UnrealizedPnL), so tickers and positions redraw it too.
		v := [4]uint64{p.Store.Version(state.KindAccount), p.Store.Version(state.KindCollateral),
			p.Store.Version(state.KindTickers), p.Store.Version(state.KindPositions)}
		if v != p.version {
			p.version = v
			p.render()
		}
	}
	return nil
}

// bar draws a utilization bar w cells wide, with the percentage and a word so it reads without colour.
func (p *Pane) bar(label string, pct decimal.Decimal, w int) string {
	st := p.Styles
	pc := common.UtilPaint(st, pct)
	word := "ok"
	switch {
	case pct.GreaterThanOrEqual(common.UtilDanger):
		word = "DANGER"
	case pct.GreaterThanOrEqual(common.UtilWarn):
		word = "high"
	}
	text := state.FormatPercent(pct, 1) + " " + word
	barW := max(w-common.LabelWidth-len(text)-3, 4)
	filled := int(pct.Div(hundred).Mul(decimal.NewFromInt(int64(barW))).Round(0).IntPart())
	filled = min(max(filled, 0), barW)
	return "  " + st.FieldLabel.On(common.Pad(label, common.LabelWidth)) + pc.On(strings.Repeat("█", filled)) +
		st.Muted.On(strings.Repeat("░", barW-filled)) + " " + pc.On(text)
}

func (p *Pane) row(label, value string, vp common.Paint) string {
	return "  " + p.Styles.FieldLabel.On(common.Pad(label, common.LabelWidth)) + vp.On(common.Fit(value, max(p.width-common.LabelWidth-2, 1), false))
}

// render draws the pane's lines once per account change.
func (p *Pane) render() {
	st := p.Styles
	a := p.Store.Account()
	realized, upnl, total := p.Store.PnL()
	var l []string
	if f := p.Store.Freshness(state.KindAccount); !f.Loaded() {
		text := p.empty
		if f.Err != nil {
			text = "account request failed: " + common.PlainError(f.Err) + " (retrying)"
		}
		l = append(l, st.Muted.On("  "+text))
	} else {
		l = append(l,
			// The first four are what a short pane (120x40) keeps: equity, what is free, and PnL.
			p.row("Equity", common.FmtNum(a.TotalAccountEquity, 2)+" USD", st.Bold),
			p.row("Available", common.FmtNum(a.AvailableBalance, 2), st.Text),
			p.row("Unrealized", common.FmtSigned(upnl, 2), common.SignPaint(st, upnl)),
			p.row("Total PnL", common.FmtSigned(total, 2), common.SignPaint(st, total)),
		)
		// The limits' use next (none without [risk] limits): what the trader set on themself.
		l = append(l, p.riskLines()...)
		l = append(l,
			p.row("Realized PnL", common.FmtSigned(realized, 2), common.SignPaint(st, realized)),
			p.row("Margin bal.", common.FmtNum(a.MarginBalance, 2), st.Text),
			p.row("Init. margin", common.FmtNum(a.InitialMargin, 2), st.Text),
			p.row("Maint. margin", common.FmtNum(a.MaintenanceMargin, 2), st.Text),
			p.bar("IM used", state.MarginUtilizationAfter(a, decimal.Zero), p.width),
			p.bar("MM used", state.MaintenanceUtilization(a), p.width),
		)
		l = append(l, p.collateral("Derivative", a.Collateral)...)
		l = append(l, p.collateral("Spot", a.SpotCollateral)...)
	}
	for i := range l {
		l[i] = common.FitStyled(l[i], p.width)
	}
	for len(l) < p.height {
		l = append(l, strings.Repeat(" ", p.width))
	}
	p.lines = l[:max(p.height, 0)]
}

func (p *Pane) collateral(title string, m map[string]api.CollateralBalance) []string {
	st := p.Styles
	out := []string{st.Header.On("  " + title + " collateral")}
	if len(m) == 0 {
		return append(out, st.Muted.On("    none"))
	}
	for _, s := range slices.Sorted(maps.Keys(m)) {
		b := m[s]
		out = append(out, "    "+common.Pad(s, 8)+common.Fit(common.FmtNum(b.Balance, 2), 16, true)+st.Muted.On(" free "+common.FmtNum(b.WithdrawableBalance, 2)))
	}
	return out
}

// View implements common.Pane.
func (p *Pane) View() string { return strings.Join(p.lines, "\n") }

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding { return nil }

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding { return nil }
