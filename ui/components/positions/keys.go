package positions

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// The positions pane's position keys (issue #35): the close menu (KeyMap.Close, then Close25 to
// Close100 for 25/50/75/100 % at market, CloseMid or CloseBest for the whole position as a limit
// at the mid or the best price, CloseTyped to type the share and price on the command line),
// reverse, stop to breakeven and flatten all. The
// rules are state's (PlanClose, PlanReverse, PlanBreakeven, PlanFlatten), shared with the `:`
// line and the headless commands.

// Capturing implements common.InputCapturer: the open close menu takes the digits before the
// pane numbers.
func (p *Pane) Capturing() bool { return p.menu != "" }

// positionKey runs the position keys; false when msg is none of them.
func (p *Pane) positionKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := p.Keys
	if p.menu != "" {
		return p.menuKey(msg), true
	}
	var act func(sym string) tea.Cmd
	what := ""
	switch {
	case key.Matches(msg, k.Flatten):
		if p.ReadOnly != "" {
			return common.ReadOnlyNotice(p.ReadOnly, "flatten the positions"), true
		}
		return p.flatten(), true
	case key.Matches(msg, k.Close):
		act, what = p.openMenu, "close a position"
	case key.Matches(msg, k.Reverse):
		act, what = p.reverse, "reverse a position"
	case key.Matches(msg, k.Breakeven):
		act, what = p.breakeven, "move a stop"
	default:
		return nil, false
	}
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, what), true
	}
	r, ok := p.Selected()
	switch {
	case !ok && p.tbl.Lost():
		return common.Notice(common.LevelWarn, "no position selected: the one you were on is closed; move to pick one"), true
	case !ok:
		return common.Notice(common.LevelWarn, "no position selected"), true
	}
	return act(r.Instrument), true
}

// openMenu opens the close menu on sym, saying its keys.
func (p *Pane) openMenu(sym string) tea.Cmd {
	p.menu = sym
	k, name := p.Keys, common.KeyName
	return common.Notice(common.LevelInfo, fmt.Sprintf("close %s: %s 25%% · %s 50%% · %s 75%% · %s or %s all, at market · %s at the mid · %s at the best price · %s type it · %s",
		sym, name(k.Close25), name(k.Close50), name(k.Close75), name(k.Close100), name(k.Close), name(k.CloseMid), name(k.CloseBest),
		name(k.CloseTyped), name(k.Dismiss)))
}

// menuKey is a key while the close menu is open: a share, a pricing, or anything else closes it.
func (p *Pane) menuKey(msg tea.KeyMsg) tea.Cmd {
	sym := p.menu
	p.menu = ""
	k := p.Keys
	for _, s := range []struct {
		b   key.Binding
		pct int64
	}{{k.Close25, 25}, {k.Close50, 50}, {k.Close75, 75}, {k.Close100, 100}} {
		if key.Matches(msg, s.b) {
			return p.closeShare(sym, decimal.NewFromInt(s.pct), state.CloseAtMarket)
		}
	}
	switch {
	case key.Matches(msg, k.Close):
		return p.closeShare(sym, decimal.NewFromInt(100), state.CloseAtMarket)
	case key.Matches(msg, k.CloseMid):
		return p.closeShare(sym, decimal.NewFromInt(100), state.CloseAtMid)
	case key.Matches(msg, k.CloseBest):
		return p.closeShare(sym, decimal.NewFromInt(100), state.CloseAtBest)
	case key.Matches(msg, k.CloseTyped):
		return cmdline.Prefill("close " + strings.ToLower(sym) + " ")
	}
	return common.Notice(common.LevelInfo, "close menu closed, nothing sent")
}

// closeShare asks to close pct % of sym's position, priced by how: PlanClose, the confirmation
// saying the PnL it realises, checked again on Enter with the same client id.
func (p *Pane) closeShare(sym string, pct decimal.Decimal, how state.ClosePricing) tea.Cmd {
	req := state.CloseRequest{Instrument: sym, Percent: pct, Pricing: how, Cloid: state.NewCloid()}
	plan, errs := p.Store.PlanClose(req, p.Guard)
	if len(errs) > 0 {
		return common.Notice(common.LevelError, "cannot close "+sym+": "+common.JoinFieldErrors(errs))
	}
	said := common.Notice(common.LevelInfo, plan.Words())
	a := action.NewClose(plan, p.Styles)
	store, g, st := p.Store, p.Guard, p.Styles
	if pct.Equal(decimal.NewFromInt(100)) && how == state.CloseAtMarket {
		a.Recheck = recheckClose(store, g, st, sym, req.Cloid) // the whole position as it is then
		return tea.Batch(said, action.Request(a))
	}
	a.Recheck = func() (*action.Action, string) {
		again, errs := store.PlanClose(req, g)
		if len(errs) > 0 {
			return nil, "not sent: " + common.JoinFieldErrors(errs)
		}
		return action.NewClose(again, st), ""
	}
	return tea.Batch(said, action.Request(a))
}

// reverse asks to reverse sym's position: one order, confirmed.
func (p *Pane) reverse(sym string) tea.Cmd {
	cloid := state.NewCloid()
	plan, errs := p.Store.PlanReverse(sym, cloid, p.Guard)
	if len(errs) > 0 {
		return common.Notice(common.LevelError, "cannot reverse "+sym+": "+common.JoinFieldErrors(errs))
	}
	a := action.NewReverse(plan, p.Styles)
	store, g, st := p.Store, p.Guard, p.Styles
	a.Recheck = func() (*action.Action, string) {
		again, errs := store.PlanReverse(sym, cloid, g)
		if len(errs) > 0 {
			return nil, "not sent: " + common.JoinFieldErrors(errs)
		}
		return action.NewReverse(again, st), ""
	}
	return action.Request(a)
}

// breakeven asks to move sym's stop-loss to its entry plus fees.
func (p *Pane) breakeven(sym string) tea.Cmd {
	plan, errs := p.Store.PlanBreakeven(sym)
	if len(errs) > 0 {
		return common.Notice(common.LevelError, "cannot move the stop to breakeven: "+common.JoinFieldErrors(errs))
	}
	return action.Request(action.NewPositionTpsl(plan.Tpsl, p.Styles))
}

// flatten asks to close every position: listed, confirmed by typing "flatten".
func (p *Pane) flatten() tea.Cmd {
	parent := state.NewCloid()
	plan, err := p.Store.PlanFlatten(p.Guard, func(i int) (string, error) { return fmt.Sprintf("%s-%d", parent, i), nil })
	switch {
	case err != nil:
		return common.Notice(common.LevelError, err.Error())
	case len(plan.Closes) == 0:
		return common.Notice(common.LevelError, "flatten: every position is skipped, nothing to send: "+strings.Join(plan.Lines(), "; "))
	}
	return action.Request(action.NewFlatten(plan, p.Styles))
}
