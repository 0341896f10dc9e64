package sim

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// The exchange's own accounts. Each address is keccak256("tradedesk-sim/" + name), so nobody holds
// its key; account_summary answers for each like for any other account.
var (
	// FeeAccount receives every trading, transfer and withdrawal fee, pays the makers' rebates,
	// and keeps the remainder of funding rounding.
	FeeAccount = houseAddress("fees")
	// InsuranceFund receives liquidation fees and collateral seized from bankrupt accounts, and
	// pays the part of a liquidation loss that the whole account cannot cover; below zero, it is
	// refilled by auto-deleveraging (the package doc's Money).
	InsuranceFund = houseAddress("insurance")
	// MakerAccount holds the simulator's market makers' positions and balances.
	MakerAccount = houseAddress("maker")
	// TakerAccount holds the simulator's random takers' positions and balances.
	TakerAccount = houseAddress("taker")
	// LiquidatorAccount takes over liquidated positions at the mark price.
	LiquidatorAccount = houseAddress("liquidator")
)

func houseAddress(name string) string {
	return common.BytesToAddress(secp.Keccak256([]byte("tradedesk-sim/" + name))).Hex()
}

// ledger counts the money that entered the exchange (demo balances, Deposit) and left it
// (withdrawals, the balances of forgotten accounts), per collateral. Everything else only moves
// money between accounts, so the sum over every account equals in − out, to the last unit.
type ledger struct {
	in, out map[api.CollateralID]decimal.Decimal
}

func newLedger() ledger {
	return ledger{in: map[api.CollateralID]decimal.Decimal{}, out: map[api.CollateralID]decimal.Decimal{}}
}

func (l *ledger) deposit(id api.CollateralID, v decimal.Decimal)  { l.in[id] = l.in[id].Add(v) }
func (l *ledger) withdraw(id api.CollateralID, v decimal.Decimal) { l.out[id] = l.out[id].Add(v) }

// forget books the balances of an account the simulator forgets as money that left.
func (l *ledger) forget(a *account) {
	for id, v := range a.spot {
		l.withdraw(id, v)
	}
	for id, v := range a.deriv {
		l.withdraw(id, v)
	}
}

// Rounding. Every balance is kept at its collateral's decimals (USDC: 6). An amount an account
// pays (a fee, funding owed, margin set aside) is rounded up to the next unit; an amount it
// receives (a rebate, funding earned, margin released, seized collateral's value) is rounded
// down; the exchange account on the other side (fees, insurance) takes exactly the rounded
// amount, so no unit is created or lost. A position's cost is split on a partial close at the
// nearest unit, and the remainder stays in the position until it closes.

// decimalsOf is a collateral's number of decimals (6 for an unknown id).
func (e *engine) decimalsOf(id api.CollateralID) int32 {
	if c := e.collByID[id]; c != nil {
		return int32(c.rec.Decimals)
	}
	return 6
}

// payUp rounds an amount owed to the exchange up to the collateral's unit (a negative amount, a
// rebate the exchange owes, rounds toward zero).
func (e *engine) payUp(id api.CollateralID, v decimal.Decimal) decimal.Decimal {
	return v.RoundCeil(e.decimalsOf(id))
}

// receiveDown rounds an amount the account receives down to the collateral's unit.
func (e *engine) receiveDown(id api.CollateralID, v decimal.Decimal) decimal.Decimal {
	return v.RoundFloor(e.decimalsOf(id))
}

// feeFor is the fee on a notional at a rate, at USDC's decimals: charges round up, rebates round
// toward zero.
func (e *engine) feeFor(notional, rate decimal.Decimal) decimal.Decimal {
	return e.payUp(collUSDC, notional.Mul(rate))
}

// collectFee moves a fee (negative: a rebate) between an account's balance and the exchange
// account that receives it, on the derivative (deriv true) or spot side.
func collectFee(from, to *account, id api.CollateralID, fee decimal.Decimal, deriv bool) {
	if fee.IsZero() {
		return
	}
	from.dirty, to.dirty = true, true
	if deriv {
		from.deriv[id] = from.deriv[id].Sub(fee)
		to.deriv[id] = to.deriv[id].Add(fee)
		return
	}
	from.spot[id] = from.spot[id].Sub(fee)
	to.spot[id] = to.spot[id].Add(fee)
}

// Books is the exchange's balance sheet at one moment, for checking that money is conserved.
type Books struct {
	// Held is, per collateral symbol, the sum over every account (users and the exchange's own)
	// of spot and derivative balances and isolated margin, less, for USDC, the cost of every
	// open perpetual position (the sum of all unrealised PnL is minus that cost, since every
	// contract has a buyer and a seller).
	Held map[string]decimal.Decimal
	// In and Out are the money that entered (demo balances, deposits) and left (withdrawals,
	// forgotten accounts) per collateral symbol.
	In, Out map[string]decimal.Decimal
	// OpenLots is the sum of all position sizes per instrument, in lots; zero when every
	// contract has two sides.
	OpenLots map[string]int64
	// Loose lists balances that carry more decimals than their collateral has.
	Loose []string
}

// Books returns the simulator's balance sheet. Money is conserved when Held equals In − Out for
// every collateral and every OpenLots is zero.
func (s *Sim) Books() Books {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.books()
}

func (e *engine) books() Books {
	b := Books{Held: map[string]decimal.Decimal{}, In: map[string]decimal.Decimal{}, Out: map[string]decimal.Decimal{},
		OpenLots: map[string]int64{}}
	sym := func(id api.CollateralID) string {
		if c := e.collByID[id]; c != nil {
			return c.rec.Symbol
		}
		return "?"
	}
	for _, c := range e.colls {
		id := c.rec.ID
		b.Held[c.rec.Symbol] = decimal.Zero
		b.In[c.rec.Symbol] = e.ledger.in[id]
		b.Out[c.rec.Symbol] = e.ledger.out[id]
	}
	add := func(a *account, id api.CollateralID, v decimal.Decimal, where string) {
		b.Held[sym(id)] = b.Held[sym(id)].Add(v)
		if !v.Equal(v.Round(e.decimalsOf(id))) {
			b.Loose = append(b.Loose, a.addr+" "+where+" "+sym(id)+" "+v.String())
		}
	}
	for _, a := range e.allAccounts() {
		for id, v := range a.spot {
			add(a, id, v, "spot")
		}
		for id, v := range a.deriv {
			add(a, id, v, "derivative")
		}
		for _, m := range e.markets {
			p := a.pos[m.id]
			if p == nil {
				continue
			}
			add(a, collUSDC, p.isoMargin, m.name+" isolated margin")
			add(a, collUSDC, p.signedCost().Neg(), m.name+" cost")
			b.OpenLots[m.name] += p.size
		}
	}
	return b
}

// allAccounts lists the user accounts in creation order, then the exchange's own.
func (e *engine) allAccounts() []*account {
	out := make([]*account, 0, len(e.users)+len(e.house))
	out = append(out, e.users...)
	return append(out, e.house...)
}
