package transfer

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Field is one field of the transfer form.
type Field = int

// Transfer form fields, in the order they are drawn.
const (
	FieldOp Field = iota
	FieldCollateral
	FieldAmount
	FieldDestination
	FieldChain
	FieldSubmit
	fieldCount
)

var transferLabels = [fieldCount]string{"Movement", "Collateral", "Amount", "Destination", "Chain", ""}

// Pane is the form for every money movement: transfers to another account, moves between
// the account's spot and derivative sides, and withdrawals. state/funds checks it as it is typed;
// Enter asks the pipeline to confirm the whole movement (the address in full, the fee, what
// arrives) and send it once.
type Pane struct {
	*common.Common
	ex      api.Exchange
	op      int // index into funds.Ops
	coll    string
	chain   int64
	amount  textinput.Model
	dest    textinput.Model
	field   int
	focused bool
	// editing: the trader is in the form (every key goes to it, Tab moves between fields); Esc
	// leaves it for the pane, where Tab and the pane numbers work as elsewhere.
	editing bool
	pending *action.Action // the movement asked for, until it is settled or dropped
	sending bool           // pending was confirmed and is out
	checked funds.Checked
	errs    []funds.FieldError
	tried   bool   // Enter was pressed: show every error, even of untouched fields
	result  string // the last movement's result (full tx hash or error)
	failed  bool
	view    string
	dirty   bool
	w, h    int
}

// New is the transfer form; it moves collateral of ex's account.
func New(c *common.Common, ex api.Exchange) *Pane {
	p := &Pane{Common: c, ex: ex, dirty: true}
	p.amount = common.NewField("amount", 40)
	p.dest = common.NewField("0x… receiving address", 42)
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Transfer" }

// Capturing implements common.InputCapturer: the form the trader is in takes every key first.
func (p *Pane) Capturing() bool {
	return p.InForm() && (p.field == FieldAmount || p.field == FieldDestination)
}

// InForm implements common.FormHolder: Tab and shift+Tab move between the fields.
func (p *Pane) InForm() bool { return p.focused && p.editing }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.amount.Width = max(min(w-16, 24), 4)
	p.dest.Width = max(min(w-16, 42), 4)
	p.dirty = true
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) {
	p.focused = f
	// The form is one view of a group that [ and ] page through: showing it does not put the
	// trader in it (t or w on the balances, ↓/↑ or a click do), so paging on passes it by.
	p.editing = p.editing && f
	p.focusField()
	p.dirty = true
}

func (p *Pane) focusField() {
	p.amount.Blur()
	p.dest.Blur()
	if !p.focused || !p.editing {
		return
	}
	switch p.field {
	case FieldAmount:
		p.amount.Focus()
	case FieldDestination:
		p.dest.Focus()
	}
}

func (p *Pane) opNow() funds.Op { return funds.Ops[p.op] }

// hidden reports whether a field does not apply to the movement chosen.
func (p *Pane) hidden(f int) bool {
	switch f {
	case FieldDestination:
		return !p.opNow().NeedsDestination()
	case FieldChain:
		return !p.opNow().Withdraws()
	}
	return false
}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		if msg.Kind == state.KindCollateral || msg.Kind == state.KindAccount {
			p.defaults()
			p.check()
		}
	case OpenMsg:
		if why := p.refusal(); why != "" {
			return common.Notice(common.LevelWarn, why) // at the first key, not after the form is filled in
		}
		if msg.Op != p.opNow() {
			// Another movement's form starts empty: a withdrawal does not inherit the 10 typed
			// into a transfer. The same one keeps what was typed.
			p.amount.SetValue("")
			p.tried, p.result, p.failed = false, "", false
		}
		p.setOp(msg.Op)
		p.field, p.editing = FieldAmount, true
		p.focusField()
		return func() tea.Msg { return common.FocusPaneMsg{Pane: p} }
	case action.SentMsg:
		if msg.Act == p.pending {
			// Confirmed: the trader is out of the form, so the next keys (Tab, a pane number,
			// q) are the console's, not typed into the amount.
			p.sending, p.editing, p.field = true, false, FieldSubmit
			p.focusField()
		}
		p.dirty = true
	case action.SettledMsg:
		if msg.Act == p.pending {
			p.done(msg)
		}
	case tea.KeyMsg:
		defer func() { p.dirty = true }()
		return p.editKey(msg)
	}
	return nil
}

func (p *Pane) setOp(op funds.Op) {
	for i, o := range funds.Ops {
		if o == op {
			p.op = i
		}
	}
	p.defaults()
	p.check()
}

// defaults picks the first collateral and the first enabled chain when none is chosen yet.
func (p *Pane) defaults() {
	coll := p.Store.Collateral()
	if len(coll) == 0 {
		return
	}
	c, ok := p.Store.CollateralBySymbol(p.coll)
	if !ok {
		c = coll[0]
		p.coll = c.Symbol
	}
	if !hasBridge(c, p.chain) {
		p.chain = 0
		if ch := funds.EnabledChains(c); len(ch) > 0 {
			p.chain = ch[0]
		}
	}
}

func hasBridge(c api.Collateral, chain int64) bool {
	for _, b := range c.BridgeByChain {
		if int64(b.BridgeChainID) == chain {
			return true
		}
	}
	return false
}

// check validates the form through state/funds.
func (p *Pane) check() {
	req := funds.Request{Op: p.opNow(), Collateral: p.coll, Amount: p.amount.Value(),
		Destination: p.dest.Value(), Chain: p.chain}
	bal := funds.BalancesOf(p.Store.Account())
	bal.Account = common.ExchangeAddress(p.ex)
	p.checked, p.errs = funds.Check(req, p.Store.Collateral(), bal)
	p.dirty = true
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.Keys
	if !p.editing {
		return []key.Binding{k.Submit, common.BackToForm(k), k.Transfer, k.Withdraw}
	}
	return []key.Binding{k.FieldNext, k.FieldPrev, common.LeaveForm(k), k.Toggle, k.Submit, k.TransferMax, k.Transfer, k.Withdraw}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.FieldNext, k.FieldPrev, k.Toggle, k.Submit, common.LeaveForm(k), common.BackToForm(k), k.TransferMax},
		{k.Transfer, k.Withdraw}}
}

// Op is the movement chosen.
func (p *Pane) Op() funds.Op { return p.opNow() }

// Field is the focused field.
func (p *Pane) Field() Field { return p.field }

// Focus puts the cursor on field f.
func (p *Pane) Focus(f Field) {
	p.field, p.editing = f, true
	p.focusField()
	p.dirty = true
}

// Chain is the withdrawal's chain id (0 before collateral loads).
func (p *Pane) Chain() int64 { return p.chain }

// Amount is the amount typed.
func (p *Pane) Amount() string { return p.amount.Value() }

// Errors is every problem the movement has now.
func (p *Pane) Errors() []funds.FieldError { return p.errs }

// Pending is the movement asked for, until it is settled or dropped (nil when none).
func (p *Pane) Pending() *action.Action { return p.pending }

// Sending reports whether the movement asked for was confirmed and is out.
func (p *Pane) Sending() bool { return p.sending }

// Result is the last movement's result: done with its full tx hash, or why it failed.
func (p *Pane) Result() string { return p.result }
