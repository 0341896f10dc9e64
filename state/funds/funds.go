// Package funds checks transfers and withdrawals before anything is signed: the collateral, the
// amount against the collateral's decimals and the account's withdrawable balance, the
// destination address (hex, length, EIP-55 checksum) and the withdrawal chain against the
// collateral's enabled bridges. The transfer dialogs and the headless transfer and withdraw
// commands share this one path.
package funds

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
)

// Op is one kind of money movement.
type Op int

// The money movements an account can make.
const (
	SpotTransfer       Op = iota // spot balance to another account
	DerivativeTransfer           // derivative balance to another account
	ToDerivative                 // the account's own spot side to its derivative side
	ToSpot                       // the account's own derivative side to its spot side
	SpotWithdraw                 // spot balance out to a chain
	DerivativeWithdraw           // derivative balance out to a chain
)

// Ops lists every Op in menu order.
var Ops = []Op{SpotTransfer, DerivativeTransfer, ToDerivative, ToSpot, SpotWithdraw, DerivativeWithdraw}

// String names the op for menus and confirmations.
func (o Op) String() string {
	switch o {
	case SpotTransfer:
		return "spot transfer"
	case DerivativeTransfer:
		return "derivative transfer"
	case ToDerivative:
		return "spot to derivative"
	case ToSpot:
		return "derivative to spot"
	case SpotWithdraw:
		return "spot withdrawal"
	case DerivativeWithdraw:
		return "derivative withdrawal"
	}
	return fmt.Sprintf("op(%d)", int(o))
}

// FromSpot reports whether the op takes its amount from the spot side (else the derivative side).
func (o Op) FromSpot() bool { return o == SpotTransfer || o == ToDerivative || o == SpotWithdraw }

// Withdraws reports whether the op sends collateral out to a chain.
func (o Op) Withdraws() bool { return o == SpotWithdraw || o == DerivativeWithdraw }

// NeedsDestination reports whether the op sends to another account's address.
func (o Op) NeedsDestination() bool { return o == SpotTransfer || o == DerivativeTransfer }

// side names the balance the op draws from.
func (o Op) side() string {
	if o.FromSpot() {
		return "spot"
	}
	return "derivative"
}

// Field names of FieldError.Field.
const (
	FieldOp          = "op"
	FieldCollateral  = "collateral"
	FieldAmount      = "amount"
	FieldDestination = "destination"
	FieldChain       = "chain"
)

// FieldError is one problem with a request: the field, what is wrong and how to fix it, and a
// value to offer (never applied by Check).
type FieldError struct {
	Field   string
	Msg     string
	Suggest string
}

// Error implements error.
func (e FieldError) Error() string { return e.Field + ": " + e.Msg }

// Errors joins field errors into one error (nil when there are none), for headless commands.
func Errors(errs []FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	all := make([]error, len(errs))
	for i, e := range errs {
		all[i] = e
	}
	return errors.Join(all...)
}

// Request is a movement as the trader typed it.
type Request struct {
	Op          Op
	Collateral  string // symbol, case-insensitive (or the numeric id)
	Amount      string // raw text
	Destination string // transfers to another account only
	Chain       int64  // withdrawals only: the chain id (0: not chosen)
}

// Checked is a request that passed every check, ready to confirm and send.
type Checked struct {
	Op           Op
	Collateral   api.Collateral
	Amount       decimal.Decimal
	Destination  string     // EIP-55 checksummed; transfers to another account only
	Bridge       api.Bridge // withdrawals only
	Fee          decimal.Decimal
	Withdrawable decimal.Decimal // on the side the amount is taken from, before the movement
	Account      string          // the account the movement is made from
}

// Receive is what arrives: the whole amount (the fee is charged on top).
func (c Checked) Receive() decimal.Decimal { return c.Amount }

// Total is what leaves the account: the amount plus the fee.
func (c Checked) Total() decimal.Decimal { return c.Amount.Add(c.Fee) }

// AmountText is the amount as it is signed and sent, at most the collateral's decimals.
func (c Checked) AmountText() string { return c.Amount.String() }

// Balances is the account data a check needs: the summary's spot and derivative collateral.
type Balances struct {
	Account    string
	Spot       map[string]api.CollateralBalance
	Derivative map[string]api.CollateralBalance
}

// BalancesOf takes the balances from an account summary.
func BalancesOf(s api.AccountSummary) Balances {
	return Balances{Account: s.Address, Spot: s.SpotCollateral, Derivative: s.Collateral}
}

// withdrawable is the amount the op may take from its side.
func (b Balances) withdrawable(op Op, symbol string) decimal.Decimal {
	m := b.Derivative
	if op.FromSpot() {
		m = b.Spot
	}
	for k, v := range m {
		if strings.EqualFold(k, symbol) {
			return v.WithdrawableBalance
		}
	}
	return decimal.Zero
}

// Check validates a request against the supported collateral and the account's balances. Every
// problem found is returned, each saying what to fix; Checked is meaningful only without errors.
func Check(req Request, collateral []api.Collateral, bal Balances) (Checked, []FieldError) {
	var errs []FieldError
	if req.Op < SpotTransfer || req.Op > DerivativeWithdraw {
		return Checked{}, []FieldError{{Field: FieldOp, Msg: fmt.Sprintf("unknown movement %d", int(req.Op))}}
	}
	c := Checked{Op: req.Op, Account: bal.Account}
	coll, err := findCollateral(req.Collateral, collateral)
	if err != nil {
		errs = append(errs, *err)
	} else {
		c.Collateral = coll
		c.Withdrawable = bal.withdrawable(req.Op, coll.Symbol)
	}
	if req.Op.NeedsDestination() {
		dest, err := checkDestination(req.Destination, bal.Account)
		if err != nil {
			errs = append(errs, *err)
		}
		c.Destination = dest
	}
	if coll.Symbol == "" {
		return c, errs // amount, fee and chain all depend on the collateral
	}
	if req.Op.Withdraws() {
		b, err := checkChain(coll, req.Chain)
		if err != nil {
			errs = append(errs, *err)
		}
		c.Bridge = b
	}
	amount, err := checkAmount(req.Amount, coll)
	if err != nil {
		return c, append(errs, *err)
	}
	c.Amount = amount
	c.Fee = Fee(req.Op, coll, amount)
	if err := checkFunds(c); err != nil {
		errs = append(errs, *err)
	}
	return c, errs
}

// Fee is the fee of moving amount, charged on top of it: the collateral's flat withdrawal fee for
// a withdrawal, its transfer_notional_fee rate times the amount for a transfer to another
// account, nothing for a move between the account's own sides.
func Fee(op Op, coll api.Collateral, amount decimal.Decimal) decimal.Decimal {
	switch {
	case op.Withdraws():
		return coll.WithdrawalFee
	case op.NeedsDestination():
		return amount.Mul(coll.TransferNotionalFee)
	}
	return decimal.Zero
}

// MaxAmount is the most that op can move out of withdrawable once its fee is added, at the
// collateral's decimals (zero when the fee alone is more).
func MaxAmount(op Op, coll api.Collateral, withdrawable decimal.Decimal) decimal.Decimal {
	most := withdrawable
	switch {
	case op.Withdraws():
		most = withdrawable.Sub(coll.WithdrawalFee)
	case op.NeedsDestination():
		most = withdrawable.Div(decimal.NewFromInt(1).Add(coll.TransferNotionalFee))
	}
	return decimal.Max(most.Truncate(int32(coll.Decimals)), decimal.Zero)
}

// checkFunds checks the amount and its fee against the withdrawable balance; the suggestion is
// the most that can be sent (for a rate fee, rounded down to the collateral's decimals).
func checkFunds(c Checked) *FieldError {
	sym := c.Collateral.Symbol
	if !c.Total().GreaterThan(c.Withdrawable) {
		return nil
	}
	suggest := ""
	if most := suggestAmount(c); most.IsPositive() {
		suggest = most.String()
	}
	amount, fee, have := c.shown(c.Amount), state.FormatFee(c.Fee, c.displayDecimals()), c.shown(c.Withdrawable)
	if c.shown(c.Total()) == have {
		// At the display precision the figures would read as enough: write them in full.
		amount, fee, have = c.exact(c.Amount), c.exact(c.Fee), c.exact(c.Withdrawable)
	}
	if c.Fee.IsZero() {
		return &FieldError{Field: FieldAmount, Suggest: suggest, Msg: fmt.Sprintf(
			"%s %s is more than the %s %s withdrawable from %s", amount, sym, have, sym, c.Op.side())}
	}
	return &FieldError{Field: FieldAmount, Suggest: suggest, Msg: fmt.Sprintf(
		"%s %s plus the %s %s fee is more than the %s %s withdrawable from %s", amount, sym, fee, sym, have, sym, c.Op.side())}
}

// suggestAmount is the amount an over-large movement is offered instead: the most that can be
// sent, rounded down to the collateral's display precision so it reads like the figures beside
// it and still passes the check when typed back (rounding up would not). A most too small to
// show at that precision is offered whole.
func suggestAmount(c Checked) decimal.Decimal {
	most := MaxAmount(c.Op, c.Collateral, c.Withdrawable)
	if shown := most.Truncate(c.displayDecimals()); shown.IsPositive() {
		return shown
	}
	return most
}

// displayDecimals is the collateral's display precision (state.DisplayDecimals).
func (c Checked) displayDecimals() int32 {
	return state.DisplayDecimals(c.Collateral.Symbol, int32(c.Collateral.Decimals))
}

// shown writes an amount of the collateral at its display precision, with separators: the one
// number style of balances ("99,259.29" USDC).
func (c Checked) shown(d decimal.Decimal) string {
	return state.FormatBalance(d, c.Collateral.Symbol, int32(c.Collateral.Decimals))
}

// exact writes an amount that is signed or charged with separators, at the display precision or
// more when the amount has more decimals, so a confirmation never rounds what is sent.
func (c Checked) exact(d decimal.Decimal) string {
	return state.FormatPrice(d, max(c.displayDecimals(), state.StepDecimals(d)))
}

// FeeLine is the fee and what leaves and arrives, as the form shows it under the amount:
// "fee 1.00 USDC on top · 101.00 USDC leaves · 100.00 USDC arrives".
func (c Checked) FeeLine() string {
	sym := " " + c.Collateral.Symbol
	return "fee " + c.exact(c.Fee) + sym + " on top · " + c.exact(c.Total()) + sym + " leaves · " + c.exact(c.Receive()) + sym + " arrives"
}

// Doer sends one signed action through the journal, after the caller's gate: *exec.Executor is
// one (exec.Executor.Do). Taking it, not the executor, keeps the journal out of the packages that
// only check a movement.
type Doer interface {
	Do(ctx context.Context, kind string, ask send.Ask, call func(ctx context.Context) (api.TxResponse, error)) (send.Result, error)
}

// Do sends the checked movement through the executor's journal (exec.Executor.Do): committed
// before it is signed, signed and sent once through t, and what became of it (done with its tx
// hash, rejected, not sent, or unknown when the answer was lost and the transfer history did not
// settle it). Only Check makes a Checked, so nothing moves without passing the gate. ask.What
// defaults to Words.
func (c Checked) Do(ctx context.Context, e Doer, t api.Trader, ask send.Ask) (send.Result, error) {
	kind := send.ActTransfer
	if c.Op.Withdraws() {
		kind = send.ActWithdraw
	}
	if ask.What == "" {
		ask.What = c.Words()
	}
	return e.Do(ctx, kind, ask, func(ctx context.Context) (api.TxResponse, error) { return c.sign(ctx, t) })
}

// Words is the movement in a few words, for the journal: what, how much, where to.
func (c Checked) Words() string {
	s := c.Op.String() + " " + c.AmountText() + " " + c.Collateral.Symbol
	switch {
	case c.Op.NeedsDestination():
		s += " to " + c.Destination
	case c.Op.Withdraws():
		s += fmt.Sprintf(" to chain %d", c.Bridge.BridgeChainID)
	}
	return s
}

// Send signs and sends the checked movement through t, without the journal: Do is the path that
// journals it (the console's transfer dialog moves to it). An exchange error (in the response's
// error field) is returned as an error, with the response.
func (c Checked) Send(ctx context.Context, t api.Trader) (api.TxResponse, error) {
	resp, err := c.sign(ctx, t)
	if err == nil && resp.Error != "" {
		err = fmt.Errorf("exchange refused the %s: %s", c.Op, resp.Error)
	}
	return resp, err
}

// sign makes the one signed call of the movement.
func (c Checked) sign(ctx context.Context, t api.Trader) (api.TxResponse, error) {
	id, amt := c.Collateral.ID, c.AmountText()
	var (
		resp api.TxResponse
		err  error
	)
	switch c.Op {
	case SpotTransfer:
		resp, err = t.SpotTransfer(ctx, id, amt, c.Destination)
	case DerivativeTransfer:
		resp, err = t.DerivativeTransfer(ctx, id, amt, c.Destination)
	case ToDerivative, ToSpot:
		resp, err = t.InternalTransfer(ctx, id, amt, c.Op == ToDerivative)
	case SpotWithdraw:
		resp, err = t.SpotWithdraw(ctx, id, amt, int64(c.Bridge.BridgeChainID))
	case DerivativeWithdraw:
		resp, err = t.DerivativeWithdraw(ctx, id, amt, int64(c.Bridge.BridgeChainID))
	default:
		return api.TxResponse{}, fmt.Errorf("unknown movement %d", int(c.Op))
	}
	return resp, err
}

// Confirm is the confirmation text, one line each: what moves, from where to where (the address
// in full), the fee and what arrives.
func (c Checked) Confirm() []string {
	sym := c.Collateral.Symbol
	lines := []string{fmt.Sprintf("%s: %s %s", capitalize(c.Op.String()), c.exact(c.Amount), sym)}
	switch {
	case c.Op.NeedsDestination():
		lines = append(lines, "from your "+c.Op.side()+" balance to", "  "+c.Destination)
	case c.Op.Withdraws():
		lines = append(lines, "from your "+c.Op.side()+" balance to your address", "  "+c.Account,
			"on "+ChainName(int64(c.Bridge.BridgeChainID)))
	default:
		to := "derivative"
		if c.Op == ToSpot {
			to = "spot"
		}
		lines = append(lines, fmt.Sprintf("from your %s balance to your %s balance", c.Op.side(), to))
	}
	lines = append(lines, fmt.Sprintf("fee %s %s on top: %s %s leaves, %s %s arrives", c.exact(c.Fee), sym, c.exact(c.Total()), sym,
		c.exact(c.Receive()), sym))
	return lines
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
