package sim

import (
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// bracket ties take-profit and stop-loss trigger orders to what they protect: an entry order
// (grouping "normal", sent in the same request just before them) or the account's whole position
// on the instrument (grouping "position"). Children of an entry wait, unarmed, until the entry
// fills; they cover what it has filled; they die with an entry cancelled before any fill. Every
// child dies with the position it protects, and when the order a child fired fills, its sibling
// is cancelled (one cancels the other).
type bracket struct {
	acct     *account
	mkt      *market
	parent   *order   // the entry; nil for a position bracket
	sent     int64    // lots each child was sent with (normal brackets)
	armed    bool     // children are in the market's trigger list
	guarded  bool     // since it was armed, a position its children close has existed
	children []*order // the waiting TP/SL orders
	fired    []*order // the orders the children placed when they fired
}

// bracketRole is what one order of a placeOrder request is to a bracket.
type bracketRole struct {
	entry  int   // index of the entry a normal child belongs to; -1 for an entry or ungrouped order
	err    error // why the order's bracket is refused before anything is placed
	parent bool  // the order is a bracket's entry
}

// planBrackets reads the brackets of a placeOrder request and checks their shape before
// anything is placed. A grouping "normal" order with no tpsl opens a bracket: its entry; the
// "normal" tp and sl orders right after it (at most one of each) are its children. A malformed
// bracket is refused as a whole: the entry and every child get the error.
func (e *engine) planBrackets(a *account, ws []api.OrderWire) []bracketRole {
	roles := make([]bracketRole, len(ws))
	cur := -1
	for i := range ws {
		roles[i].entry = -1
		w := &ws[i]
		switch {
		case w.Grouping == api.GroupingNormal && w.Tpsl == "":
			cur = i
			roles[i].parent = true
		case w.Grouping == api.GroupingNormal:
			if cur < 0 {
				roles[i].err = fmt.Errorf("%s order with grouping normal follows no entry: send the entry (grouping normal, tpsl \"\") just before its take-profit and stop-loss", tpslWord(w.Tpsl))
				continue
			}
			roles[i].entry = cur
		case w.Grouping == api.GroupingPosition:
			cur = -1
			roles[i].err = e.checkPositionChild(a, w)
		default:
			cur = -1
		}
	}
	for i := range ws {
		if !roles[i].parent {
			continue
		}
		var kids []int
		for j := i + 1; j < len(ws) && roles[j].entry == i; j++ {
			kids = append(kids, j)
		}
		if err := e.checkBracket(ws, i, kids); err != nil {
			roles[i].err = err
			for _, j := range kids {
				roles[j].err = err
			}
		}
	}
	return roles
}

func tpslWord(t string) string {
	if t == api.TpslTakeProfit {
		return "take-profit"
	}
	return "stop-loss"
}

// checkBracket checks an entry and its children: one instrument, an entry that is a plain
// order, children that are reduce-only triggers of the opposite side and the entry's size, at
// most one take-profit and one stop-loss, each trigger on its own side of the entry price (the
// limit price, or the mark for a market entry: entryPrice).
func (e *engine) checkBracket(ws []api.OrderWire, i int, kids []int) error {
	p := &ws[i]
	if len(kids) == 0 {
		return fmt.Errorf("bracket entry (order %d) has no take-profit or stop-loss after it: send them right after it with grouping normal, or send the entry with grouping \"\"", i+1)
	}
	if p.TriggerPx != "" || p.ReduceOnly {
		return fmt.Errorf("bracket entry (order %d) must be a plain order: no triggerPx, not reduce-only", i+1)
	}
	m, err := e.market(p.InstrumentID)
	if err != nil {
		return err
	}
	ref, err := entryPrice(m, p)
	if err != nil {
		return err
	}
	refName, why := "the entry price", ""
	if p.IsMarket {
		refName, why = "the mark", " (a market entry's take-profit and stop-loss are judged against the mark, not its fill)"
	}
	seen := map[string]bool{}
	for _, j := range kids {
		c := &ws[j]
		if seen[c.Tpsl] {
			return fmt.Errorf("bracket of order %d has two %s orders: send at most one take-profit and one stop-loss", i+1, tpslWord(c.Tpsl))
		}
		seen[c.Tpsl] = true
		if err := checkChildShape(p, c, j); err != nil {
			return err
		}
		trig, err := decimal.NewFromString(c.TriggerPx)
		if err != nil {
			return fmt.Errorf("order %d: triggerPx %q is not a decimal", j+1, trunc(c.TriggerPx, 30))
		}
		if err := triggerSide(p.Side == api.SideBuy, c.Tpsl, trig, ref, refName); err != nil {
			return fmt.Errorf("order %d: %w%s", j+1, err, why)
		}
	}
	return nil
}

// checkChildShape checks one child of a bracket against its entry.
func checkChildShape(p, c *api.OrderWire, j int) error {
	switch {
	case c.InstrumentID != p.InstrumentID:
		return fmt.Errorf("order %d: a bracket's %s must be on its entry's instrument %d, not %d", j+1, tpslWord(c.Tpsl), p.InstrumentID, c.InstrumentID)
	case c.Side == p.Side:
		return fmt.Errorf("order %d: a bracket's %s must be on the side opposite its entry", j+1, tpslWord(c.Tpsl))
	case !c.ReduceOnly:
		return fmt.Errorf("order %d: a bracket's %s must be reduce-only (ro true)", j+1, tpslWord(c.Tpsl))
	case c.TriggerPx == "":
		return fmt.Errorf("order %d: a bracket's %s needs a triggerPx", j+1, tpslWord(c.Tpsl))
	}
	ps, err1 := decimal.NewFromString(p.Size)
	cs, err2 := decimal.NewFromString(c.Size)
	if err1 != nil || err2 != nil || !ps.Equal(cs) {
		return fmt.Errorf("order %d: a bracket's %s must have its entry's size %s, not %s", j+1, tpslWord(c.Tpsl), trunc(p.Size, 30), trunc(c.Size, 30))
	}
	return nil
}

// entryPrice is the price a bracket's triggers are judged against: the entry's limit price, or
// the mark for a market entry.
func entryPrice(m *market, p *api.OrderWire) (decimal.Decimal, error) {
	if p.IsMarket {
		return m.markPx(), nil
	}
	v, err := decimal.NewFromString(p.Price)
	if err != nil {
		return v, fmt.Errorf("bracket entry price %q is not a decimal", trunc(p.Price, 30))
	}
	return v, nil
}

// triggerSide checks that a take-profit or stop-loss of a position on side long (or short)
// lies on its own side of ref: a long's take-profit above, its stop-loss below; a short's the
// other way round.
func triggerSide(long bool, tpsl string, trig, ref decimal.Decimal, refName string) error {
	above := trig.GreaterThan(ref)
	want := long == (tpsl == api.TpslTakeProfit) // want the trigger above ref
	if above == want && !trig.Equal(ref) {
		return nil
	}
	side, dir := "long", "above"
	if !long {
		side = "short"
	}
	if !want {
		dir = "below"
	}
	return fmt.Errorf("%s trigger %s of a %s must lie %s %s %s", tpslWord(tpsl), trig, side, dir, refName, ref)
}

// checkPositionChild checks a grouping "position" order: a reduce-only take-profit or stop-loss
// that closes the account's position, its trigger on its own side of the mark.
func (e *engine) checkPositionChild(a *account, w *api.OrderWire) error {
	if w.Tpsl == "" || w.TriggerPx == "" || !w.ReduceOnly {
		return fmt.Errorf("an order with grouping position is a position take-profit or stop-loss: it needs tpsl tp or sl, a triggerPx and ro true")
	}
	m, err := e.market(w.InstrumentID)
	if err != nil {
		return err
	}
	p := a.pos[m.id]
	if p == nil || p.size == 0 {
		return fmt.Errorf("position %s on %s needs a position: there is none", tpslWord(w.Tpsl), m.name)
	}
	long := p.size > 0
	if (w.Side == api.SideBuy) == long {
		return fmt.Errorf("position %s on %s must be on the side that closes the position", tpslWord(w.Tpsl), m.name)
	}
	trig, err := decimal.NewFromString(w.TriggerPx)
	if err != nil {
		return fmt.Errorf("triggerPx %q is not a decimal", trunc(w.TriggerPx, 30))
	}
	return triggerSide(long, w.Tpsl, trig, m.markPx(), "the mark")
}

// joinBracket files a placed order with its bracket: an entry opens one, a child joins its
// entry's, a position child joins (or opens) its position's and replaces the one of its kind it
// had.
func (e *engine) joinBracket(o *order, role bracketRole, placed []*order) {
	switch {
	case role.parent:
		b := &bracket{acct: o.acct, mkt: o.mkt, parent: o, sent: o.size}
		o.grp = b
		e.brackets = append(e.brackets, b)
	case role.entry >= 0:
		b := placed[role.entry].grp
		o.grp = b
		b.children = append(b.children, o)
		if b.armed {
			e.arm(b, o)
		}
	case o.grouping == api.GroupingPosition:
		b := e.positionBracket(o.acct, o.mkt)
		for _, c := range b.children {
			if c.tpsl == o.tpsl && c.state == api.StateOpen {
				c.reason = "replaced by a new position " + tpslWord(o.tpsl)
				e.cancel(c)
			}
		}
		o.grp = b
		b.children = append(b.children, o)
	}
}

// positionBracket is the account's position bracket on a market, opened when missing.
func (e *engine) positionBracket(a *account, m *market) *bracket {
	for _, b := range e.brackets {
		if b.parent == nil && b.acct == a && b.mkt == m {
			return b
		}
	}
	b := &bracket{acct: a, mkt: m, armed: true}
	e.brackets = append(e.brackets, b)
	return b
}

// waits reports whether a just placed trigger order must wait, unarmed, for its entry to fill.
func (o *order) waits() bool {
	return o.grp != nil && o.grp.parent != nil && o.grp.parent != o && !o.grp.armed
}

// arm puts a waiting child in its market's trigger list, covering what its entry has filled.
func (e *engine) arm(b *bracket, c *order) {
	if c.state != api.StateOpen {
		return
	}
	c.size = b.parent.size - b.parent.rest
	c.rest = c.size
	e.touchOrder(c)
	if !slices.Contains(c.mkt.triggers, c) {
		c.mkt.triggers = append(c.mkt.triggers, c)
	}
}

// tidyBrackets applies the brackets' rules after anything that may have filled or cancelled
// orders: arms the children of entries that filled, follows an entry's growing fill, cancels
// the children of an entry cancelled unfilled, a child whose sibling's order filled, and the
// children of a position that is gone. Brackets with nothing left open are forgotten.
func (e *engine) tidyBrackets() {
	if len(e.brackets) == 0 {
		return
	}
	kept := e.brackets[:0]
	for _, b := range e.brackets {
		if e.tidy(b) {
			kept = append(kept, b)
		}
	}
	clear(e.brackets[len(kept):])
	e.brackets = kept
}

// tidy applies the rules to one bracket and reports whether it still has anything open.
func (e *engine) tidy(b *bracket) bool {
	if p := b.parent; p != nil {
		filled := p.size - p.rest
		switch {
		case filled == 0 && p.state != api.StateOpen:
			e.cancelChildren(b, "its bracket's entry was cancelled before it filled")
		case filled > 0: // arm, or follow a fill that grew since
			b.armed = true
			for _, c := range b.children {
				e.arm(b, c)
			}
		}
	}
	if b.armed {
		for _, f := range b.fired {
			if f.size > f.rest {
				e.cancelChildren(b, "its sibling "+tpslWord(f.tpsl)+" filled")
				break
			}
		}
		for _, c := range b.children {
			if c.state != api.StateOpen {
				continue
			}
			if e.closable(c) > 0 {
				b.guarded = true
				continue
			}
			c.reason = "the position it protected is closed"
			if !b.guarded && b.parent != nil {
				c.reason = "its entry filled against the account's opposite position and left no position on the entry's side for it to close"
			}
			e.cancel(c)
		}
	}
	return b.open()
}

// cancelChildren cancels a bracket's waiting children, saying why.
func (e *engine) cancelChildren(b *bracket, why string) {
	for _, c := range b.children {
		if c.state == api.StateOpen {
			c.reason = why
			e.cancel(c)
		}
	}
}

// open reports whether any of a bracket's orders is still open.
func (b *bracket) open() bool {
	if b.parent != nil && b.parent.state == api.StateOpen {
		return true
	}
	for _, o := range slices.Concat(b.children, b.fired) {
		if o.state == api.StateOpen {
			return true
		}
	}
	return false
}
