package tickers

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// Ticker columns.
const (
	tcFav = iota
	tcName
	tcMark
	tcLast
	tcChange
	tcBid
	tcAsk
	tcMid
	tcFunding
	tcOI
	tcVolume
	tcCount
)

// Pane lists every instrument's ticker: sortable, filterable, with favourites.
type Pane struct {
	*common.Common
	tbl     *common.Table
	rows    []int // indexes into tickers, in display order
	tickers []api.Ticker
	// spare is the list taken before tickers, whose memory the next refresh copies into: the
	// pane alternates two lists (it compares the new with the last for flashes) and allocates
	// none a change (issue #34).
	spare   []api.Ticker
	version [2]uint64 // store versions of tickers and instruments last rendered
	// fittedTo is how many tickers the Instrument column was last fitted to.
	fittedTo int
	sortCol  int
	desc     bool
	filter   textinput.Model
	editing  bool
	favs     map[string]bool
	favOnly  bool
	flashes  map[string]flash
	prec     map[string]int32
	w, h     int
	// drawn is what each row on screen was last drawn from, by row (redrawRows).
	drawn    []rowKey
	midShown bool // the Mid column is shown (redrawRows)
	shown    bool // the filter line is shown (the table is one line shorter)
	foot     bool // the last line is the selected perpetual's funding (fitFoot)
	// watchChecked: the watchlist was checked against the instruments (once, when they load).
	watchChecked bool
}

// New is the tickers pane; the watchlist's instruments are favourites, listed first.
func New(c *common.Common, watchlist []string) *Pane {
	p := &Pane{Common: c, sortCol: tcName, favs: map[string]bool{},
		flashes: map[string]flash{}, prec: map[string]int32{}}
	for _, w := range watchlist {
		p.favs[w] = true
	}
	p.filter = textinput.New()
	p.filter.Prompt = "/"
	p.filter.Placeholder = "filter instruments"
	p.filter.CharLimit = 32
	p.filter.Cursor.SetMode(cursor.CursorStatic)
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col("★", 1, false, 0), common.Col("Instrument", 12, false, 0), common.Col("Mark", 11, true, 0), common.Col("Last", 12, true, 2),
		common.Col("24h %", 8, true, 0), common.Col("Bid", 12, true, 1), common.Col("Ask", 12, true, 1), common.Col("Mid", 12, true, 4),
		common.Col("Funding", 11, true, 3), common.Col("Open int.", 11, true, 3), common.Col("Vol 24h", 9, true, 2),
	}, p.cell)
	p.setSortTitles()
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string {
	t := "Tickers"
	if p.favOnly {
		t += " ★"
	}
	if f := p.filter.Value(); f != "" {
		t += " /" + f
	}
	return t
}

// WantHeight implements heightWanter: every instrument, the header and the filter line (or, while
// the filter is not shown, the funding foot).
func (p *Pane) WantHeight() int {
	if len(p.tickers) == 0 {
		return 1 << 20
	}
	return len(p.tickers) + 2
}

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindTickers, state.KindMids} }

// Capturing implements inputCapturer: while the filter is edited it takes every key.
func (p *Pane) Capturing() bool { return p.editing }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.filter.Width = max(w-4, 1)
	p.fitTable()
}

func (p *Pane) fitTable() {
	p.shown = p.editing || p.filter.Value() != ""
	h := p.h
	if p.shown {
		h--
	}
	p.tbl.SetSize(p.w, h)
	p.fitFoot(h)
	if len(p.tbl.Visible) > 0 && !p.visible(p.sortCol) {
		// A narrower pane hid the sort column: the list would be in an order no header shows.
		p.sortCol, p.desc = tcName, false
		p.setSortTitles()
		p.resort()
	}
}

// visible reports whether column c is shown at the current width.
func (p *Pane) visible(c int) bool { return slices.Contains(p.tbl.Visible, c) }

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) { p.tbl.SetFocused(f) }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		if msg.Kind == state.KindTickers || msg.Kind == state.KindMids || msg.Kind == state.KindInstruments {
			return p.refresh()
		}
	case FlashEndMsg:
		return p.endFlashes(msg.At)
	case tea.KeyMsg:
		if p.editing {
			return p.updateFilter(msg)
		}
		return p.handleKey(msg)
	}
	return nil
}

func (p *Pane) updateFilter(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, p.Keys.TextSubmit):
		p.editing = false
		p.filter.Blur()
		p.fitTable()
		return nil
	case key.Matches(msg, p.Keys.Dismiss):
		p.editing = false
		p.filter.Blur()
		p.filter.SetValue("")
		p.fitTable()
		p.resort()
		return nil
	}
	before := p.Selected()
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(msg)
	p.resort()
	// The filter hid the current instrument: the order form and the chart follow the row the
	// cursor is on now, not an instrument no longer listed.
	if s := p.Selected(); s != before && s != "" {
		return tea.Batch(cmd, common.SelectInstrument(s, "", false))
	}
	return cmd
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	before := p.Selected()
	cmd := p.handleListKey(msg)
	if s := p.Selected(); cmd == nil && s != before && s != "" {
		return common.SelectInstrument(s, "", false)
	}
	return cmd
}

func (p *Pane) handleListKey(msg tea.KeyMsg) tea.Cmd {
	if p.tbl.Navigate(p.Keys, msg) {
		return nil
	}
	k := p.Keys
	switch {
	case key.Matches(msg, k.Sort):
		p.sortCol = p.nextSortCol()
		p.setSortTitles()
		p.resort()
	case key.Matches(msg, k.SortReverse):
		p.desc = !p.desc
		p.setSortTitles()
		p.resort()
	case key.Matches(msg, k.Filter):
		p.editing = true
		p.fitTable()
		return p.filter.Focus()
	case key.Matches(msg, k.Favourite):
		if s := p.Selected(); s != "" {
			// The cursor stays on its line (the row toggled moves to its new place): the next f
			// acts on the row the trader sees under the cursor, and the current instrument
			// follows it (handleKey).
			at := p.tbl.Cursor
			p.favs[s] = !p.favs[s]
			p.resort()
			p.tbl.MoveTo(at)
		}
	case key.Matches(msg, k.WatchOnly):
		p.favOnly = !p.favOnly
		p.resort()
	case key.Matches(msg, k.Pick):
		return p.pick("")
	case key.Matches(msg, k.Buy):
		return p.pick(api.SideBuy)
	case key.Matches(msg, k.Sell):
		return p.pick(api.SideSell)
	case key.Matches(msg, k.BuyMarket):
		return p.pickMarket(api.SideBuy)
	case key.Matches(msg, k.SellMarket):
		return p.pickMarket(api.SideSell)
	case key.Matches(msg, k.Alert):
		return p.alertLine()
	}
	return nil
}

// alertLine opens the command line on an alert at the selected ticker's mark: the trader edits
// the level and the direction.
func (p *Pane) alertLine() tea.Cmd {
	s := p.Selected()
	t, ok := p.Store.Ticker(s)
	if s == "" || !ok || !t.MarkPrice.IsPositive() {
		return nil
	}
	dp := min(max(-t.MarkPrice.Exponent(), 1), 8)
	return cmdline.Prefill("alert " + s + " mark > " + common.FmtNum(t.MarkPrice, dp))
}

func (p *Pane) pick(side string) tea.Cmd {
	s := p.Selected()
	if s == "" {
		return nil
	}
	if side != "" && p.ReadOnly != "" {
		return tea.Batch(common.SelectInstrument(s, side, true), common.ReadOnlyNotice(p.ReadOnly, state.SideText(side)+" "+s))
	}
	return common.SelectInstrument(s, side, true)
}

// pickMarket starts a market order on side for the selected instrument.
func (p *Pane) pickMarket(side string) tea.Cmd {
	s := p.Selected()
	if s == "" {
		return nil
	}
	if p.ReadOnly != "" {
		return tea.Batch(common.SelectInstrument(s, side, true), common.ReadOnlyNotice(p.ReadOnly, state.SideText(side)+" "+s))
	}
	return common.SelectMarketOrder(s, side)
}

// Click implements clicker: the header sorts, a row selects its instrument.
func (p *Pane) Click(x, y int) tea.Cmd {
	if y == 0 {
		if c := p.tbl.ColAt(x); c > tcFav {
			if c == p.sortCol {
				p.desc = !p.desc
			}
			p.sortCol = c
			p.setSortTitles()
			p.resort()
		}
		return nil
	}
	if p.tbl.ClickRow(y) {
		return common.SelectInstrument(p.Selected(), "", false)
	}
	return nil
}

// Selected is the instrument under the cursor ("" when the list is empty).
func (p *Pane) Selected() string {
	if p.tbl.Cursor < 0 || p.tbl.Cursor >= len(p.rows) {
		return ""
	}
	return p.tickers[p.rows[p.tbl.Cursor]].Symbol
}

// refresh takes the store's tickers when they changed, starts flashes for moved marks, and
// puts the rows in order. Rows render lazily in View, only those on screen and of them only
// those that changed (redrawRows).
func (p *Pane) refresh() tea.Cmd {
	v := [2]uint64{p.Store.Version(state.KindTickers) + p.Store.Version(state.KindMids), p.Store.Version(state.KindInstruments)}
	if v == p.version {
		return nil
	}
	instrumentsChanged := v[1] != p.version[1]
	p.version = v
	before := p.tickers
	p.tickers = p.Store.AppendTickers(p.spare[:0])
	defer func() { p.spare = before }()
	if instrumentsChanged {
		clear(p.prec)
		p.tbl.Invalidate() // the rows' decimals and spot markets are the instruments'
	}
	if instrumentsChanged || len(p.tickers) != p.fittedTo {
		// Refit when the list changes, not on every tick: instruments may load before the
		// first tickers, and an empty list fits nothing.
		p.fitNameColumn()
	}
	flashing := p.startFlashes(before) || len(p.flashes) > 0
	p.reorder(before)
	var cmds []tea.Cmd
	if p.Instrument() == "" && len(p.rows) > 0 {
		// The form starts on the first instrument listed.
		cmds = append(cmds, common.SelectInstrument(p.Selected(), "", false))
	}
	if instrumentsChanged && !p.watchChecked {
		if cmd := p.checkWatchlist(); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	if flashing {
		cmds = append(cmds, p.endFlashes(p.Clock())) // those due end in this frame
	}
	return tea.Batch(cmds...)
}

// View implements common.Pane.
func (p *Pane) View() string {
	p.tbl.Empty = common.EmptyFor(p.Store, state.KindTickers, "no instrument matches")
	lines := make([]string, 0, p.tbl.Height+2)
	if p.shown {
		// The input's view holds escape codes (its cursor): fit it by its cells, not its bytes.
		lines = append(lines, common.FitStyled(p.filter.View(), p.tbl.Width))
	}
	p.redrawRows()
	lines = p.tbl.Lines(lines)
	if p.foot {
		lines = append(lines, p.footLine())
	}
	return strings.Join(lines, "\n")
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.Keys
	if p.editing {
		return []key.Binding{k.Submits("keep the filter"), k.Dismiss}
	}
	return []key.Binding{k.Pick, k.Buy, k.Sell, k.BuyMarket, k.SellMarket, k.Sort, k.Filter}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Pick, k.Buy, k.Sell, k.BuyMarket, k.SellMarket},
		{k.Sort, k.SortReverse, k.Filter, k.Favourite, k.WatchOnly},
	}
}

// Shown is the instruments listed, in the order shown (after the filter, favourites and sort).
func (p *Pane) Shown() []string {
	out := make([]string, len(p.rows))
	for i, r := range p.rows {
		out[i] = p.tickers[r].Symbol
	}
	return out
}

// Flashing is how many prices are flashing after a move.
func (p *Pane) Flashing() int { return len(p.flashes) }
