package sim

import (
	"github.com/shopspring/decimal"
)

// houseRoles says what each of the exchange's own accounts does, by the name its address is
// derived from (houseAddress).
var houseRoles = []struct{ name, role string }{
	{"fees", "receives every trading, transfer and withdrawal fee, pays the makers' rebates, keeps funding's rounding remainder"},
	{"insurance", "receives liquidation fees and seized collateral, pays what a bankrupt account cannot; may go below zero, and while it is, the most profitable user positions opposite the liquidator's are auto-deleveraged to refill it"},
	{"maker", "the simulated market makers' positions and balances"},
	{"taker", "the simulated random takers' positions and balances"},
	{"liquidator", "takes over liquidated positions at the mark and keeps them, less what auto-deleveraging closes"},
}

// houseJSON is one of the exchange's own accounts as exchange_accounts lists it.
type houseJSON struct {
	Name        string                     `json:"name"`
	Address     string                     `json:"address"`
	Role        string                     `json:"role"`
	Spot        map[string]decimal.Decimal `json:"spot"`
	Derivatives map[string]decimal.Decimal `json:"derivatives"`
	Positions   map[string]decimal.Decimal `json:"positions"`
}

// exchangeJSON answers exchange_accounts: the house accounts, and the whole system's balance
// sheet (Books): held equals deposited − withdrawn per collateral, to the unit.
type exchangeJSON struct {
	Accounts  []houseJSON                `json:"accounts"`
	Held      map[string]decimal.Decimal `json:"held"`
	Deposited map[string]decimal.Decimal `json:"deposited"`
	Withdrawn map[string]decimal.Decimal `json:"withdrawn"`
}

// infoExchangeAccounts answers exchange_accounts {}: the simulator's own accounts with their
// addresses, roles, balances and positions, and the sums over every account.
func (s *Sim) infoExchangeAccounts(*infoParams) (any, error) {
	e := s.eng
	b := e.books()
	out := exchangeJSON{Held: b.Held, Deposited: b.In, Withdrawn: b.Out}
	for _, h := range houseRoles {
		addr := houseAddress(h.name)
		j := houseJSON{Name: h.name, Address: addr, Role: h.role, Spot: map[string]decimal.Decimal{},
			Derivatives: map[string]decimal.Decimal{}, Positions: map[string]decimal.Decimal{}}
		if a := e.accounts[addr]; a != nil {
			for _, c := range e.colls {
				j.Spot[c.rec.Symbol] = a.spot[c.rec.ID]
				j.Derivatives[c.rec.Symbol] = a.deriv[c.rec.ID]
			}
			for _, m := range e.markets {
				if p := a.pos[m.id]; p != nil {
					j.Positions[m.name] = m.qty(p.size)
				}
			}
		}
		out.Accounts = append(out.Accounts, j)
	}
	return out, nil
}
