package ladder

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// flashFor is how long a changed level stays marked.
const flashFor = 700 * time.Millisecond

// groups are the grouping steps, in ticks.
var groups = []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}

// FlashEndMsg ends the level flashes that started before At.
type FlashEndMsg struct{ At time.Time }

// TradeMsg asks the root to open the order form on Symbol, Side, at Price (limit), with the
// instrument's default size when one is configured.
type TradeMsg struct {
	Symbol, Side string
	Price        decimal.Decimal
}

// row is one drawn level: its side, price, size, cumulative size and own size.
type row struct {
	ask             bool
	price, size, cu decimal.Decimal
	own             decimal.Decimal
	blank           bool   // no level here (a side shorter than its half of the pane)
	ownOnly         bool   // the trader's order at a price the fetched book has no level at
	hint            string // "↑ 2 of your orders above": own orders beyond the levels shown
}

// selectable reports whether the cursor may rest on the row (a level, not a blank or a hint).
func (r row) selectable() bool { return !r.blank && r.hint == "" }

type flash struct {
	until time.Time
	mark  string // ▲ grew, ▼ shrank, • new
}

// Pane is the ladder.
type Pane struct {
	*common.Common
	w, h    int
	focused bool
	group   int            // index in groups
	groupOf map[string]int // the grouping chosen per instrument, kept while the trader looks at others
	cursor  int            // row index among the price rows (asks first, top to bottom), placed on at
	// at is the price the cursor is on: rows are rebuilt around it as the book moves, so b, s and
	// x act on the price the trader chose, not on whatever level slid under a row number.
	at level
	// choosing holds the trader's orders on a grouped row x was pressed on: which to cancel.
	choosing []api.OrderRecord
	symbol   string
	in       state.Instrument
	view     state.BookView
	rows     []row
	prev     map[string]decimal.Decimal // side+price -> size at the last book
	flashes  map[string]flash
	flashOn  bool
	lines    string // the rendered pane
	dirty    bool
	price    textinput.Model // a typed price for the amend
	typing   bool
	version  [3]uint64 // book, orders, instruments versions rendered
}

// New is the ladder of the current instrument.
func New(c *common.Common) *Pane {
	p := &Pane{Common: c, prev: map[string]decimal.Decimal{}, flashes: map[string]flash{}, dirty: true, cursor: -1,
		groupOf: map[string]int{}}
	p.price = common.NewField("new price", 24)
	p.price.Prompt = "move to: "
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string {
	if p.group == 0 {
		return "Ladder"
	}
	return "Ladder ×" + decimal.NewFromInt(groups[p.group]).String()
}

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindBook} }

// Capturing implements common.InputCapturer: while a price is typed, or the trader picks which
// order to cancel, it takes every key.
func (p *Pane) Capturing() bool { return p.typing || len(p.choosing) > 0 }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.price.Width = max(w-12, 1)
	p.load()
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) { p.focused, p.dirty = f, true }

// halves is how many ask rows and bid rows fit: the header and the mid line take two lines, the
// asks get the upper half and the bids the lower, so the mid line stays in the middle.
func (p *Pane) halves() (asks, bids int) {
	n := max(p.h-2, 0)
	return n / 2, n - n/2
}

// tick is the instrument's tick (0.01 before instruments load).
func (p *Pane) tick() decimal.Decimal {
	if p.in.TickSize.IsPositive() {
		return p.in.TickSize
	}
	return decimal.New(1, -2)
}

// groupSize is the price step of the current grouping.
func (p *Pane) groupSize() decimal.Decimal {
	if p.group == 0 {
		return decimal.Zero
	}
	return p.tick().Mul(decimal.NewFromInt(groups[p.group]))
}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		switch msg.Kind {
		case state.KindBook, state.KindOrders, state.KindInstruments:
			return p.load()
		case state.KindTickers:
			// The ladder draws no ticker: tickers are the root's word that the current
			// instrument may have changed. A streamed batch of 500 instruments' tickers, the
			// same instrument, loads and draws nothing again (issue #34).
			if p.ShownInstrument() != p.symbol {
				return p.load()
			}
		}
	case FlashEndMsg:
		return p.endFlashes(msg.At)
	case tea.KeyMsg:
		if p.typing {
			return p.typePrice(msg)
		}
		if len(p.choosing) > 0 {
			return p.choose(msg)
		}
		return p.handleKey(msg)
	}
	return nil
}

// load reads the book window and own orders when they changed (or the instrument did), and
// starts flashes for levels whose size moved.
func (p *Pane) load() tea.Cmd {
	sym := p.ShownInstrument()
	v := [3]uint64{p.Store.Version(state.KindBook), p.Store.Version(state.KindOrders), p.Store.Version(state.KindInstruments)}
	if sym != p.symbol {
		p.symbol, p.cursor, p.at, p.choosing = sym, -1, level{}, nil
		p.group = p.groupOf[sym]
		clear(p.prev)
		clear(p.flashes)
		v[0] = ^uint64(0) // read it again below
	}
	if in, ok := p.Store.Instrument(sym); ok {
		p.in = in
	}
	asks, bids := p.halves()
	p.view = p.Store.BookWindow(sym, p.groupSize(), max(asks, bids))
	cmd := p.markChanges(v[0] != p.version[0])
	p.version = v
	p.buildRows(asks, bids)
	p.dirty = true
	return cmd
}

// markChanges compares the window with the last one: a level that grew or shrank at its price
// flashes ▲ or ▼, a new level between levels still there flashes •. The first book of an
// instrument or a grouping flashes nothing, and neither does a book requoted as a whole (most of
// its prices new: the makers moved every level, and a • on every row tells the trader nothing);
// a re-snapshot of an unchanged book changes no size and so marks nothing.
func (p *Pane) markChanges(bookMoved bool) tea.Cmd {
	if !bookMoved {
		return nil
	}
	now := p.Clock()
	first := len(p.prev) == 0
	seen := make(map[string]decimal.Decimal, len(p.view.Asks)+len(p.view.Bids))
	marks := map[string]string{}
	kept := 0
	for _, side := range []struct {
		tag  string
		rows []state.BookRow
	}{{"a", p.view.Asks}, {"b", p.view.Bids}} {
		for _, r := range side.rows {
			k := side.tag + r.Price.String()
			seen[k] = r.Size
			old, ok := p.prev[k]
			switch {
			case !ok:
				marks[k] = "•"
			case r.Size.GreaterThan(old):
				marks[k], kept = "▲", kept+1
			case r.Size.LessThan(old):
				marks[k], kept = "▼", kept+1
			default:
				kept++
			}
		}
	}
	p.prev = seen
	if first {
		return nil
	}
	requoted := 2*kept < len(seen) // most prices are new: the book moved as a whole
	started := false
	for k, mark := range marks {
		if mark == "•" && requoted {
			continue
		}
		p.flashes[k] = flash{until: now.Add(flashFor), mark: mark}
		started = true
	}
	if started && !p.flashOn {
		p.flashOn = true
		return common.Tea(p.Feed.After(flashFor, FlashEndMsg{At: now.Add(flashFor)}))
	}
	return nil
}

func (p *Pane) endFlashes(at time.Time) tea.Cmd {
	p.flashOn = false
	var next time.Time
	for k, f := range p.flashes {
		if !f.until.After(at) {
			delete(p.flashes, k)
		} else if next.IsZero() || f.until.Before(next) {
			next = f.until
		}
	}
	p.dirty = true
	if !next.IsZero() {
		p.flashOn = true
		return common.Tea(p.Feed.After(next.Sub(at), FlashEndMsg{At: next}))
	}
	return nil
}

// buildRows lays the window out: asks best nearest the mid (so reversed), bids below; a side
// with fewer levels than its half leaves blank rows at the far end. The trader's orders at prices
// the book has no level at (a book fetched before they rested, or cut short) get rows of their
// own in price order, and so does the cursor's price (see sideRows). The cursor goes back on its
// price.
func (p *Pane) buildRows(asks, bids int) {
	own := p.ownSizes()
	askRows := p.sideRows(own, true, asks)
	p.rows = p.rows[:0]
	for i := len(askRows) - 1; i >= 0; i-- {
		p.rows = append(p.rows, askRows[i])
	}
	p.rows = append(p.rows, p.sideRows(own, false, bids)...)
	p.placeCursor(asks)
}

// sideRows is the n rows of one side, best first: its levels with the trader's size on each and
// the trader's prices without a level among them; blank rows past a short side. When some of the
// trader's orders lie beyond the levels that fit, the far row says how many ("↑ 2 of your orders
// above"). The cursor's price always has a row: where it falls, with no book size when its level
// went, or, beyond the levels that fit, on the far row after a gap line (the trader went there
// with the next-own-order key or by moving past the far end).
func (p *Pane) sideRows(own map[string]decimal.Decimal, ask bool, n int) []row {
	levels := p.sideLevels(ask)
	mine := own
	pinned := p.at.set && p.at.ask == ask
	if pinned {
		mine = make(map[string]decimal.Decimal, len(own)+1)
		for k, v := range own {
			mine[k] = v
		}
		mine[sideKey(ask, p.at.price)] = own[sideKey(ask, p.at.price)]
	}
	shown := func(rows []row) bool {
		_, found := searchRows(rows, p.at.price, ask)
		return found || !pinned
	}
	rows := withOwn(levels, mine, ask, n)
	if n < 2 || (shown(rows) && p.hiddenOwn(rows, ask) == 0) {
		return padRows(rows, ask, n)
	}
	if rows = withOwn(levels, mine, ask, n-1); shown(rows) || n < 3 {
		return append(padRows(rows, ask, n-1), row{ask: ask, hint: p.ownHint(rows, ask, "")})
	}
	rows = withOwn(levels, mine, ask, n-2)
	far := p.deepRow(ask, p.at.price, own)
	gap := row{ask: ask, hint: p.ownHint(append(rows, far), ask, "⋮")}
	return append(padRows(rows, ask, n-2), gap, far)
}

func (p *Pane) sideLevels(ask bool) []state.BookRow {
	if ask {
		return p.view.Asks
	}
	return p.view.Bids
}

// hiddenOwn counts the trader's orders on one side whose (grouped) price has no row in rows.
func (p *Pane) hiddenOwn(rows []row, ask bool) int {
	n := 0
	for _, o := range p.ownOrders() {
		if (o.Side == api.SideSell) != ask {
			continue
		}
		px := state.GroupPrice(o.LimitPrice, p.groupSize(), !ask)
		if _, found := searchRows(rows, px, ask); !found {
			n++
		}
	}
	return n
}

// withOwn is up to n rows of one side (levels best first): the book's levels with the trader's
// size on each, and a row for each of the trader's prices on that side with no level, where its
// price falls (its cumulative size is the level's before it). A price beyond the last level goes
// after it only while the side has fewer than n levels: a longer side may hold levels between.
func withOwn(levels []state.BookRow, own map[string]decimal.Decimal, ask bool, n int) []row {
	out := make([]row, 0, n)
	for _, l := range levels {
		out = append(out, row{ask: ask, price: l.Price, size: l.Size, cu: l.Cum, own: own[sideKey(ask, l.Price)]})
	}
	tag := sideKey(ask, decimal.Zero)[:1]
	for k, sz := range own {
		px, err := decimal.NewFromString(strings.TrimPrefix(k, tag))
		if !strings.HasPrefix(k, tag) || err != nil {
			continue
		}
		i, found := searchRows(out, px, ask)
		if found || (i == len(out) && len(levels) >= n) {
			continue
		}
		cu := decimal.Zero
		if i > 0 {
			cu = out[i-1].cu
		}
		out = append(out, row{})
		copy(out[i+1:], out[i:])
		out[i] = row{ask: ask, price: px, cu: cu, own: sz, ownOnly: true}
	}
	return out[:min(len(out), n)]
}

// searchRows is where px goes in rows sorted best first (asks up, bids down), and whether a row
// has that price.
func searchRows(rows []row, px decimal.Decimal, ask bool) (int, bool) {
	for i, r := range rows {
		c := px.Cmp(r.price)
		if c == 0 {
			return i, true
		}
		if (c < 0) == ask {
			return i, false
		}
	}
	return len(rows), false
}

func sideKey(ask bool, px decimal.Decimal) string {
	if ask {
		return "a" + px.String()
	}
	return "b" + px.String()
}

// ownSizes sums the trader's open orders on this instrument by side and (grouped) price.
func (p *Pane) ownSizes() map[string]decimal.Decimal {
	out := map[string]decimal.Decimal{}
	for _, o := range p.ownOrders() {
		ask := o.Side == api.SideSell
		k := sideKey(ask, state.GroupPrice(o.LimitPrice, p.groupSize(), !ask))
		out[k] = out[k].Add(o.Unfilled)
	}
	return out
}

// ownOrders are the trader's open limit orders on the ladder's instrument.
func (p *Pane) ownOrders() []api.OrderRecord {
	var out []api.OrderRecord
	for _, o := range p.Store.Orders() {
		if strings.EqualFold(o.Instrument, p.symbol) && o.RestingLimit() {
			out = append(out, o)
		}
	}
	return out
}

// Cursor is the level under the cursor: its side (api.SideSell for an ask) and price; ok is false
// on a blank row.
func (p *Pane) Cursor() (side string, price decimal.Decimal, ok bool) {
	if p.cursor < 0 || p.cursor >= len(p.rows) || !p.rows[p.cursor].selectable() {
		return "", decimal.Zero, false
	}
	r := p.rows[p.cursor]
	if r.ask {
		return api.SideSell, r.price, true
	}
	return api.SideBuy, r.price, true
}

// Rows is how many price rows the ladder shows (asks and bids, blank ones included).
func (p *Pane) Rows() int { return len(p.rows) }

// MoveTo puts the cursor on row i (0 is the top ask row), kept among the levels: never on the
// blank rows beyond a short side or on a hint line. The cursor stays on that row's price.
func (p *Pane) MoveTo(i int) {
	first, last := -1, -1
	for j, r := range p.rows {
		if r.selectable() {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 {
		p.cursor = min(max(i, 0), max(len(p.rows)-1, 0))
		p.dirty = true
		return
	}
	i = min(max(i, first), last)
	for !p.rows[i].selectable() { // a hint line between levels: the next level down
		i++
	}
	p.cursor, p.dirty = i, true
	p.at = level{ask: p.rows[i].ask, price: p.rows[i].price, set: true}
}

// MoveToPrice puts the cursor on the row of price on the side given (api.SideBuy: bids); it
// reports whether that row is on screen.
func (p *Pane) MoveToPrice(side string, price decimal.Decimal) bool {
	for i, r := range p.rows {
		if r.selectable() && r.ask == (side == api.SideSell) && r.price.Equal(price) {
			p.MoveTo(i)
			return true
		}
	}
	return false
}

// Group is the grouping in ticks (1: none).
func (p *Pane) Group() int64 { return groups[p.group] }

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.Keys
	if p.typing {
		return []key.Binding{k.Submits("confirm"), k.Dismiss}
	}
	if len(p.choosing) > 0 {
		keys := k.LadderPick.Keys()[:len(p.choosing)]
		return []key.Binding{key.NewBinding(key.WithKeys(keys...), key.WithHelp(common.KeyName(k.LadderPick)+"-"+common.PrettyKey(keys[len(keys)-1]), k.LadderPick.Help().Desc)), k.Dismiss}
	}
	return []key.Binding{k.LadderBuy, k.LadderSell, k.LadderCancel, k.AmendUp, k.AmendPrice, k.GroupCoarser, k.LadderNextOwn}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.LadderBuy, k.LadderSell},
		{k.LadderCancel, k.AmendUp, k.AmendDown, k.AmendPrice},
		{k.GroupCoarser, k.GroupFiner, k.LadderNextOwn},
	}
}
