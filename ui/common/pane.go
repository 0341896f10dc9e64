package common

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
)

// Pane is one region of the console: a list, a form, a chart. The root model owns focus, layout and
// routing; a pane only draws itself into the size it is given and handles the keys and messages it
// is sent.
//
// To add a pane (a list, a chart, a form...):
//
//  1. Write a package ui/components/<name> with a type implementing Pane (embed *common.Common for
//     the store, styles, key map, clock and the current instrument; use a *common.Table for a list so
//     rows are cached and only on-screen rows render, a pagedlist.List for the account's paged
//     records; build every style from Styles, never in View). It reads existing bindings of the
//     KeyMap (common.KeyMap); a key of its own is a KeyMap field, its keyAction line and its
//     default in main's defaultKeys, so it can be rebound and is conflict-checked. A signed action
//     it asks for is an *action.Action (ui/action) returned with action.Request.
//  2. Add one line in the root's Model.addPanes: m.addPane(ladder.New(m.c), colLeft, 3, 0): the column of
//     the wide layout, its share of the column's height, and a fixed height (0 for none). Its number
//     key and tab order follow from its position; in the narrow layout it is a tab; where a column
//     has no room it is hidden and swaps in when focused. Several views can share one slot as a
//     pane group (common.NewGroup), switched with [ and ].
//  3. Data: react to DataMsg{Kind} in Update (the store changed) and keep rendered rows until the
//     store's Version(kind) moves. Where its data comes from (a poll, a stream, its own paged
//     requests) is the feed's business (state/feed): a pane with requests of its own adds a
//     feed.Task in its constructor (common.PaneTask: its kind, cadence and the request for
//     what it shows now), starts it on StartPanesMsg and sends one-off requests (a next page)
//     with Task.Send (a feed command becomes Bubble Tea's through Tea). Timers go through
//     Common.Feed.After, never tea.Tick, so tests can step them.
//  4. Messages: a message type of its own (a timer's, an async result's, one pane asking
//     another) needs no case in the root. The root handles the messages it owns (keys, the
//     feed's replies, actions, notices, the current instrument) and hands every other message
//     to every pane, inside groups too; each takes the types it owns and ignores the rest.
//
// That is all: one package and one line in the root. What opens over the panes and takes every
// key (a dialog, a view) is a Modal instead, pushed on the root's Stack where it opens (the top
// takes every key and Ctrl+C; it is popped once closed) and drawn by the root's View. A dialog
// is a type implementing Modal, pushed with its state (PushSole) and popped by its result; a
// component that keeps its own open state (the command line, the help) is an entry in the
// root's Model.newModals.
//
// To add a kind of data: one file in state (see state.Store), then one place in ui: a root poll
// is one entry in ui's pollSpecs (its cadence and its request, a field of Intervals when
// it is configurable); a pane's own data is the PaneTask line of step 3. A streamed kind is one
// more case in state/feed's streamMessage (the kind's upsert) and StreamKinds: the feed's one
// Source (Feed.AddSource) carries it by the same route.
//
// Optional interfaces: InputCapturer (a focused text input takes every key before any global
// binding), FormHolder (a form the trader is in takes Tab too), Clicker (mouse clicks inside the pane), KindsShower (its border shows the freshness of
// those kinds), WantHeight() int (a short list gives its spare lines to the panes below it).
type Pane interface {
	// Title is the pane's name, drawn in its border and its tab.
	Title() string
	// Update handles a key (only when focused), a mouse click, or a message every pane sees
	// (DataMsg after the store changed, tea.WindowSizeMsg is turned into SetSize).
	Update(msg tea.Msg) tea.Cmd
	// View draws the pane: exactly the height given to SetSize, each line exactly its width.
	View() string
	// SetSize gives the pane its inner size (inside the border).
	SetSize(width, height int)
	// SetFocused tells the pane whether it has the focus (it draws its cursor differently).
	SetFocused(focused bool)
	// ShortHelp is the footer's hint line when the pane has the focus.
	ShortHelp() []key.Binding
	// FullHelp is the pane's part of the `?` help.
	FullHelp() [][]key.Binding
}

// InputCapturer is a pane with a text input: while Capturing, every key goes to the pane first.
type InputCapturer interface {
	Capturing() bool
}

// FormHolder is a pane with a form of several fields. While the trader is in the form (InForm),
// every key goes to it first, Tab and shift+Tab included: they move between its fields as in every
// form. Esc leaves the form, and the pane keys (Tab to the next pane, the pane numbers) work again.
// Its ShortHelp in the form names the field keys and LeaveForm first (the root adds no key to it).
type FormHolder interface {
	InForm() bool
}

// FreshForm is a form the trader entered by its pane's number (or Tab) and has not typed into or
// moved in yet: the pane numbers, the help, the command line and the messages keys still act
// there (`4` then `5` goes to pane 5, it does not type "5" into the first field). The first other
// key is the form's, and from then on the field takes every key.
type FreshForm interface {
	Fresh() bool
}

// LeaveForm is the footer's and the help's hint for the key that leaves a form.
func LeaveForm(k *KeyMap) key.Binding {
	return key.NewBinding(key.WithKeys(k.Dismiss.Keys()...), key.WithHelp(k.Dismiss.Help().Key, "leave form"))
}

// LeaveField is the footer's hint inside a text field: the dismiss keys leave it.
func LeaveField(k *KeyMap) key.Binding {
	return key.NewBinding(key.WithKeys(k.Dismiss.Keys()...), key.WithHelp(KeyName(k.Dismiss), "leave field"))
}

// ScrollKeys is the hint of a view whose lines do not all fit: Up and Down scroll it ("↑/↓").
func ScrollKeys(k *KeyMap) key.Binding {
	return key.NewBinding(key.WithKeys(append(k.Up.Keys(), k.Down.Keys()...)...),
		key.WithHelp(KeyName(k.Up)+"/"+KeyName(k.Down), "scroll"))
}

// BackToForm is the hint, on a pane whose form the trader left, for the field keys that go into it
// (Tab is the pane key there): ↓/↑ by default.
func BackToForm(k *KeyMap) key.Binding {
	var keys, names []string
	for _, b := range []key.Binding{k.FieldNext, k.FieldPrev} {
		for _, kk := range b.Keys() {
			if !slices.Contains(k.NextPane.Keys(), kk) && !slices.Contains(k.PrevPane.Keys(), kk) {
				keys, names = append(keys, kk), append(names, PrettyKey(kk))
				break
			}
		}
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(names, "/"), "into the form"))
}

// Clicker is a pane that handles mouse clicks at (x, y) inside its inner area.
type Clicker interface {
	Click(x, y int) tea.Cmd
}

// KindsShower is a pane that shows data of these kinds; its border shows their freshness.
type KindsShower interface {
	Kinds() []state.Kind
}

// Common is what every pane shares: the store, styles, keys, clock and the trading guard.
type Common struct {
	Store  *state.Store
	Styles *Styles
	Keys   *KeyMap
	Clock  func() time.Time
	Guard  state.Guard
	// Intervals are the console's cadences (the config's [poll]; zero fields: the defaults).
	Intervals state.Intervals
	// Feed is the one scheduler: a pane with requests of its own adds a task to it, and its
	// timers (a price flash ending) run on the feed's clock, which tests step.
	Feed *feed.Feed
	// ReadOnly says why trading is off ("" when the console can trade).
	ReadOnly string
	// instrument is the current instrument (the order form's). Its one writer is the root model,
	// on an InstrumentMsg; panes ask for a change with SelectInstrument.
	instrument string
	// Account is the address watched or traded ("" when the console shows markets only).
	Account string
}

// Every is the cadence pick takes from the console's Intervals (zero fields: the defaults), for
// PaneTask.
func (c *Common) Every(pick func(state.Intervals) time.Duration) func() time.Duration {
	d := pick(c.Intervals.WithDefaults())
	return func() time.Duration { return d }
}

// Instrument is the current instrument ("" before one is picked).
func (c *Common) Instrument() string { return c.instrument }

// SetInstrument makes symbol the current instrument. Only the root model calls it (when an
// InstrumentMsg arrives), so every pane sees one current instrument.
func (c *Common) SetInstrument(symbol string) { c.instrument = symbol }

// ShownInstrument is the instrument the market panes show: the current one, or the first
// instrument by name until one is picked ("" before instruments load).
func (c *Common) ShownInstrument() string {
	if c.instrument != "" {
		return c.instrument
	}
	if names := c.Store.InstrumentNames(); len(names) > 0 {
		return names[0]
	}
	return ""
}

// DataMsg tells every pane that the store changed for Kind.
type DataMsg struct{ Kind state.Kind }

// InstrumentMsg sets the current instrument, and optionally the form's side and order type, and
// focuses the form.
type InstrumentMsg struct {
	Symbol string
	Side   string // "", api.SideBuy or api.SideSell
	Type   string // "" keeps the form's order type; "limit" or "market" starts one of that type
	Focus  bool
}

// SelectInstrument makes symbol the current instrument; with a side it starts a limit order on
// that side in the form (b, s), and focus puts the cursor in the form.
func SelectInstrument(symbol, side string, focus bool) tea.Cmd {
	typ := ""
	if side != "" {
		typ = "limit"
	}
	return func() tea.Msg { return InstrumentMsg{Symbol: symbol, Side: side, Type: typ, Focus: focus} }
}

// SelectMarketOrder makes symbol the current instrument and starts a market order on side in
// the form, the cursor in its size (B, S).
func SelectMarketOrder(symbol, side string) tea.Cmd {
	return func() tea.Msg { return InstrumentMsg{Symbol: symbol, Side: side, Type: "market", Focus: true} }
}

// NoticeMsg puts a line in the status bar (level: info, warn, error). A notice with a Key
// replaces the earlier line of the same key in the messages view instead of adding one: an
// order's fills, arriving in several batches, stay one line with the running total.
type NoticeMsg struct {
	Text  string
	Level NoticeLevel
	Key   string
}

// NoticesMsg is several notices in their order (the last one stays in the status line).
type NoticesMsg []NoticeMsg

// NoticeLevel is how a notice is marked: information, a warning or an error.
type NoticeLevel int

// The notice levels.
const (
	LevelInfo NoticeLevel = iota
	LevelWarn
	LevelError
	// LevelNote is neutral: something the trader chose not to do ("not sent: ..."), neither a
	// success to tick nor a fault to flag.
	LevelNote
)

// Mark is the glyph a notice of this level starts with, so its kind reads without colour:
// ✓ done, ! warning, ✗ error, ○ nothing happened.
func (l NoticeLevel) Mark() string {
	switch l {
	case LevelWarn:
		return "!"
	case LevelError:
		return "✗"
	case LevelNote:
		return "○"
	}
	return "✓"
}

// Paint is the colour a notice of this level is drawn in.
func (l NoticeLevel) Paint(st *Styles) Paint {
	switch l {
	case LevelWarn:
		return st.Warn
	case LevelError:
		return st.Danger
	case LevelNote:
		return st.Muted
	}
	return st.Good
}

// Notice is a command that puts text in the status line.
func Notice(level NoticeLevel, text string) tea.Cmd {
	return func() tea.Msg { return NoticeMsg{Text: text, Level: level} }
}

// FillKey is the notice key of one order's fills: the order's outcome and its fills' total share
// one line.
func FillKey(oid uint64) string { return "fill:" + strconv.FormatUint(oid, 10) }

// ExchangeAddress is the account the exchange acts for ("" when it watches none).
func ExchangeAddress(ex api.Exchange) string {
	if ex == nil {
		return ""
	}
	return ex.Address()
}
