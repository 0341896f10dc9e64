package ladder

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := p.Keys
	switch {
	case key.Matches(msg, k.Up):
		p.step(-1)
	case key.Matches(msg, k.Down):
		p.step(1)
	case key.Matches(msg, k.PageUp):
		p.step(-max(len(p.rows)/2-1, 1))
	case key.Matches(msg, k.PageDown):
		p.step(max(len(p.rows)/2-1, 1))
	case key.Matches(msg, k.Top):
		p.at = level{}
		p.relayout()
		p.MoveTo(0)
	case key.Matches(msg, k.Bottom):
		p.at = level{}
		p.relayout()
		p.MoveTo(len(p.rows) - 1)
	case key.Matches(msg, k.LadderNextOwn):
		return p.nextOwn()
	case key.Matches(msg, k.GroupCoarser):
		return p.regroup(p.group + 1)
	case key.Matches(msg, k.GroupFiner):
		return p.regroup(p.group - 1)
	case key.Matches(msg, k.LadderBuy):
		return p.trade(api.SideBuy)
	case key.Matches(msg, k.LadderSell):
		return p.trade(api.SideSell)
	case key.Matches(msg, k.LadderCancel):
		return p.cancel()
	case key.Matches(msg, k.AmendUp):
		return p.amendBy(1)
	case key.Matches(msg, k.AmendDown):
		return p.amendBy(-1)
	case key.Matches(msg, k.AmendPrice):
		if _, ok := p.ownAtCursor(); !ok {
			return p.noneToMove()
		}
		p.typing, p.dirty = true, true
		p.price.SetValue("")
		return p.price.Focus()
	}
	return nil
}

// regroup changes the grouping, kept for this instrument; the cursor goes back to the best bid
// and nothing flashes.
func (p *Pane) regroup(g int) tea.Cmd {
	g = min(max(g, 0), len(groups)-1)
	if g == p.group {
		return nil
	}
	p.group, p.cursor, p.at = g, -1, level{}
	p.groupOf[p.symbol] = g
	clear(p.prev)
	clear(p.flashes)
	p.version[0] = ^uint64(0)
	return p.load()
}

// trade opens the order form at the cursor's price: b buys, s sells, whichever side the level
// is on (buying at an ask price is a marketable limit, which the form's checks preview).
func (p *Pane) trade(side string) tea.Cmd {
	_, px, ok := p.Cursor()
	if !ok || p.symbol == "" {
		return common.Notice(common.LevelInfo, "no price level under the cursor")
	}
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, state.SideText(side)+" "+p.symbol)
	}
	sym := p.symbol
	return func() tea.Msg { return TradeMsg{Symbol: sym, Side: side, Price: px} }
}

// ownAtCursor is the trader's one open order on the cursor's row (none when a grouped row holds
// several: which one is the trader's to say).
func (p *Pane) ownAtCursor() (api.OrderRecord, bool) {
	if os := p.ownsAtCursor(); len(os) == 1 {
		return os[0], true
	}
	return api.OrderRecord{}, false
}

// cancel cancels the trader's order on the cursor's row as x in Open orders does
// (action.NewCancelOne: one policy for one key); on a grouped row holding several, it asks which.
func (p *Pane) cancel() tea.Cmd {
	os := p.ownsAtCursor()
	switch {
	case len(os) == 0:
		return common.Notice(common.LevelInfo, "no order of yours on this level to cancel")
	case len(os) == 1:
		return action.Request(action.NewCancelOne(os[0], p.in, p.Guard.Confirm))
	}
	p.choosing, p.dirty = os[:min(len(os), len(p.Keys.LadderPick.Keys()))], true
	return nil
}

// noneToMove is why a move key found no order to move on the cursor's row.
func (p *Pane) noneToMove() tea.Cmd {
	if n := len(p.ownsAtCursor()); n > 1 {
		return common.Notice(common.LevelInfo, fmt.Sprintf("%d of your orders on this grouped level: %s groups finer to move one",
			n, p.Keys.GroupFiner.Help().Key))
	}
	return common.Notice(common.LevelInfo, "no order of yours on this level to move")
}

// amendBy moves the trader's order on the cursor's row by ticks.
func (p *Pane) amendBy(ticks int64) tea.Cmd {
	o, ok := p.ownAtCursor()
	if !ok {
		return p.noneToMove()
	}
	return p.amendTo(o, o.LimitPrice.Add(p.tick().Mul(decimal.NewFromInt(ticks))).String())
}

// amendTo asks the pipeline to move the order to price (one confirmed cancel-and-replace with a
// new client id), after the one order check.
func (p *Pane) amendTo(o api.OrderRecord, price string) tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "amend an order")
	}
	a, why := action.AmendOf(p.Store, p.Guard, p.Styles, o, price, "")
	if a == nil {
		return common.Notice(common.LevelError, why)
	}
	return action.Request(a)
}

// typePrice edits the typed amend price: Enter moves the order there, Esc drops it.
func (p *Pane) typePrice(msg tea.KeyMsg) tea.Cmd {
	p.dirty = true
	switch {
	case key.Matches(msg, p.Keys.Dismiss):
		p.typing = false
		p.price.Blur()
		return nil
	case key.Matches(msg, p.Keys.TextSubmit):
		p.typing = false
		p.price.Blur()
		o, ok := p.ownAtCursor()
		if !ok {
			return common.Notice(common.LevelWarn, "the order is no longer on this level")
		}
		return p.amendTo(o, strings.TrimSpace(p.price.Value()))
	}
	var cmd tea.Cmd
	p.price, cmd = p.price.Update(msg)
	return cmd
}
