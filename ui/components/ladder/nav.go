package ladder

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// level is a price on one side of the ladder: what the cursor is on.
type level struct {
	ask   bool
	price decimal.Decimal
	set   bool
}

// placeCursor puts the cursor on its price's row after the rows were built (sideRows gives that
// price a row); with no price chosen yet, or none that fits, on the best bid.
func (p *Pane) placeCursor(asks int) {
	if p.at.set {
		for i, r := range p.rows {
			if r.selectable() && r.ask == p.at.ask && r.price.Equal(p.at.price) {
				p.cursor, p.dirty = i, true
				return
			}
		}
	}
	p.MoveTo(asks) // the best bid
}

// relayout builds the rows again around the cursor's price.
func (p *Pane) relayout() {
	asks, bids := p.halves()
	p.buildRows(asks, bids)
	p.dirty = true
}

// prices is every price the cursor can rest on, top to bottom: the whole book's asks (farthest
// first), then its bids, with the trader's own prices among them.
func (p *Pane) prices() []level {
	own := p.ownSizes()
	var out []level
	for _, ask := range []bool{true, false} {
		var side []level
		for _, l := range p.deepLevels(ask) {
			side = append(side, level{ask: ask, price: l.Price, set: true})
		}
		for k := range own {
			if px, err := decimal.NewFromString(k[1:]); err == nil && (k[0] == 'a') == ask && !slices.ContainsFunc(side, func(l level) bool { return l.price.Equal(px) }) {
				side = append(side, level{ask: ask, price: px, set: true})
			}
		}
		slices.SortFunc(side, func(a, b level) int { return b.price.Cmp(a.price) }) // top to bottom
		out = append(out, side...)
	}
	return out
}

// index is where the cursor's price is in ps, or where it would go (and false).
func (p *Pane) index(ps []level) (int, bool) {
	for i, l := range ps {
		if l.ask == p.at.ask && l.price.Equal(p.at.price) {
			return i, true
		}
		if l.ask == p.at.ask && l.price.LessThan(p.at.price) || !l.ask && p.at.ask {
			return i, false
		}
	}
	return len(ps), false
}

// step moves the cursor by n prices (up when negative), level by level through the whole book:
// past the far end of the rows shown, the ladder scrolls (the price gets the side's far row).
func (p *Pane) step(n int) {
	if !p.at.set {
		p.MoveTo(p.cursor + n)
		return
	}
	ps := p.prices()
	if len(ps) == 0 {
		return
	}
	i, found := p.index(ps)
	if !found && n > 0 {
		n-- // a price with no level left: down is the price below it
	}
	p.at = ps[min(max(i+n, 0), len(ps)-1)]
	p.relayout()
}

// nextOwn puts the cursor on the trader's next order on the ladder's instrument, top to bottom
// and round again, scrolling to it when it lies beyond the rows shown.
func (p *Pane) nextOwn() tea.Cmd {
	ps := p.prices()
	own := p.ownSizes()
	var mine []int
	for i, l := range ps {
		if _, ok := own[sideKey(l.ask, l.price)]; ok {
			mine = append(mine, i)
		}
	}
	if len(mine) == 0 {
		return common.Notice(common.LevelInfo, "no order of yours on "+p.symbol)
	}
	cur := -1
	if p.at.set {
		i, found := p.index(ps)
		if cur = i; !found {
			cur = i - 1
		}
	}
	next := mine[0]
	for _, i := range mine {
		if i > cur {
			next = i
			break
		}
	}
	p.at = ps[next]
	p.relayout()
	return nil
}

// ownsAtCursor are the trader's open orders on the cursor's row (several on a grouped row).
func (p *Pane) ownsAtCursor() []api.OrderRecord {
	if p.cursor < 0 || p.cursor >= len(p.rows) || !p.rows[p.cursor].selectable() {
		return nil
	}
	r := p.rows[p.cursor]
	var out []api.OrderRecord
	for _, o := range p.ownOrders() {
		ask := o.Side == api.SideSell
		if ask == r.ask && state.GroupPrice(o.LimitPrice, p.groupSize(), !ask).Equal(r.price) {
			out = append(out, o)
		}
	}
	return out
}

// choose takes the trader's pick among the orders on a grouped row: the nth key of LadderPick
// cancels the nth, Dismiss cancels none; other keys are ignored until one of those.
func (p *Pane) choose(msg tea.KeyMsg) tea.Cmd {
	p.dirty = true
	if key.Matches(msg, p.Keys.Dismiss) {
		p.choosing = nil
		return common.Notice(common.LevelNote, "not sent: no order cancelled")
	}
	for i, k := range p.Keys.LadderPick.Keys() {
		if i < len(p.choosing) && key.Matches(msg, key.NewBinding(key.WithKeys(k))) {
			o := p.choosing[i]
			p.choosing = nil
			return action.Request(action.NewCancelOne(o, p.in, p.Guard.Confirm))
		}
	}
	return nil
}

// choiceLine is the line that asks which order to cancel: "cancel which? 1 buy 0.0100 @ 99.6 · 2
// buy 0.0200 @ 99.7 · Esc none".
func (p *Pane) choiceLine() string {
	parts := []string{"cancel which?"}
	keys := p.Keys.LadderPick.Keys()
	for i, o := range p.choosing {
		parts = append(parts, fmt.Sprintf("%s %s %s @ %s", common.PrettyKey(keys[i]), state.SideText(o.Side), p.in.SizeText(o.Unfilled), p.in.PriceText(o.LimitPrice)))
	}
	return strings.Join(parts, " · ") + " · " + p.Keys.Dismiss.Help().Key + " none"
}

// padRows is rows with blank rows after them up to n.
func padRows(rows []row, ask bool, n int) []row {
	for len(rows) < n {
		rows = append(rows, row{ask: ask, blank: true})
	}
	return rows
}

// ownHint is a hint row's words: how many of the trader's orders on the side have no row in rows
// and the key that goes to them, in the longest wording that fits the pane whole (a cut hint hid
// the key); after a gap mark, "⋮" alone when none.
func (p *Pane) ownHint(rows []row, ask bool, mark string) string {
	hidden := p.hiddenOwn(rows, ask)
	where := "below"
	arrow := "↓"
	if ask {
		where, arrow = "above", "↑"
	}
	if mark == "" {
		mark = arrow
	}
	if hidden == 0 {
		return mark
	}
	k := p.Keys.LadderNextOwn.Help().Key
	words := []string{
		fmt.Sprintf("%s %d of your orders %s · %s goes to them", mark, hidden, where, k),
		fmt.Sprintf("%s %d of yours %s · %s jumps", mark, hidden, where, k),
		fmt.Sprintf("%s %d of yours %s · %s", mark, hidden, where, k),
	}
	for _, w := range words {
		if common.TextWidth("  "+w) <= p.w {
			return w
		}
	}
	return fmt.Sprintf("%s %d of yours %s", mark, hidden, where)
}

// deepRow is the row of price px on one side from the whole book (grouped): its level's size and
// cumulative size, or, with no level there, no book size and the cumulative size before it.
func (p *Pane) deepRow(ask bool, px decimal.Decimal, own map[string]decimal.Decimal) row {
	r := row{ask: ask, price: px, own: own[sideKey(ask, px)], ownOnly: true}
	for _, l := range p.deepLevels(ask) {
		c := px.Cmp(l.Price)
		if c == 0 {
			r.size, r.cu, r.ownOnly = l.Size, l.Cum, false
			break
		}
		if (c < 0) == ask {
			break
		}
		r.cu = l.Cum
	}
	return r
}

// deepLevels is one side of the whole book at the current grouping, best first.
func (p *Pane) deepLevels(ask bool) []state.BookRow {
	v := p.Store.BookWindow(p.symbol, p.groupSize(), max(p.view.Levels[0], p.view.Levels[1]))
	if ask {
		return v.Asks
	}
	return v.Bids
}
