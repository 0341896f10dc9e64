// Package leverage is the leverage dialog: the trader types a new leverage for one perpetual and
// sees, before anything is signed, the leverage in force, the most the instrument's margin tiers
// allow for the position, and the margin the change frees or needs (state.CheckLeverage, the rule
// `tradedesk leverage` previews with). Enter sends it through the signed-action pipeline; a change
// that would leave the account under margin is refused in the dialog and nothing is signed.
package leverage

import (
	"context"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// OpenMsg asks the root model to open the dialog for an instrument.
type OpenMsg struct{ Symbol string }

// Open is the command a pane returns to open the dialog on symbol.
func Open(symbol string) tea.Cmd { return func() tea.Msg { return OpenMsg{Symbol: symbol} } }

// DoneMsg closes the dialog: Act is the change to send, nil when the trader backed out.
type DoneMsg struct{ Act *action.Action }

// Dialog edits one instrument's leverage. It holds every key while open.
type Dialog struct {
	st     *common.Styles
	keys   *common.KeyMap
	store  *state.Store
	symbol string
	input  textinput.Model
	change state.LeverageChange
	note   string // why Enter did nothing ("" when the value may be sent)
	// touched: the trader typed or pressed Enter. Until then the dialog shows the leverage in
	// force filled in, with a hint rather than the error that it is in force already.
	touched bool
	done    bool
	width   int
	view    string
}

// Refusal says why the leverage of symbol cannot be changed from this console ("" when it can): a
// read-only console (readOnly its reason), an agent key, or an instrument with no leverage.
func Refusal(store *state.Store, readOnly string, agent bool, symbol string) string {
	switch {
	case readOnly != "":
		return "read-only: leverage cannot be changed (" + readOnly + ")"
	case agent:
		return "leverage is set with the account's own key: an agent key only places and cancels orders"
	}
	if in, ok := store.Instrument(symbol); !ok || in.Spot {
		return symbol + " has no leverage to set (spot, or not a known instrument)"
	}
	return ""
}

// New opens the dialog on symbol with the leverage in force filled in.
func New(st *common.Styles, keys *common.KeyMap, store *state.Store, symbol string, width int) *Dialog {
	d := &Dialog{st: st, keys: keys, store: store, symbol: symbol, width: width}
	d.input = textinput.New()
	d.input.Prompt = "New leverage > "
	d.input.CharLimit = 4
	d.input.Cursor.SetMode(cursor.CursorStatic)
	d.input.Focus()
	if c, err := store.CheckLeverage(symbol, 1); err == nil {
		d.input.SetValue(c.Current.String())
		d.input.CursorEnd()
	}
	d.recheck()
	return d
}

// Capturing reports that the dialog has a text input.
func (d *Dialog) Capturing() bool { return true }

// Update handles a key; Enter answers with the change (once), Esc with nothing.
func (d *Dialog) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok || d.done {
		return nil
	}
	switch {
	case key.Matches(k, d.keys.Dismiss):
		d.done = true
		return func() tea.Msg { return DoneMsg{} }
	case key.Matches(k, d.keys.Confirm):
		d.touched = true
		d.recheck()
		if d.note != "" {
			d.render()
			return nil
		}
		d.done = true
		a := NewAction(d.change)
		return func() tea.Msg { return DoneMsg{Act: a} }
	}
	d.input, _ = d.input.Update(k)
	d.touched = true
	d.recheck()
	return nil
}

// Change is the change the dialog shows now.
func (d *Dialog) Change() state.LeverageChange { return d.change }

// Note is why the value cannot be sent ("" when it can).
func (d *Dialog) Note() string { return d.note }

// recheck reads the typed value and previews it.
func (d *Dialog) recheck() {
	n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(d.input.Value()), "x"), 10, 32)
	c, cerr := d.store.CheckLeverage(d.symbol, n)
	switch {
	case cerr != nil:
		d.note = cerr.Error()
	case err != nil:
		d.change, d.note = c, "type a whole number such as 10"
	case c.New.Equal(c.Current) && c.Err == "":
		d.change, d.note = c, inForce
	default:
		d.change, d.note = c, c.Err
	}
	d.render()
}

// inForce is the note of a value that changes nothing.
const inForce = "that is the leverage in force already"

func (d *Dialog) render() {
	st, c := d.st, d.change
	lines := []string{st.Accent.On("Leverage · " + d.symbol), ""}
	if c.Current.IsPositive() {
		lines = append(lines,
			"In force     "+c.Current.String()+"x",
			"Tier maximum "+c.Max.String()+"x"+tierWhy(c),
		)
		if c.Notional.IsPositive() {
			lines = append(lines, "Position     "+common.FmtNum(c.Notional, 2)+" USD, margin "+common.FmtNum(c.MarginNow, 2)+" USDC")
		}
	}
	lines = append(lines, "", d.input.View(), "")
	switch {
	case d.note == inForce && !d.touched:
		lines = append(lines, st.Muted.On("type a new leverage, 1x to "+c.Max.String()+"x"))
	case d.note != "":
		lines = append(lines, st.Danger.On("! "+d.note))
	default:
		lines = append(lines, st.Good.On(c.Effect()))
	}
	lines = append(lines, "", st.Bold.On(common.KeyName(d.keys.Confirm))+" to set · "+st.Bold.On(common.KeyName(d.keys.Dismiss))+" to go back")
	d.view = st.Dialog.MaxWidth(max(d.width-2, 20)).Render(strings.Join(lines, "\n"))
}

func tierWhy(c state.LeverageChange) string {
	if c.Notional.IsPositive() {
		return " (for the position's size)"
	}
	return ""
}

// SetWidth fits the dialog to a new screen width.
func (d *Dialog) SetWidth(w int) {
	d.width = w
	d.render()
}

// View is the dialog box.
func (d *Dialog) View() string { return d.view }

// NewAction is the signed change: sent through the pipeline and the executor's journal (Do; the
// dialog was its confirmation),
// one at a time with orders, and the account, positions and leverage read again once it settles.
func NewAction(c state.LeverageChange) *action.Action {
	what := "leverage " + c.Instrument.Name + " " + c.Current.String() + "x -> " + c.New.String() + "x"
	id, n := c.Instrument.ID, int(c.New.IntPart())
	return &action.Action{Kind: action.KindControl, Title: "Set leverage", What: what, Lane: action.LaneOrder,
		Instrument: id, Leverage: c,
		Direct: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			ctl, ok := t.(api.Control)
			if !ok {
				return api.TxResponse{}, errNoControl
			}
			return ctl.UpdateLeverage(ctx, id, n)
		},
		DoKind:  send.ActLeverage,
		Read:    action.ControlRead,
		Refresh: []state.Kind{state.KindLeverage, state.KindPositions, state.KindAccount},
	}
}

var errNoControl = controlError("this exchange client cannot change leverage")

type controlError string

func (e controlError) Error() string { return string(e) }
