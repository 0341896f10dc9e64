package orderentry

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// Field is one field of the order form.
type Field = int

// Fields of the order form, in the order they are drawn.
const (
	FieldInstrument Field = iota
	FieldSide
	FieldType
	FieldPrice
	FieldTrigger
	FieldSize
	FieldUSD
	FieldTP // take-profit of a bracket: a price, N% or Nt from the entry (next to the size: one Tab away)
	FieldSL // stop-loss of a bracket
	FieldTif
	FieldReduce
	FieldPost
	FieldSubmit
	fieldCount
)

var (
	typeChoices = []string{"limit", "market", "tp", "sl"}
	tifChoices  = []string{api.TifGTC, api.TifIOC, api.TifFOK}
	fieldLabels = [fieldCount]string{"Instrument", "Side", "Type", "Price", "Trigger", "Size", "or USD", "TP / SL", "Stop-loss", "Time in force", "Reduce-only", "Post-only", ""}
	// fieldOfError maps a FieldError's field to the form field it is drawn next to.
	fieldOfError = map[string]int{
		state.FieldInstrument: FieldInstrument, state.FieldSide: FieldSide, state.FieldType: FieldType,
		state.FieldPrice: FieldPrice, state.FieldTrigger: FieldTrigger, state.FieldTpsl: FieldType, state.FieldSize: FieldSize,
		state.FieldNotional: FieldUSD, state.FieldTif: FieldTif, state.FieldSlippage: FieldPrice,
		state.FieldTakeProfit: FieldTP, state.FieldStopLoss: FieldSL,
	}
)

// Pane is the order form: it builds an intent as the trader types, checks it live with
// state.CheckOrder, shows every problem next to its field and a preview, and asks the root model
// to confirm and send it.
type Pane struct {
	*common.Common
	inputs   [fieldCount]*textinput.Model // text fields; nil for choices
	field    int
	side     string
	typ      int // index in typeChoices
	tif      int
	reduce   bool
	post     bool
	touched  [fieldCount]bool
	tried    bool // a submit was attempted: show every error
	errs     []state.FieldError
	checked  state.CheckedOrder
	bracket  state.CheckedBracket // the checked bracket when a take-profit or stop-loss is typed
	focused  bool
	width    int
	height   int
	mode     string // DEMO, READ-ONLY, LIVE testnet...
	inFlight *bool  // the root model's "an order is in flight"
	view     string // the form as last drawn
	drawn    bool   // view is up to date
	drawnFly bool   // in-flight state view was drawn with
	// valuesFor is the instrument the price, trigger, size and USD fields were typed for: when the
	// form's instrument resolves to another, they are cleared, never carried over.
	valuesFor string
	lastSize  map[string]string // per instrument, the size of the last order sent (shown, not used)
	// editing: the trader is in the form (Tab moves between fields, a text field takes every
	// key); Esc leaves it for the pane, where Tab and the pane numbers work as elsewhere.
	editing bool
	// fresh: the form was entered by the pane's number or Tab and nothing was typed or moved yet
	// (common.FreshForm): the pane numbers still switch panes.
	fresh bool
	// previewCut: the pane is too short for the whole preview, so Enter reviews every order.
	previewCut bool
}

// New is the order form; mode is the badge in its title (DEMO, LIVE...), and inFlight is the root
// model's "an order is out" (the form says so and sends nothing meanwhile).
func New(c *common.Common, mode string, inFlight *bool) *Pane {
	p := &Pane{Common: c, side: api.SideBuy, mode: mode, inFlight: inFlight, lastSize: map[string]string{}}
	for _, f := range []int{FieldInstrument, FieldPrice, FieldTrigger, FieldSize, FieldUSD, FieldTP, FieldSL} {
		ti := textinput.New()
		ti.Prompt = ""
		ti.CharLimit = 24
		ti.Cursor.SetMode(cursor.CursorStatic)
		p.inputs[f] = &ti
	}
	p.inputs[FieldInstrument].Placeholder = "type a name"
	p.inputs[FieldPrice].Placeholder = "limit price"
	p.inputs[FieldTrigger].Placeholder = "trigger price"
	p.inputs[FieldSize].Placeholder = "base units"
	p.inputs[FieldUSD].Placeholder = "notional"
	p.inputs[FieldTP].Placeholder = "px, 2%, 40t"
	p.inputs[FieldSL].Placeholder = "px, 1%, 20t"
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Order entry · " + p.mode }

// Capturing implements common.InputCapturer: a text field of the form the trader is in takes
// every key first. On a choice or the Review button the global keys (pane numbers, ?, q) work.
func (p *Pane) Capturing() bool { return p.InForm() && p.inputs[p.field] != nil }

// InForm implements common.FormHolder: Tab and shift+Tab move between the fields.
func (p *Pane) InForm() bool { return p.focused && p.editing }

// Fresh implements common.FreshForm.
func (p *Pane) Fresh() bool { return p.InForm() && p.fresh }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.width, p.height = w, h
	p.drawn = false
	for _, in := range p.inputs {
		if in != nil {
			in.Width = max(min(w-16, 20), 4)
		}
	}
	for _, f := range []int{FieldSize, FieldUSD} { // two on one line: "Size  N or USD N"
		p.inputs[f].Width = max(min((w-24)/2, 14), 4)
	}
	for _, f := range []int{FieldTP, FieldSL} { // "TP / SL  N / N"
		p.inputs[f].Width = max(min((w-20)/2, 14), 4)
	}
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) {
	if f && !p.focused {
		p.fresh = !p.editing // b/s (an InstrumentMsg to focus) put the trader in a field already
	} else if !f {
		p.fresh = false
	}
	p.focused = f
	p.editing = f // focusing the pane (its number, Tab, b/s) puts the trader in the form
	p.drawn = false
	p.focusField()
}

func (p *Pane) focusField() {
	for i, in := range p.inputs {
		if in == nil {
			continue
		}
		if p.focused && p.editing && i == p.field {
			in.Focus()
		} else {
			in.Blur()
		}
	}
}

// hidden reports whether a field does not apply to the chosen type.
func (p *Pane) hidden(f int) bool {
	switch f {
	case FieldPrice:
		return typeChoices[p.typ] == "market"
	case FieldTrigger:
		return p.typ < 2
	case FieldPost:
		return typeChoices[p.typ] != "limit"
	case FieldTif:
		return typeChoices[p.typ] == "market"
	case FieldTP, FieldSL: // a bracket's legs attach to a limit or market entry
		return p.typ >= 2
	}
	return false
}

// joined reports whether field f is drawn on the line of the field before it (the notional
// beside the size, the stop-loss beside the take-profit, post-only beside reduce-only), so the
// form with a bracket's legs is no taller than it was without them.
func (p *Pane) joined(f int) bool { return f == FieldUSD || f == FieldSL || f == FieldPost }

func (p *Pane) moveField(d int) {
	for range fieldCount {
		p.field = (p.field + d + fieldCount) % fieldCount
		if !p.hidden(p.field) {
			break
		}
	}
	p.focusField()
}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	p.drawn = false
	switch msg := msg.(type) {
	case common.DataMsg:
		switch msg.Kind {
		case state.KindTickers, state.KindMids, state.KindAccount, state.KindPositions, state.KindInstruments:
			p.check()
		}
	case action.SentMsg:
		if msg.Act.Kind != action.KindPlace {
			return nil
		}
		// After a confirmed order the cursor rests on the submit button: the trader's next
		// keys (a pane number, Tab) are not typed into a field by mistake. The order's numbers
		// are cleared, so the same keys next time fill the same fields from empty; its size is
		// remembered for the instrument and shown as a hint, never sent unless typed.
		p.lastSize[msg.Act.Order.Instrument.Name] = msg.Act.Order.Size.String()
		p.sizeHint()
		p.clearValues()
		p.field, p.editing = FieldSubmit, false
		p.focusField()
		p.check()
	case common.InstrumentMsg:
		setText(p.inputs[FieldInstrument], msg.Symbol)
		p.inputs[FieldInstrument].CursorEnd()
		if msg.Side != "" {
			// b/s start a new order: nothing typed before is kept, so the cursor never lands
			// on a field whose old digits the next keys would extend.
			p.side = msg.Side
			p.clearValues()
		}
		if msg.Type != "" {
			p.SetOrderType(msg.Type)
		}
		p.check()
		if msg.Focus {
			p.field, p.editing, p.fresh = p.firstField(), true, false
			p.focusField()
		}
	case tea.KeyMsg:
		return p.handleKey(msg)
	}
	return nil
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := p.Keys
	p.fresh = false
	if !p.editing {
		return p.outsideKey(msg)
	}
	switch {
	case key.Matches(msg, k.FieldNext):
		p.moveField(1)
		return nil
	case key.Matches(msg, k.FieldPrev):
		p.moveField(-1)
		return nil
	case key.Matches(msg, k.ClearForm):
		p.clear()
		return nil
	case key.Matches(msg, k.LeverageForm) && p.Instrument() != "":
		return leverage.Open(p.Instrument())
	case key.Matches(msg, k.Dismiss):
		// Esc leaves the form; the cursor rests on the submit button, so Enter still reviews the
		// order, and Tab, the pane numbers and the other global keys work again.
		p.field, p.editing = FieldSubmit, false
		p.focusField()
		return nil
	case key.Matches(msg, k.Submit):
		if p.field == FieldInstrument && p.complete() {
			p.moveField(1)
			return nil
		}
		return p.submit()
	}
	if in := p.inputs[p.field]; in != nil {
		return p.updateText(msg, in)
	}
	switch {
	case key.Matches(msg, k.Toggle):
		p.toggle(msg.String() == "left")
	case p.field == FieldSide && key.Matches(msg, k.Buy):
		p.side = api.SideBuy
		p.check()
	case p.field == FieldSide && key.Matches(msg, k.Sell):
		p.side = api.SideSell
		p.check()
	}
	return nil
}

// outsideKey handles a key on the pane when the trader left the form: Enter reviews the order as
// the button under the cursor does, ↓/↑ go back into the form; the rest are the root's.
func (p *Pane) outsideKey(msg tea.KeyMsg) tea.Cmd {
	k := p.Keys
	switch {
	case key.Matches(msg, k.FieldNext):
		p.editing = true
		p.moveField(1)
	case key.Matches(msg, k.FieldPrev):
		p.editing = true
		p.moveField(-1)
	case key.Matches(msg, k.Submit):
		return p.submit()
	case key.Matches(msg, k.ClearForm):
		p.clear()
	case key.Matches(msg, k.LeverageForm) && p.Instrument() != "":
		return leverage.Open(p.Instrument())
	}
	return nil
}

func (p *Pane) updateText(msg tea.KeyMsg, in *textinput.Model) tea.Cmd {
	k := p.Keys
	if p.field == FieldPrice || p.field == FieldTrigger || p.field == FieldTP || p.field == FieldSL {
		switch {
		case key.Matches(msg, k.FillMark):
			p.fillPrice(func(t api.Ticker) decimal.Decimal { return t.MarkPrice })
			return nil
		case key.Matches(msg, k.FillBid):
			p.fillPrice(func(t api.Ticker) decimal.Decimal { return t.BestBidPrice })
			return nil
		case key.Matches(msg, k.FillAsk):
			p.fillPrice(func(t api.Ticker) decimal.Decimal { return t.BestAskPrice })
			return nil
		}
	}
	if key.Matches(msg, k.UseSuggestion) {
		p.useSuggestion()
		return nil
	}
	if p.field == FieldInstrument && msg.Type == tea.KeyRight && in.Position() == len(in.Value()) {
		p.complete()
		p.check()
		return nil
	}
	before := in.Value()
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	if in.Value() != before {
		p.touched[p.field] = true
		// Size and notional are two ways to say one thing: typing one clears the other.
		if p.field == FieldSize && in.Value() != "" {
			p.inputs[FieldUSD].SetValue("")
		}
		if p.field == FieldUSD && in.Value() != "" {
			p.inputs[FieldSize].SetValue("")
		}
		p.check()
	}
	return cmd
}

func (p *Pane) toggle(back bool) {
	d := 1
	if back {
		d = -1
	}
	switch p.field {
	case FieldSide:
		if p.side == api.SideBuy {
			p.side = api.SideSell
		} else {
			p.side = api.SideBuy
		}
	case FieldType:
		p.typ = (p.typ + d + len(typeChoices)) % len(typeChoices)
	case FieldTif:
		p.tif = (p.tif + d + len(tifChoices)) % len(tifChoices)
	case FieldReduce:
		p.reduce = !p.reduce
	case FieldPost:
		p.post = !p.post
	case FieldSubmit:
		return
	}
	p.touched[p.field] = true
	p.check()
}

func (p *Pane) fillPrice(get func(api.Ticker) decimal.Decimal) {
	t, ok := p.Store.Ticker(p.instrument())
	if !ok {
		return
	}
	in, _ := p.Store.Instrument(t.Symbol)
	v := get(t)
	if !v.IsPositive() {
		return
	}
	setText(p.inputs[p.field], state.RoundToStep(v, in.TickSize).StringFixed(in.PriceDecimals()))
	p.inputs[p.field].CursorEnd()
	p.touched[p.field] = true
	p.check()
}

// useSuggestion puts the value offered by the current field's problem into the field: the trader
// takes the rounded value by choice, it is never applied silently.
func (p *Pane) useSuggestion() {
	for _, e := range p.errs {
		if f, ok := fieldOfError[e.Field]; ok && f == p.field && e.Suggest != "" && p.inputs[f] != nil {
			setText(p.inputs[f], e.Suggest)
			p.inputs[f].CursorEnd()
			p.touched[f] = true
			p.check()
			return
		}
	}
}

// completion is the first instrument name that starts with what is typed (case-insensitive).
func (p *Pane) completion() (string, int) {
	typed := strings.ToUpper(strings.TrimSpace(p.inputs[FieldInstrument].Value()))
	if typed == "" {
		return "", 0
	}
	first, n := "", 0
	for _, name := range p.Store.InstrumentNames() {
		if strings.HasPrefix(strings.ToUpper(name), typed) {
			if first == "" {
				first = name
			}
			n++
		}
	}
	return first, n
}

// complete accepts the completion; it reports whether the field changed.
func (p *Pane) complete() bool {
	c, _ := p.completion()
	if c == "" || c == p.inputs[FieldInstrument].Value() {
		return false
	}
	setText(p.inputs[FieldInstrument], c)
	p.inputs[FieldInstrument].CursorEnd()
	p.check()
	return true
}

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
	case "market":
		return FieldSize
	case "limit":
		return FieldPrice
	}
	return FieldTrigger
}

// intent is the order as typed.
func (p *Pane) intent() state.OrderIntent {
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

// check validates the intent with the one validation path and keeps the problems and preview.
func (p *Pane) check() {
	p.drawn = false
	if p.instrument() == "" {
		p.errs, p.checked, p.bracket = nil, state.CheckedOrder{}, state.CheckedBracket{}
		return
	}
	p.checked, p.bracket, p.errs = p.checkIntent(p.intent())
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
	p.tried = true
	in := p.intent()
	in.Cloid = state.NewCloid()
	checked, cb, errs := p.checkIntent(in)
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

// OrderType is the type chosen: limit, market, tp or sl.
func (p *Pane) OrderType() string { return typeChoices[p.typ] }

// SetOrderType chooses the type (limit, market, tp or sl); it reports whether typ is one.
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
