package history

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
	"github.com/tradedesk/tradedesk/ui/components/reportcard"
	"github.com/tradedesk/tradedesk/ui/export"
)

// Order history columns.
const (
	colTime = iota
	colInstrument
	colSide
	colType
	colPrice
	colSize
	colUnfilled
	colState
	colCloid
	colOid
)

// states are the state filter's choices in order ("" is every state).
var states = []string{"", api.StateOpen, api.StateFilled, api.StateCancelled, api.StateTriggered}

// Pane lists the account's order history, newest first, filtered by instrument and state,
// paged like the fills pane.
type Pane struct {
	*pagedlist.List
	all     []api.OrderRecord
	rows    []int // indexes into all that pass the filters
	version [2]uint64
	instr   string // "" = every instrument
	state   int    // index into states
	// stateShort: a partly filled order's State is "partly filled" without its size, the pane
	// having no room for it (fitWidths).
	stateShort bool
	// widthsStale: the rows changed since the columns were fitted; View fits them, so a pane not
	// drawn (a tab behind another) does not format every row at each streamed order record.
	widthsStale bool
	emptyMsg    string
}

// New is the order history pane.
func New(c *common.Common, ex api.Exchange) *Pane {
	p := &Pane{emptyMsg: "no orders in the history yet"}
	if common.ExchangeAddress(ex) == "" {
		p.emptyMsg = common.NoAccount("order history")
	}
	p.List = pagedlist.New(c, ex, source, columns(), p.cell, p.emptyMsg)
	p.Tbl.Follow(func(row int) string { return strconv.FormatUint(uint64(p.all[p.rows[row]].OrderID), 10) })
	return p
}

// columns are the history's columns at their narrowest widths: fitWidths makes the figures
// as wide as their cells and gives Type the room left over.
func columns() []common.Column {
	return []common.Column{
		common.Col("Time", 14, false, 0), common.Col("Instrument", 10, false, 0), common.Col("Side", 4, false, 0), common.Col("Type", typeMin, false, 0),
		common.Col("Price", 10, true, 0), common.Col("Size", 10, true, 0), common.Col("Unfilled", 10, true, 1), common.Col("State", 9, false, 0),
		common.Col("Cloid", 36, false, 3), common.Col("Order id", 9, true, 2),
	}
}

// typeMin is the Type column's width before it takes the room left over.
const typeMin = 13

// vitalShown reports whether every priority-0 column (Time to Price, Size and State) is shown: the
// table may skip one that does not fit and show a cheaper one, so the count alone cannot say.
func (p *Pane) vitalShown(cols []common.Column) bool {
	for c, col := range cols {
		if col.Prio == 0 && !slices.Contains(p.Tbl.Visible, c) {
			return false
		}
	}
	return true
}

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.List.SetSize(w, h)
	p.fitWidths()
}

// fitWidths makes Price, Size, Unfilled, State and Order id as wide as their widest cells (or
// titles), then lets Type take the room the shown columns leave, up to its widest cell: a
// bracket's "sl @179.830 bracket RO" is cut only when the pane has no room for it (QA 13b #9).
// When State's "partly filled 29.249" would push a vital column out, it says "partly filled"
// (the sizes beside it say how much).
func (p *Pane) fitWidths() {
	p.stateShort, p.widthsStale = false, false
	if p.fitWith(); !p.vitalShown(columns()) {
		p.stateShort = true
		p.fitWith()
	}
}

// fitWith is fitWidths with State's words as p.stateShort says.
func (p *Pane) fitWith() {
	cols := columns()
	ws := make([]int, len(cols))
	fitted := []int{colPrice, colSize, colUnfilled, colState, colOid}
	for _, c := range fitted {
		ws[c] = common.TextWidth(cols[c].Title)
	}
	ws[colState] = cols[colState].Width // "cancelled", "triggered"
	widest := typeMin
	for r := range p.rows {
		for _, c := range fitted {
			text, _ := p.cell(r, c)
			ws[c] = max(ws[c], common.TextWidth(text))
		}
		text, _ := p.cell(r, colType)
		widest = max(widest, common.TextWidth(text))
	}
	// A whole type comes before the columns that go first when narrow (Unfilled, the ids).
	ws[colType] = widest
	if p.Tbl.SetWidths(ws); p.vitalShown(cols) {
		return
	}
	ws[colType] = typeMin
	p.Tbl.SetWidths(ws) // the columns shown with Type at its narrowest
	used := 1           // the selection marker
	for j, c := range p.Tbl.Visible {
		if j > 0 {
			used++
		}
		if ws[c] <= 0 {
			ws[c] = cols[c].Width
		}
		used += ws[c]
	}
	ws[colType] += max(min(widest-typeMin, p.Tbl.Width-used), 0)
	p.Tbl.SetWidths(ws)
}

// source is the account's order history, a page at a time.
var source = pagedlist.Source{
	Kind: state.KindHistory, Every: func(iv state.Intervals) time.Duration { return iv.History }, Evicted: (*state.Store).HistoryEvicted, WatchTrades: true,
	Next: (*state.Store).NextHistoryPage,
	// An order closing comes with the orders stream, and the list polls on it (state.TradeWatch).
	Follows: []state.Kind{state.KindOrders},
	Page: func(ex api.Exchange, user string, page int) feed.Request {
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			pg, err := ex.OrderHistory(ctx, user, api.PageParams{Page: page, Limit: common.PageSize})
			return state.HistoryMsg{Gen: gen, At: at, Page: pg}, err
		}
	},
}

// Title implements common.Pane.
func (p *Pane) Title() string {
	if p.filtered() {
		return "Order history (" + strconv.Itoa(len(p.rows)) + " of " + strconv.Itoa(len(p.all)) + ")"
	}
	return "Order history (" + strconv.Itoa(len(p.all)) + ")"
}

func (p *Pane) filtered() bool { return p.instr != "" || p.state != 0 }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if cmd, handled, refresh := p.Handle(msg); handled {
		if refresh {
			p.refresh(false)
		}
		return cmd
	}
	if msg, ok := msg.(tea.KeyMsg); ok {
		return p.handleKey(msg)
	}
	return nil
}

// refresh takes the store's history and applies the filters; rows new on top keep the cursor on
// the order it was on.
func (p *Pane) refresh(force bool) {
	v := [2]uint64{p.Store.Version(state.KindHistory), p.Store.Version(state.KindInstruments)}
	if v == p.version && !force {
		return
	}
	p.version = v
	p.all = p.Store.History()
	p.rows = p.rows[:0]
	for i := range p.all {
		o := &p.all[i]
		if (p.instr == "" || o.Instrument == p.instr) && (p.state == 0 || o.State == states[p.state]) {
			p.rows = append(p.rows, i)
		}
	}
	p.Tbl.Empty = p.emptyMsg
	if p.filtered() {
		p.Tbl.Empty = "no " + p.filterText() + " orders loaded: s/i change the filter"
	}
	p.Tbl.SetRows(len(p.rows))
	p.widthsStale = true
}

func (p *Pane) filterText() string {
	var parts []string
	if p.state != 0 {
		parts = append(parts, states[p.state])
	}
	if p.instr != "" {
		parts = append(parts, p.instr)
	}
	return strings.Join(parts, " ")
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, ok := p.Exp.Key(msg, p.Keys, p.Ex, export.History, p.Clock); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, p.Keys.FilterState):
		p.state = (p.state + 1) % len(states)
		p.refresh(true)
		p.Tbl.MoveTo(0)
		return nil
	case key.Matches(msg, p.Keys.Pick):
		if i := p.Tbl.Selected(); i >= 0 && i < len(p.rows) {
			return reportcard.OpenOrder(p.all[p.rows[i]])
		}
		return nil
	case key.Matches(msg, p.Keys.FilterInstrument):
		p.instr = nextInstrument(p.instr, p.Instrument(), p.all)
		p.refresh(true)
		p.Tbl.MoveTo(0)
		return nil
	}
	if !p.Tbl.Navigate(p.Keys, msg) {
		return nil
	}
	return p.LoadMore(len(p.all))
}

// nextInstrument cycles the instrument filter: every instrument, the current one, then each other
// instrument in the history by name.
func nextInstrument(cur, current string, all []api.OrderRecord) string {
	seen := map[string]bool{}
	var names []string
	for i := range all {
		n := all[i].Instrument
		if !seen[n] && n != current {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	cycle := []string{""}
	if current != "" {
		cycle = append(cycle, current)
	}
	cycle = append(cycle, names...)
	for i, n := range cycle {
		if n == cur {
			return cycle[(i+1)%len(cycle)]
		}
	}
	return ""
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	o := &p.all[p.rows[row]]
	st := p.Styles
	in, _ := p.Store.Instrument(o.Instrument)
	switch col {
	case colTime:
		return common.FmtStamp(o.Timestamp), st.Muted
	case colInstrument:
		return o.Instrument, st.Bold
	case colSide:
		return strings.ToUpper(state.SideText(o.Side)), common.SidePaint(st, o.Side)
	case colType:
		return common.OrderType(o, in), st.Muted
	case colPrice:
		if o.IsMarket {
			return "market", st.Muted
		}
		return in.PriceText(o.LimitPrice), st.Text
	case colSize:
		return in.SizeText(o.Size), st.Text
	case colUnfilled:
		if o.Unfilled.IsZero() {
			return "-", st.Muted
		}
		return in.SizeText(o.Unfilled), st.Text
	case colState:
		text := state.RecordStateText(o, in)
		if strings.HasPrefix(text, state.PartlyFilled) {
			if p.stateShort {
				text = state.PartlyFilled
			}
			return text, st.Warn
		}
		return text, statePaint(st, o.State)
	case colCloid:
		return o.Cloid, st.Muted
	case colOid:
		return strconv.FormatUint(uint64(o.OrderID), 10), st.Muted
	}
	return "", common.Paint{}
}

func statePaint(st *common.Styles, s string) common.Paint {
	switch s {
	case api.StateFilled:
		return st.Good
	case api.StateOpen, api.StateTriggered:
		return st.Accent
	}
	return st.Muted
}

// View implements common.Pane.
func (p *Pane) View() string {
	if p.widthsStale {
		p.fitWidths()
	}
	if !p.filtered() && common.ExchangeAddress(p.Ex) != "" {
		p.Tbl.Empty = common.EmptyFor(p.Store, state.KindHistory, p.emptyMsg)
	}
	return p.Body(func() string {
		f := "all"
		if p.filtered() {
			f = p.filterText()
		}
		return "filter: " + f + " (s state, i instrument) · " + p.Hint(len(p.all))
	})
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.Keys
	return []key.Binding{k.Up, k.Down, k.FilterState, k.FilterInstrument, k.ExportCSV, k.ExportJSON}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.FilterState, k.FilterInstrument, reportcard.Key(k), k.ExportCSV, k.ExportJSON, k.ExportStop}}
}

// Records are the orders loaded, newest first, before the filters.
func (p *Pane) Records() []api.OrderRecord { return p.all }
