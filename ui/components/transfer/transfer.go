package transfer

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
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
	case key.Matches(msg, k.Toggle):
		p.toggle(msg.String() == "left")
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

// review asks the pipeline to confirm and send the movement when the form passes every check.
func (p *Pane) review() tea.Cmd {
	p.tried = true
	p.check()
	if why := p.refusal(); why != "" {
		return common.Notice(common.LevelWarn, why)
	}
	if len(p.errs) > 0 {
		return common.Notice(common.LevelWarn, "not ready: "+p.errs[0].Msg)
	}
	if p.sending {
		return common.Notice(common.LevelWarn, action.BusyText[action.LaneFunds])
	}
	p.pending, p.sending = NewAction(p.checked), false
	return action.Request(p.pending)
}

// NewAction moves collateral (a transfer, a move between the account's sides, a
// withdrawal), confirmed with the whole movement. A lost answer has no id to look up: the trader is
// told to check the balances before sending it again.
func NewAction(c funds.Checked) *action.Action {
	what := c.Op.String() + " of " + c.AmountText() + " " + c.Collateral.Symbol
	return &action.Action{
		Kind: action.KindTransfer, Confirm: true, Movement: c, What: what,
		Title: "Confirm " + c.Op.String(), Lines: c.Confirm(),
		Lane: action.LaneFunds, Refresh: []state.Kind{state.KindAccount, state.KindTransfers},
		Run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return c.Send(ctx, t)
		},
		Read: func(d action.DoneMsg) (string, bool) {
			switch {
			case api.IsAmbiguous(d.Err):
				return what + ": no answer (" + common.PlainError(d.Err) + "): check the balances before sending it again", true
			case d.Err != nil:
				return what + " failed: " + common.PlainError(d.Err), true
			case d.Resp.TxHash != "":
				return what + " done: tx " + d.Resp.TxHash, false
			}
			return what + " done", false
		},
	}
}

// done shows the movement's result and clears the amount after a success.
func (p *Pane) done(msg action.SettledMsg) {
	p.pending, p.sending = nil, false
	p.dirty = true
	p.result, p.failed = msg.Text, msg.Failed
	if !msg.Failed {
		p.amount.SetValue("")
		p.tried = false
	}
	p.focusField()
	p.check()
}

// View implements common.Pane; the form is drawn again only after something changed.
func (p *Pane) View() string {
	if p.dirty {
		p.view = p.draw()
		p.dirty = false
	}
	return p.view
}

func (p *Pane) draw() string {
	st := p.Styles
	if common.ExchangeAddress(p.ex) == "" {
		return common.FitLines([]string{st.Muted.On("no account: start with --keystore or a key to move collateral")}, p.w, p.h)
	}
	if len(p.Store.Collateral()) == 0 {
		return common.FitLines([]string{st.Muted.On(common.EmptyFor(p.Store, state.KindCollateral, "no collateral is supported"))}, p.w, p.h)
	}
	var lines []string
	if s := common.FreshLine(st, p.Store, state.KindAccount, p.w); s != "" {
		lines = append(lines, s) // the withdrawable amounts below may be out of date
	}
	for f := 0; f < fieldCount; f++ {
		if p.hidden(f) {
			continue
		}
		lines = append(lines, strings.Split(p.fieldLine(f), "\n")...)
		for _, e := range p.errs {
			if p.showError(f, e) {
				lines = append(lines, common.Wrapped(st.FieldErr, "! "+fundsErrText(e), "    ", p.w)...)
			}
		}
	}
	if c := p.checked; c.Collateral.Symbol != "" && c.Amount.IsPositive() {
		lines = append(lines, common.Wrapped(st.Muted, c.FeeLine(), "    ", p.w)...)
	}
	if p.sending {
		lines = append(lines, "", st.Muted.On("sending…"))
	} else if p.result != "" {
		pt := st.Good
		if p.failed {
			pt = st.Danger
		}
		lines = append(lines, "")
		lines = append(lines, common.Wrapped(pt, p.result, "", p.w)...)
	}
	return common.FitLines(lines, p.w, p.h)
}

// showError reports whether e shows under field f: errors of fields typed into, or every error
// after Enter.
func (p *Pane) showError(f int, e funds.FieldError) bool {
	switch e.Field {
	case funds.FieldAmount:
		return f == FieldAmount && (p.tried || p.amount.Value() != "")
	case funds.FieldDestination:
		return f == FieldDestination && (p.tried || p.dest.Value() != "")
	case funds.FieldChain:
		return f == FieldChain
	case funds.FieldCollateral:
		return f == FieldCollateral
	}
	return f == FieldOp
}

func fundsErrText(e funds.FieldError) string {
	if e.Suggest != "" {
		return e.Msg + " (try " + e.Suggest + ")"
	}
	return e.Msg
}

func (p *Pane) fieldLine(f int) string {
	st := p.Styles
	cur := p.focused && p.field == f && (p.editing || f == FieldSubmit) // Enter reviews from outside too
	marker, label := "  ", st.FieldLabel
	if cur {
		marker, label = "▸ ", st.FieldFocus
	}
	arrows := ""
	if cur {
		arrows = st.Muted.On(" ←→")
	}
	var value string
	switch f {
	case FieldOp:
		value = st.Accent.On("["+p.opNow().String()+"]") + arrows
	case FieldCollateral:
		value = st.Accent.On("["+p.coll+"]") + arrows
		if c := p.checked; c.Collateral.Symbol != "" {
			w := "withdrawable " + state.FormatBalance(c.Withdrawable, c.Collateral.Symbol, int32(c.Collateral.Decimals)) +
				" (" + sideName(p.opNow()) + ")"
			if 14+ansi.StringWidth(value)+2+common.TextWidth(w) > p.w {
				// Too narrow for both: the figure goes on a line of its own rather than be cut.
				return marker + label.On(common.Pad(transferLabels[f], 12)) + value + "\n" + strings.Repeat(" ", 14) + st.Muted.On(w)
			}
			value += st.Muted.On("  " + w)
		}
	case FieldAmount:
		value = p.amount.View()
		if cur {
			value += st.Muted.On(" ctrl+a all")
		}
	case FieldDestination:
		value = p.dest.View()
	case FieldChain:
		value = st.Accent.On("["+p.chainText()+"]") + arrows
	case FieldSubmit:
		return common.Pad("", 16) + p.submitButton(cur)
	}
	return marker + label.On(common.Pad(transferLabels[f], 12)) + value
}

func sideName(op funds.Op) string {
	if op.FromSpot() {
		return "spot"
	}
	return "derivative"
}

func (p *Pane) chainText() string {
	if p.chain == 0 {
		return "none enabled"
	}
	c, _ := p.Store.CollateralBySymbol(p.coll)
	for _, b := range c.BridgeByChain {
		if int64(b.BridgeChainID) == p.chain && !b.Enabled {
			return funds.ChainName(p.chain) + " disabled"
		}
	}
	return funds.ChainName(p.chain)
}

func (p *Pane) submitButton(cur bool) string {
	st := p.Styles
	switch {
	case p.ReadOnly != "":
		return st.Muted.On("[ read-only: cannot move collateral ]")
	case p.ex.IsAgent():
		return st.Muted.On("[ agent key: cannot move collateral ]")
	case cur:
		return st.ButtonFocus.On(" Review ⏎ ")
	}
	return st.Button.On(" Review ")
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
