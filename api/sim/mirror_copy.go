package sim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// CopyAccount opens a paper account at addr as a copy of a live account read over /info: its
// spot and derivative balances (deposited) and its perpetual positions at their entry prices
// (taken over from the house maker account, no fee). Nothing is sent to the live exchange; the
// copy moves on its own from then on. It fails for an account the simulator already knows.
func (s *Sim) CopyAccount(addr string, sum api.AccountSummary, positions []api.Position) error {
	defer s.publish(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	a, err := canonical(addr)
	if err != nil {
		return err
	}
	if e.known(a) != nil {
		return fmt.Errorf("account %s is open already: a copy starts a fresh paper account", a)
	}
	acct := e.account(a)
	for _, side := range []struct {
		bals  map[string]api.CollateralBalance
		deriv bool
	}{{sum.SpotCollateral, false}, {sum.Collateral, true}} {
		for key, b := range side.bals {
			c := e.collByKey(key)
			if c == nil || !b.Balance.IsPositive() {
				continue
			}
			amt := b.Balance.Truncate(int32(c.rec.Decimals))
			if side.deriv {
				acct.deriv[c.rec.ID] = acct.deriv[c.rec.ID].Add(amt)
			} else {
				acct.spot[c.rec.ID] = acct.spot[c.rec.ID].Add(amt)
			}
			e.ledger.deposit(c.rec.ID, amt)
			e.noteDeposit(acct, c.rec.ID, amt)
		}
	}
	for _, p := range positions {
		m := e.byID[p.InstrumentID]
		if m == nil || m.spot || p.Size.IsZero() {
			continue
		}
		px, q := max(m.tick.round(p.EntryPrice), 1), lots(m.lot, p.Size.Abs())
		if q == 0 {
			continue
		}
		buy := p.Size.IsPositive()
		var f, g fillRec
		e.applyPerpFill(acct, m, buy, px, q, decimal.Zero, &f)
		e.applyPerpFill(e.maker, m, !buy, px, q, decimal.Zero, &g)
	}
	return nil
}

// collByKey finds a collateral by an account summary's key: its id as text or its symbol.
func (e *engine) collByKey(key string) *collateralSpec {
	if id, err := strconv.ParseInt(strings.TrimSpace(key), 10, 64); err == nil {
		return e.collByID[api.CollateralID(id)]
	}
	for i := range e.colls {
		if strings.EqualFold(e.colls[i].rec.Symbol, key) {
			return &e.colls[i]
		}
	}
	return nil
}
