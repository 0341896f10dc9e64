package orderentry

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
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
	FieldAlgo // an algorithm's own words (chase, twap, scale, trail types)
	FieldTP   // take-profit of a bracket: a price, N% or Nt from the entry (next to the size: one Tab away)
	FieldSL   // stop-loss of a bracket
	FieldTif
	FieldReduce
	FieldPost
	FieldSubmit
	fieldCount
)

var (
	typeChoices = []string{"limit", "market", "tp", "sl", "chase", "twap", "scale", "trail"}
	tifChoices  = []string{api.TifGTC, api.TifIOC, api.TifFOK}
	fieldLabels = [fieldCount]string{"Instrument", "Side", "Type", "Price", "Trigger", "Size", "or USD", "Algo", "TP / SL", "Stop-loss", "Time in force", "Reduce-only", "Post-only", ""}
	// fieldOfError maps a FieldError's field to the form field it is drawn next to.
	fieldOfError = map[string]int{
		state.FieldInstrument: FieldInstrument, state.FieldSide: FieldSide, state.FieldType: FieldType,
		state.FieldPrice: FieldPrice, state.FieldTrigger: FieldTrigger, state.FieldTpsl: FieldType, state.FieldSize: FieldSize,
		state.FieldNotional: FieldUSD, state.FieldTif: FieldTif, state.FieldSlippage: FieldPrice,
		state.FieldTakeProfit: FieldTP, state.FieldStopLoss: FieldSL, fieldAlgo: FieldAlgo,
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
	basis    checkKey  // what errs, checked and bracket were checked from
	found    completed // the instrument field's completion, kept until the text or the instruments change
	checked  state.CheckedOrder
	bracket  state.CheckedBracket // the checked bracket when a take-profit or stop-loss is typed
	max      decimal.Decimal      // the most the account can afford on the order (shown while the size is typed)
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
	for _, f := range []int{FieldInstrument, FieldPrice, FieldTrigger, FieldSize, FieldUSD, FieldAlgo, FieldTP, FieldSL} {
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
	p.inputs[FieldAlgo].Width = max(min(w-16, 34), 4)
	p.inputs[FieldAlgo].CharLimit = 80
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
	if p.algoType() {
		switch f {
		case FieldInstrument, FieldType, FieldAlgo, FieldSubmit:
			return false
		case FieldSide, FieldSize:
			return typeChoices[p.typ] == "trail" // a trailing stop protects the whole position
		}
		return true
	}
	switch f {
	case FieldAlgo:
		return true
	case FieldPrice:
		return typeChoices[p.typ] == "market"
	case FieldTrigger:
		return p.typ < 2 || p.typ > 3
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
	drawn := p.drawn
	p.drawn = false
	switch msg := msg.(type) {
	case common.DataMsg:
		switch msg.Kind {
		case state.KindTickers, state.KindMids, state.KindAccount, state.KindPositions, state.KindInstruments:
			// What the form draws from the store (the quote, the instruments, the prices' age)
			// is in what the check reads: unchanged, the form is too.
			checked := p.recheck()
			p.drawn = drawn && !checked
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
