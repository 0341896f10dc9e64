package balances

import (
	"fmt"
	"maps"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
)

// Pane shows spot and derivative collateral, vaults, staked collateral and every
// supported collateral's weights, fees and chains.
type Pane struct {
	*common.Common
	lines   []string
	view    string
	version [2]uint64
	offset  int
	w, h    int
	noAcct  bool
}

// New is the balances pane; hasAccount false says there is no account to show.
func New(c *common.Common, hasAccount bool) *Pane {
	return &Pane{Common: c, noAcct: !hasAccount}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Balances" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind {
	return []state.Kind{state.KindAccount, state.KindCollateral}
}

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.render()
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(bool) {}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.StartPanesMsg:
		p.render()
	case common.DataMsg:
		if msg.Kind == state.KindAccount || msg.Kind == state.KindCollateral {
			v := [2]uint64{p.Store.Version(state.KindAccount), p.Store.Version(state.KindCollateral)}
			if v != p.version {
				p.version = v
				p.render()
			}
		}
	case tea.KeyMsg:
		return p.handleKey(msg)
	}
	return nil
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, p.Keys.Transfer):
		return func() tea.Msg { return transfer.OpenMsg{Op: funds.ToDerivative} }
	case key.Matches(msg, p.Keys.Withdraw):
		// From the spot side, as `tradedesk withdraw` without --from: the idle balance, not the
		// margin behind open positions (the form's first field switches to a derivative one).
		return func() tea.Msg { return transfer.OpenMsg{Op: funds.SpotWithdraw} }
	case key.Matches(msg, p.Keys.Up):
		p.offset = max(p.offset-1, 0)
	case key.Matches(msg, p.Keys.Down):
		p.offset = common.ScrollDown(p.offset, 1, len(p.lines), p.h)
	case key.Matches(msg, p.Keys.PageDown):
		p.offset = common.ScrollDown(p.offset, max(p.h-1, 1), len(p.lines), p.h)
	case key.Matches(msg, p.Keys.PageUp):
		p.offset = max(p.offset-max(p.h-1, 1), 0)
	default:
		return nil
	}
	p.fit()
	return nil
}

func (p *Pane) render() {
	p.lines = p.build()
	p.offset = common.ScrollDown(p.offset, 0, len(p.lines), p.h)
	p.fit()
}

func (p *Pane) fit() { p.view = common.ScrolledLines(p.lines, p.offset, p.w, p.h) }

func (p *Pane) build() []string {
	st := p.Styles
	var l []string
	if s := common.FreshLine(st, p.Store, state.KindAccount, p.w); s != "" {
		l = append(l, s)
	}
	coll := p.Store.Collateral()
	decimals := map[string]int32{}
	for _, c := range coll {
		decimals[c.Symbol] = int32(c.Decimals)
	}
	switch acct := p.Store.Account(); {
	case p.noAcct:
		l = append(l, st.Muted.On(common.NoAccount("")))
	case !p.Store.Freshness(state.KindAccount).Loaded():
		l = append(l, st.Muted.On(common.EmptyFor(p.Store, state.KindAccount, "")))
	default:
		fw := figureWidth(decimals, acct.SpotCollateral, acct.Collateral)
		l = append(l, balanceLines(st, "Spot", acct.SpotCollateral, decimals, fw)...)
		l = append(l, balanceLines(st, "Derivative", acct.Collateral, decimals, fw)...)
		l = append(l, vaultLines(st, acct.VaultBalances)...)
		l = append(l, st.FieldLabel.On(common.Pad("Staked", 12))+common.FmtNum(acct.StakedCollateral, 2))
	}
	const head = "Supported collateral"
	hint := "(" + common.KeyName(p.Keys.Transfer) + " transfer · " + common.KeyName(p.Keys.Withdraw) + " withdraw)"
	if common.TextWidth(head+"  "+hint) <= p.w {
		l = append(l, "", st.Header.On(head)+st.Muted.On("  "+hint))
	} else { // the keys on a line of their own, not cut
		l = append(l, "", st.Header.On(head), st.Muted.On(hint))
	}
	if len(coll) == 0 {
		l = append(l, st.Muted.On(common.EmptyFor(p.Store, state.KindCollateral, "none")))
	}
	for _, c := range coll {
		l = append(l, collateralLines(st, c, p.w)...)
	}
	return l
}

// figureWidth is the width of the balance columns: the widest figure or the "Withdrawable" title,
// so a narrow pane (the Funds pane at 120x40) cuts no figure.
func figureWidth(decimals map[string]int32, sides ...map[string]api.CollateralBalance) int {
	w := len("Withdrawable")
	for _, m := range sides {
		for s, b := range m {
			w = max(w, len(state.FormatBalance(b.Balance, s, decimals[s])), len(state.FormatBalance(b.WithdrawableBalance, s, decimals[s])))
		}
	}
	return w
}

func balanceLines(st *common.Styles, side string, m map[string]api.CollateralBalance, decimals map[string]int32, fw int) []string {
	out := []string{st.Header.On(fmt.Sprintf("%-10s %*s %*s", side, fw, "Balance", fw, "Withdrawable"))}
	if len(m) == 0 {
		return append(out, st.Muted.On("  none"))
	}
	for _, s := range slices.Sorted(maps.Keys(m)) {
		b := m[s]
		out = append(out, fmt.Sprintf("  %-8s %*s %*s", s, fw, state.FormatBalance(b.Balance, s, decimals[s]), fw,
			state.FormatBalance(b.WithdrawableBalance, s, decimals[s])))
	}
	return out
}

func vaultLines(st *common.Styles, m map[string]api.VaultBalance) []string {
	if len(m) == 0 {
		return []string{st.FieldLabel.On(common.Pad("Vaults", 12)) + st.Muted.On("none")}
	}
	out := []string{st.Header.On("Vaults")}
	for _, a := range slices.Sorted(maps.Keys(m)) {
		v := m[a]
		out = append(out, fmt.Sprintf("  %s  amount %s  shares %s of %s withdrawable", a, common.FmtNum(v.Amount, 2),
			ownDecimals(v.WithdrawableShares), ownDecimals(v.TotalShares)))
	}
	return out
}

// collateralLines shows one supported collateral: weights, fees and chains, wrapped to w.
func collateralLines(st *common.Styles, c api.Collateral, w int) []string {
	head := st.Bold.On(c.Symbol) + st.Muted.On(fmt.Sprintf(" %s · %d decimals · weight %s", c.Name, c.Decimals, c.DefaultCollWeight))
	if !c.CollRisk.Enabled {
		head += st.Warn.On(" · not counted as margin")
	}
	// Each figure stays whole beside its word when a line wraps ("withdrawal 0.0005 WETH").
	weights := make([]string, len(c.CollRisk.WeightTiers))
	for i, t := range c.CollRisk.WeightTiers {
		weights[i] = "≥" + shortAmount(t.Amount) + " ×" + t.Weight.String()
	}
	label := "weights "
	if len(weights) == 0 {
		label, weights = "", []string{"weights: none published"}
	}
	weights = joinEnds(weights, ",")
	if c.CollRisk.MaxMarginCap.IsPositive() {
		weights[len(weights)-1] += " ·"
		weights = append(weights, "cap "+shortAmount(c.CollRisk.MaxMarginCap))
	}
	fees := []string{"transfer " + state.FormatPercent(c.TransferNotionalFee.Mul(decimal.NewFromInt(100)), 3) + " of amount ·",
		"withdrawal " + common.AmountText(c.WithdrawalFee, int32(c.Decimals)) + " " + c.Symbol}
	// The chains a withdrawal can go to, and apart, those it cannot: a disabled chain said on its
	// own line is never read as the list's word, wherever the line wraps.
	var chains, off []string
	for _, b := range c.BridgeByChain {
		if name := funds.ChainName(int64(b.BridgeChainID)); b.Enabled {
			chains = append(chains, name)
		} else {
			off = append(off, name)
		}
	}
	if len(chains) == 0 {
		chains = []string{"none"}
	}
	out := []string{head}
	out = append(out, listLines(label, weights, w)...)
	out = append(out, listLines("fees: ", fees, w)...)
	out = append(out, listLines("chains: ", joinEnds(chains, ","), w)...)
	if len(off) > 0 {
		out = append(out, listLines("disabled chains: ", joinEnds(off, ","), w)...)
	}
	return out
}

// joinEnds ends every item but the last with sep (a comma between the items of a list).
func joinEnds(items []string, sep string) []string {
	out := slices.Clone(items)
	for i := range len(out) - 1 {
		out[i] += sep
	}
	return out
}

// listLines writes label and items after an indent, space separated and wrapped at w; an item is
// never split across lines ("Arbitrum (42161)", "withdrawal 0.0005 WETH").
func listLines(label string, items []string, w int) []string {
	const indent = "   "
	cont := indent + "  " // a continued list sits under its first item
	var out []string
	line := indent + label
	for i, it := range items {
		switch {
		case i == 0:
			line += it
		case common.TextWidth(line)+1+common.TextWidth(it) <= w:
			line += " " + it
		default:
			out = append(out, line)
			line = cont + it
		}
	}
	return append(out, line)
}

// shortAmount writes amounts under 10,000 exactly and larger ones compactly (1.00M).
func shortAmount(d decimal.Decimal) string {
	if d.Abs().LessThan(decimal.NewFromInt(10_000)) {
		return ownDecimals(d)
	}
	return common.FmtCompact(d)
}

// ownDecimals writes d with separators at its own decimals (a figure with no precision of its
// own to show it at: vault shares, a weight tier's amount).
func ownDecimals(d decimal.Decimal) string { return state.FormatPrice(d, state.StepDecimals(d)) }

// View implements common.Pane.
func (p *Pane) View() string { return p.view }

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Transfer, p.Keys.Withdraw, p.Keys.Up, p.Keys.Down}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.Keys.Transfer, p.Keys.Withdraw, p.Keys.Up, p.Keys.Down, p.Keys.PageUp, p.Keys.PageDown}}
}
