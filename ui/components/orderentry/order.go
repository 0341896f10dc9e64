package orderentry

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

func (p *Pane) instrument() string { return strings.TrimSpace(p.inputs[FieldInstrument].Value()) }

func (p *Pane) clear() {
	p.clearValues()
	p.post = false
	p.check()
}

// clearValues empties the price, trigger, size and USD fields and what belongs to one position
// (reduce-only), and forgets which fields were touched.
func (p *Pane) clearValues() {
	for i, in := range p.inputs {
		if in != nil && i != FieldInstrument {
			in.SetValue("")
		}
	}
	p.reduce, p.tried = false, false
	p.touched = [fieldCount]bool{}
}

// firstField is where b/s and a pick put the cursor: the price for a limit order, the trigger for
// tp/sl (what they cannot do without), the size for a market order.
func (p *Pane) firstField() int {
	switch typeChoices[p.typ] {
	case "market", "chase", "twap", "scale":
		return FieldSize
	case "limit":
		return FieldPrice
	case "trail":
		return FieldAlgo
	}
	return FieldTrigger
}

// intent is the order as typed, a size typed as a share ("25%") resolved into lots (withShare).
func (p *Pane) intent() state.OrderIntent {
	in := p.rawIntent()
	if r, err := p.withShare(in); err == nil {
		in = r
	}
	return in
}

// rawIntent is the order as typed, its fields as they are.
func (p *Pane) rawIntent() state.OrderIntent {
	in := state.OrderIntent{
		Instrument: p.instrument(), Side: p.side,
		Size: p.inputs[FieldSize].Value(), NotionalUSD: p.inputs[FieldUSD].Value(),
		ReduceOnly: p.reduce,
	}
	switch typeChoices[p.typ] {
	case "limit":
		in.Type, in.Price, in.Tif, in.PostOnly = state.Limit, p.inputs[FieldPrice].Value(), tifChoices[p.tif], p.post
	case "market":
		in.Type = state.Market
	default:
		in.Type, in.Price, in.Tif = state.Trigger, p.inputs[FieldPrice].Value(), tifChoices[p.tif]
		in.TriggerPx, in.Tpsl = p.inputs[FieldTrigger].Value(), typeChoices[p.typ]
	}
	return in
}

// bracketIntent is the order as typed with its take-profit and stop-loss (empty when not typed
// or hidden).
func (p *Pane) bracketIntent(in state.OrderIntent) state.BracketIntent {
	b := state.BracketIntent{Entry: in}
	if !p.hidden(FieldTP) {
		b.TakeProfit, b.StopLoss = p.inputs[FieldTP].Value(), p.inputs[FieldSL].Value()
	}
	return b
}

// checkIntent checks the order, as a bracket when a take-profit or stop-loss is typed: one
// validation path (state.CheckOrder, state.CheckBracket) for the form and the command line.
func (p *Pane) checkIntent(in state.OrderIntent) (state.CheckedOrder, state.CheckedBracket, []state.FieldError) {
	b := p.bracketIntent(in)
	if !b.HasLegs() {
		c, errs := p.Store.CheckOrder(in, p.Guard)
		return c, state.CheckedBracket{}, errs
	}
	cb, errs := p.Store.CheckBracket(b, p.Guard)
	return cb.Entry, cb, errs
}

// recheck is check after the market or the account changed: it does nothing when nothing the
// check reads did (a batch of streamed data tells the form of each of its kinds, one check is
// enough; issue #34's idle profile). It reports whether it checked.
func (p *Pane) recheck() bool {
	if p.instrument() == "" || p.algoType() {
		p.check()
		return true
	}
	if p.checkInputs() == p.basis {
		return false
	}
	p.check()
	return true
}

// checkKey is what a check reads: the form as typed, the cursor (the size field's offer), the
// guard, the store's data (any change of it moves Changes) and, while the prices are stale, their
// age as a limit order and as a market order reads it (the warning and the form's marker say it,
// though no data changes).
type checkKey struct {
	in         state.OrderIntent
	tp, sl     string
	typ, field int
	guard      state.Guard
	store      uint64
	stale      [2]staleness
}

// staleness is the prices' age while stale (zero when fresh) and whether their update failed.
type staleness struct {
	age    time.Duration
	failed bool
}

func (p *Pane) checkInputs() checkKey {
	in := p.rawIntent()
	k := checkKey{in: in, tp: p.inputs[FieldTP].Value(), sl: p.inputs[FieldSL].Value(), typ: p.typ, field: p.field,
		guard: p.Guard, store: p.Store.Changes()}
	for i, market := range []bool{false, true} {
		if f := p.Store.PricesFreshness(market); f.Loaded() && f.Stale {
			// Half seconds: the warning rounds the age to a second, the marker truncates it.
			k.stale[i] = staleness{max(f.Age.Truncate(time.Second/2), time.Nanosecond), f.Err != nil}
		}
	}
	return k
}

// check validates the intent with the one validation path and keeps the problems and preview.
func (p *Pane) check() {
	p.drawn = false
	defer func() { p.basis = p.checkInputs() }() // after a change of instrument cleared the values
	if p.instrument() == "" {
		p.errs, p.checked, p.bracket = nil, state.CheckedOrder{}, state.CheckedBracket{}
		return
	}
	if p.algoType() {
		_, p.errs = p.checkAlgo()
		return
	}
	p.checked, p.bracket, p.errs = p.checkIntent(p.intent())
	p.checkShare()
	name := p.checked.Instrument.Name
	if name == "" || name == p.valuesFor {
		return
	}
	changed := p.valuesFor != ""
	p.valuesFor = name
	p.sizeHint()
	if changed { // numbers typed for another instrument never reach this one
		p.clearValues()
		p.checked, p.bracket, p.errs = p.checkIntent(p.intent())
	}
}

// sizeHint is the size field's placeholder: the size of the last order sent on the form's
// instrument ("last 0.3"), else "base units". It is set again with every order sent, so it never
// shows an older size.
func (p *Pane) sizeHint() {
	p.inputs[FieldSize].Placeholder = "base units"
	if last := p.lastSize[p.valuesFor]; last != "" {
		p.inputs[FieldSize].Placeholder = "last " + last
	}
}

// NotSent begins the status line's notice of an order the form refused; the root clears that
// notice once the form's order is valid again.
const NotSent = "order not sent: "

// Valid reports whether the form holds an order that passes every check now.
func (p *Pane) Valid() bool { return len(p.errs) == 0 && p.checked.Instrument.Name != "" }

func (p *Pane) submit() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "place an order")
	}
	if p.inFlight != nil && *p.inFlight {
		return common.Notice(common.LevelWarn, action.BusyText[action.LaneOrder])
	}
	if p.algoType() {
		return p.submitAlgo()
	}
	p.tried = true
	in := p.intent()
	in.Cloid = state.NewCloid()
	checked, cb, errs := p.checkIntent(in)
	errs = p.shareErrs(errs)
	p.checked, p.bracket, p.errs = checked, cb, errs
	if len(errs) > 0 {
		if f, ok := fieldOfError[errs[0].Field]; ok && !p.hidden(f) {
			p.field, p.editing = f, true
			p.focusField()
		}
		return common.Notice(common.LevelError, NotSent+common.JoinFieldErrors(errs))
	}
	a := action.NewOrder(action.KindPlace, checked, p.Styles)
	if len(cb.Wires) > 0 {
		a = action.NewBracket(cb, p.Styles)
	}
	a.Recheck = action.RecheckOrder(p.Store, p.Guard, p.Styles, action.KindPlace, p.bracketIntent(in))
	_, p.previewCut = p.drawLines()       // as the pane shows this order now, not as it was last drawn
	a.Confirm = a.Confirm || p.previewCut // the figures the pane could not show are seen first
	return action.Request(a)
}

// fieldErrors returns the messages to show next to form field f.
func (p *Pane) fieldErrors(f int) []state.FieldError {
	var out []state.FieldError
	for _, e := range p.errs {
		ef, ok := fieldOfError[e.Field]
		if !ok {
			continue
		}
		if ef == f && (p.tried || p.touched[f] || f == FieldInstrument) {
			out = append(out, e)
		}
	}
	return out
}

// orderErrors are the problems with the order as a whole (margin, leverage, reduce-only...).
func (p *Pane) orderErrors() []state.FieldError {
	var out []state.FieldError
	for _, e := range p.errs {
		if _, ok := fieldOfError[e.Field]; !ok && (p.tried || p.sizeGiven()) {
			out = append(out, e)
		}
	}
	return out
}

func (p *Pane) sizeGiven() bool {
	return p.inputs[FieldSize].Value() != "" || p.inputs[FieldUSD].Value() != ""
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.Keys
	if !p.editing {
		return []key.Binding{k.Submit, common.BackToForm(k), k.ClearForm, k.LeverageForm}
	}
	h := []key.Binding{k.FieldNext, k.FieldPrev, common.LeaveForm(k), k.Submit}
	switch {
	case p.field == FieldPrice || p.field == FieldTrigger || p.field == FieldTP || p.field == FieldSL:
		h = append(h, k.FillMark, k.FillBid, k.FillAsk, k.UseSuggestion)
	case p.inputs[p.field] == nil:
		h = append(h, k.Toggle)
	}
	return append(h, k.ClearForm, k.LeverageForm)
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.FieldNext, k.FieldPrev, k.Toggle, k.Submit, common.LeaveForm(k), common.BackToForm(k), k.ClearForm, k.LeverageForm}, {k.FillMark, k.FillBid, k.FillAsk, k.UseSuggestion}}
}

// Click implements clicker: a click on a field's line focuses that field.
func (p *Pane) Click(_, y int) tea.Cmd {
	line := 0
	for f := range fieldCount {
		if p.hidden(f) {
			continue
		}
		if p.joined(f) { // on its partner's line: only its problems take lines of their own
			line += len(p.errorLines(p.fieldErrors(f)))
			continue
		}
		if line == y {
			p.field, p.editing, p.fresh = f, true, false
			p.focusField()
			if p.inputs[f] == nil {
				p.toggle(false)
			}
			return nil
		}
		line += 1 + len(p.errorLines(p.fieldErrors(f)))
	}
	return nil
}

// Field is the focused field.
func (p *Pane) Field() Field { return p.field }

// Focus puts the cursor on field f.
func (p *Pane) Focus(f Field) {
	p.field, p.editing, p.fresh = f, true, false
	p.focusField()
	p.drawn = false
}

// Value is the text typed in field f ("" for a choice).
func (p *Pane) Value(f Field) string {
	if p.inputs[f] == nil {
		return ""
	}
	return p.inputs[f].Value()
}

// SetValue types v into text field f, replacing what was there, and checks the order again.
func (p *Pane) SetValue(f Field, v string) {
	if p.inputs[f] == nil {
		return
	}
	setText(p.inputs[f], v)
	p.check()
}

// Errors is every problem the order has now.
func (p *Pane) Errors() []state.FieldError { return p.errs }

// OrderType is the type chosen: limit, market, tp or sl, or an algorithm (chase, twap, scale,
// trail).
func (p *Pane) OrderType() string { return typeChoices[p.typ] }

// SetOrderType chooses the type (limit, market, tp, sl or an algorithm); it reports whether typ
// is one.
func (p *Pane) SetOrderType(typ string) bool {
	for i, c := range typeChoices {
		if c == typ {
			p.typ = i
			if p.hidden(p.field) {
				p.moveField(1)
			}
			p.check()
			return true
		}
	}
	return false
}

// Side is the side chosen (api.SideBuy or api.SideSell).
func (p *Pane) Side() string { return p.side }

// ReduceOnly reports whether the order is reduce-only.
func (p *Pane) ReduceOnly() bool { return p.reduce }

// setText puts a value the form chose (an instrument picked, a price filled, a suggestion) in a
// field with the cursor at its end, so typing goes after it and Ctrl+U clears all of it (#24:
// the cursor stayed where it was, and typing made "ETH-PERPP").
func setText(in *textinput.Model, v string) {
	in.SetValue(v)
	in.CursorEnd()
}
