package orderentry

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The form's algorithm types (issue #36): the command line's algorithms, where they fit an order.
// The side, size and instrument are the form's; the Algo field takes the rest of the command's
// words (state.ParseAlgoCommand reads the line, one grammar for both). Enter asks the root for
// the algorithm's preview, the confirmation a market order gets.
var algoHints = map[string]string{
	"chase": "to 0.1% offset 2t for 5m keep",
	"twap":  "30m slices 12 band LO-HI rand",
	"scale": "95000-96000 x10 inc",
	"trail": "1.5%, 40t or 500 behind",
}

// fieldAlgo is the problem's field name for the Algo field.
const fieldAlgo = "algo"

// AlgoMsg asks the root to preview and start the algorithm the form holds.
type AlgoMsg struct{ Cmd state.AlgoCommand }

// algoType reports whether the chosen type is an algorithm.
func (p *Pane) algoType() bool { return algoHints[typeChoices[p.typ]] != "" }

// algoLine is the form's algorithm as a command line.
func (p *Pane) algoLine() string {
	kind, rest := typeChoices[p.typ], strings.TrimSpace(p.inputs[FieldAlgo].Value())
	if kind == "trail" {
		return kind + " " + p.instrument() + " " + rest
	}
	side := "sell"
	if p.side == api.SideBuy {
		side = "buy"
	}
	return strings.Join([]string{kind, side, strings.TrimSpace(p.inputs[FieldSize].Value()), p.instrument(), rest}, " ")
}

// checkAlgo reads the form's algorithm: the instrument must be one, and the line one the command
// grammar takes; each problem is shown next to its field.
func (p *Pane) checkAlgo() (state.AlgoCommand, []state.FieldError) {
	p.inputs[FieldAlgo].Placeholder = algoHints[typeChoices[p.typ]]
	p.checked, p.bracket = state.CheckedOrder{}, state.CheckedBracket{}
	var errs []state.FieldError
	if _, err := p.Store.ResolveInstrument(p.instrument()); err != nil {
		errs = append(errs, state.FieldError{Field: state.FieldInstrument, Msg: err.Error()})
	}
	if typeChoices[p.typ] != "trail" && strings.TrimSpace(p.inputs[FieldSize].Value()) == "" {
		return state.AlgoCommand{}, append(errs, state.FieldError{Field: state.FieldSize, Msg: "give the size to work, in base units"})
	}
	c, _, err := state.ParseAlgoCommand(p.algoLine())
	if err != nil {
		f := fieldAlgo
		if ce, ok := err.(*state.CommandError); ok && ce.Word == 3 && typeChoices[p.typ] != "trail" {
			f = state.FieldSize
		}
		errs = append(errs, state.FieldError{Field: f, Msg: text.Clean(err.Error())})
	}
	return c, errs
}

// submitAlgo asks the root for the algorithm's preview.
func (p *Pane) submitAlgo() tea.Cmd {
	p.tried = true
	c, errs := p.checkAlgo()
	p.errs = errs
	if len(errs) > 0 {
		if f, ok := fieldOfError[errs[0].Field]; ok && !p.hidden(f) {
			p.field, p.editing = f, true
			p.focusField()
		}
		return common.Notice(common.LevelError, NotSent+common.JoinFieldErrors(errs))
	}
	return func() tea.Msg { return AlgoMsg{Cmd: c} }
}

// algoPreview is the preview's lines for an algorithm: the command it reads as, and that Enter
// shows what it will send before anything is.
func (p *Pane) algoPreview() []string {
	st := p.Styles
	if len(p.errs) > 0 {
		return common.Wrapped(st.Muted, "the preview appears when the algorithm reads", "  ", p.width)
	}
	out := common.Wrapped(st.Text, "Reads       "+text.Clean(strings.Join(strings.Fields(p.algoLine()), " ")), "  ", p.width)
	return append(out, common.Wrapped(st.Muted, common.KeyName(p.Keys.Submit)+" previews what it sends, its price band and worst price; nothing is sent before you confirm", "  ", p.width)...)
}
