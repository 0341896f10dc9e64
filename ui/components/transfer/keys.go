package transfer

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/funds"
)

// The form's keys: typing into a field, moving between fields, and toggling a choice.

func (p *Pane) editKey(msg tea.KeyMsg) tea.Cmd {
	k := p.Keys
	if !p.editing {
		return p.outsideKey(msg)
	}
	if p.field != FieldDestination { // an address is typed; every other field takes no letter
		if cmd := OpenKey(k, msg); cmd != nil {
			return cmd
		}
	}
	switch {
	case key.Matches(msg, k.FieldNext):
		p.moveField(1)
	case key.Matches(msg, k.FieldPrev):
		p.moveField(-1)
	case key.Matches(msg, k.Submit):
		return p.review()
	case key.Matches(msg, k.Dismiss):
		// Esc leaves the form; the cursor rests on the submit button, so Enter still reviews,
		// and Tab, the pane numbers and the other global keys work again.
		p.field, p.editing = FieldSubmit, false
		p.focusField()
	case key.Matches(msg, k.TransferMax):
		if p.checked.Collateral.Symbol != "" {
			p.amount.SetValue(funds.MaxAmount(p.opNow(), p.checked.Collateral, p.checked.Withdrawable).String())
			p.check()
		}
	case p.field == FieldAmount || p.field == FieldDestination:
		return p.typeInto(msg)
	case key.Matches(msg, k.TogglePrev):
		p.toggle(true)
	case key.Matches(msg, k.Toggle):
		p.toggle(false)
	}
	return nil
}

// outsideKey handles a key on the pane when the trader left the form: Enter reviews the movement
// as the button under the cursor does, ↓/↑ go back into the form; the rest are the root's.
func (p *Pane) outsideKey(msg tea.KeyMsg) tea.Cmd {
	k := p.Keys
	if cmd := OpenKey(k, msg); cmd != nil {
		return cmd
	}
	switch {
	case key.Matches(msg, k.FieldNext):
		p.editing = true
		p.moveField(1)
	case key.Matches(msg, k.FieldPrev):
		p.editing = true
		p.moveField(-1)
	case key.Matches(msg, k.Submit):
		return p.review()
	}
	return nil
}

func (p *Pane) typeInto(msg tea.KeyMsg) tea.Cmd {
	var cmd tea.Cmd
	if p.field == FieldAmount && !amountKey(msg) {
		return nil // an amount is a number: a stray [ or w is not typed into it
	}
	if p.field == FieldAmount {
		p.amount, cmd = p.amount.Update(msg)
	} else {
		p.dest, cmd = p.dest.Update(msg)
	}
	p.check()
	return cmd
}

func (p *Pane) moveField(d int) {
	for i := 0; i < fieldCount; i++ {
		p.field = (p.field + d + fieldCount) % fieldCount
		if !p.hidden(p.field) {
			break
		}
	}
	p.focusField()
}

// toggle changes the choice of the focused field.
func (p *Pane) toggle(back bool) {
	d := 1
	if back {
		d = -1
	}
	switch p.field {
	case FieldOp:
		p.op = (p.op + d + len(funds.Ops)) % len(funds.Ops)
	case FieldCollateral:
		syms := p.symbols()
		if len(syms) > 0 {
			p.coll = syms[(indexOf(syms, p.coll)+d+len(syms))%len(syms)]
			p.chain = 0
			p.defaults()
		}
	case FieldChain:
		c, _ := p.Store.CollateralBySymbol(p.coll)
		n := len(c.BridgeByChain)
		if n > 0 {
			i := 0
			for j, b := range c.BridgeByChain {
				if int64(b.BridgeChainID) == p.chain {
					i = j
				}
			}
			p.chain = int64(c.BridgeByChain[(i+d+n)%n].BridgeChainID)
		}
	}
	p.check()
}

func (p *Pane) symbols() []string {
	var out []string
	for _, c := range p.Store.Collateral() {
		out = append(out, c.Symbol)
	}
	return out
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return 0
}

// amountKey reports whether msg may edit an amount: editing keys, or runes that are digits, a
// decimal point or a thousands separator.
func amountKey(msg tea.KeyMsg) bool {
	if msg.Type != tea.KeyRunes {
		return true
	}
	for _, r := range msg.Runes {
		if (r < '0' || r > '9') && r != '.' && r != ',' {
			return false
		}
	}
	return true
}
