package orderentry

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

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
	case key.Matches(msg, k.TogglePrev):
		p.toggle(true)
	case key.Matches(msg, k.Toggle):
		p.toggle(false)
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
	if p.field == FieldInstrument && key.Matches(msg, k.AcceptCompletion) && in.Position() == len(in.Value()) {
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

// completion is the first instrument name that starts with what is typed (case-insensitive), and
// how many do. It is looked for again only when the typed text or the instruments changed: the
// form draws it each time the market moves (500 names each, with --markets 500).
func (p *Pane) completion() (string, int) {
	typed := strings.ToUpper(strings.TrimSpace(p.inputs[FieldInstrument].Value()))
	if typed == "" {
		return "", 0
	}
	k := completionKey{typed, p.Store.Version(state.KindInstruments)}
	if k == p.found.key {
		return p.found.first, p.found.n
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
	p.found = completed{k, first, n}
	return first, n
}

// completionKey is what a completion was found from: the text typed (upper case) and the
// instruments' version.
type completionKey struct {
	typed   string
	version uint64
}

// completed is the last completion found, and what from.
type completed struct {
	key   completionKey
	first string
	n     int
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
