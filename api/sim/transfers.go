package sim

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// amount parses a collateral amount: positive, within the collateral's decimals.
func (e *engine) amount(id api.CollateralID, s string) (*collateralSpec, decimal.Decimal, error) {
	c := e.collByID[id]
	if c == nil {
		return nil, decimal.Zero, fmt.Errorf("unknown collateral id %d: see supported_collateral", id)
	}
	v, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return nil, decimal.Zero, fmt.Errorf("amount %q is not a decimal number", trunc(s, 30))
	}
	if !v.IsPositive() {
		return nil, decimal.Zero, fmt.Errorf("amount %s must be above zero", v)
	}
	if -v.Exponent() > int32(c.rec.Decimals) && !v.Equal(v.Round(int32(c.rec.Decimals))) {
		return nil, decimal.Zero, fmt.Errorf("amount %s has more than %d decimals, the most %s allows", v, c.rec.Decimals, c.rec.Symbol)
	}
	return c, v, nil
}

// derivFree is how much of a collateral the derivative account can move out without breaking
// its margin: the balance, limited by available margin.
// It is rounded down to the collateral's decimals, so the figure shown can be moved as it is.
// While the account owes USDC, nothing else leaves it.
func (e *engine) derivFree(a *account, id api.CollateralID) decimal.Decimal {
	bal := a.deriv[id]
	if id != collUSDC && a.deriv[collUSDC].IsNegative() {
		return decimal.Zero
	}
	r := e.risk(a)
	avail := decimal.Max(r.available(), decimal.Zero)
	if id != collUSDC {
		c := e.collByID[id]
		worth := e.collPrice(id).Mul(c.rec.DefaultCollWeight)
		if !worth.IsPositive() {
			return decimal.Zero
		}
		avail = avail.DivRound(worth, int32(c.rec.Decimals)+2)
	}
	return e.receiveDown(id, decimal.Max(decimal.Min(bal, avail), decimal.Zero))
}

// owes refuses to move non-USDC collateral out of a derivative account that owes USDC.
func (e *engine) owes(a *account, id api.CollateralID) error {
	if debt := a.deriv[collUSDC]; id != collUSDC && debt.IsNegative() {
		return fmt.Errorf("the derivative account owes %s USDC: transfer USDC in to repay it before moving %s out",
			debt.Neg(), e.collByID[id].rec.Symbol)
	}
	return nil
}

func short(what, sym string, need, have decimal.Decimal) error {
	return fmt.Errorf("insufficient %s %s: need %s, %s available", what, sym, need, decimal.Max(have, decimal.Zero))
}

// transfer moves collateral from the account's spot (derivative false) or derivative account
// to the same account type of another address. The collateral's transfer fee is charged on top.
func (e *engine) transfer(a *account, derivative bool, id api.CollateralID, amount, dest string) error {
	c, v, err := e.amount(id, amount)
	if err != nil {
		return err
	}
	to, err := canonical(dest)
	if err != nil {
		return fmt.Errorf("destination: %w", err)
	}
	if to == a.addr {
		return errors.New("destination is this account: use internalBalanceTransferRequest to move between spot and derivatives")
	}
	fee := e.payUp(id, v.Mul(c.rec.TransferNotionalFee))
	need := v.Add(fee)
	sym := c.rec.Symbol
	free, side := e.spotFree(a, id), "spot"
	if derivative {
		if err := e.owes(a, id); err != nil {
			return err
		}
		free, side = e.derivFree(a, id), "derivative"
	}
	if need.GreaterThan(free) {
		return short(side, sym, need, free)
	}
	b, err := e.openAccount(to)
	if err != nil {
		return fmt.Errorf("destination: %w", err)
	}
	if derivative {
		a.deriv[id] = a.deriv[id].Sub(v)
		b.deriv[id] = b.deriv[id].Add(v)
	} else {
		a.spot[id] = a.spot[id].Sub(v)
		b.spot[id] = b.spot[id].Add(v)
	}
	collectFee(a, e.fees, id, fee, derivative)
	kind := xferSpot
	if derivative {
		kind = xferDeriv
	}
	e.noteTransfer(transferRec{kind: kind, coll: c, amount: v, fee: fee}, a, b)
	return nil
}

// internalTransfer moves collateral between the account's own spot and derivative accounts.
func (e *engine) internalTransfer(a *account, id api.CollateralID, amount string, toDeriv bool) error {
	c, v, err := e.amount(id, amount)
	if err != nil {
		return err
	}
	if toDeriv {
		if free := e.spotFree(a, id); v.GreaterThan(free) {
			return short("spot", c.rec.Symbol, v, free)
		}
		a.spot[id] = a.spot[id].Sub(v)
		a.deriv[id] = a.deriv[id].Add(v)
		e.noteTransfer(transferRec{kind: xferInternal, coll: c, amount: v, fee: decimal.Zero, dir: dirToDeriv}, a, a)
		return nil
	}
	if err := e.owes(a, id); err != nil {
		return err
	}
	if free := e.derivFree(a, id); v.GreaterThan(free) {
		return short("derivative", c.rec.Symbol, v, free)
	}
	a.deriv[id] = a.deriv[id].Sub(v)
	a.spot[id] = a.spot[id].Add(v)
	e.noteTransfer(transferRec{kind: xferInternal, coll: c, amount: v, fee: decimal.Zero, dir: dirToSpot}, a, a)
	return nil
}

// withdraw takes collateral out of the spot or derivative account to a chain, charging the
// collateral's withdrawal fee on top.
func (e *engine) withdraw(a *account, derivative bool, id api.CollateralID, amount string, chain int64) error {
	c, v, err := e.amount(id, amount)
	if err != nil {
		return err
	}
	b, ok := c.bridgeFor(chain)
	if !ok {
		return fmt.Errorf("%s cannot be withdrawn to chain %d: supported chains are %s", c.rec.Symbol, chain, chainList(c))
	}
	if !b.Enabled {
		return fmt.Errorf("%s withdrawals to chain %d are disabled: use one of %s", c.rec.Symbol, chain, chainList(c))
	}
	fee := c.rec.WithdrawalFee
	need := v.Add(fee)
	if derivative {
		if err := e.owes(a, id); err != nil {
			return err
		}
		if free := e.derivFree(a, id); need.GreaterThan(free) {
			return short("derivative", c.rec.Symbol, need, free)
		}
		a.deriv[id] = a.deriv[id].Sub(v)
	} else {
		if free := e.spotFree(a, id); need.GreaterThan(free) {
			return short("spot", c.rec.Symbol, need, free)
		}
		a.spot[id] = a.spot[id].Sub(v)
	}
	collectFee(a, e.fees, id, fee, derivative)
	e.ledger.withdraw(id, v)
	kind := xferSpotWithdraw
	if derivative {
		kind = xferDerivWithdraw
	}
	e.noteTransfer(transferRec{kind: kind, coll: c, amount: v, fee: fee, chain: chain}, a, a)
	return nil
}

func chainList(c *collateralSpec) string {
	var s []string
	for _, b := range c.rec.BridgeByChain {
		if b.Enabled {
			s = append(s, fmt.Sprint(b.BridgeChainID))
		}
	}
	return strings.Join(s, ", ")
}
