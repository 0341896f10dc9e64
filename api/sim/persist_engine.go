package sim

import "fmt"

// snapshot copies what a state file keeps (WithStateFile) out of the engine.
func (e *engine) snapshot(maxNonce uint64) *stateDoc {
	s := &stateDoc{Version: stateVersion, Saved: e.now(), MaxNonce: maxNonce, NextOid: e.nextOid, NextTid: e.nextTid,
		NextTx: e.nextTx, FundedAt: e.fundedAt, In: e.ledger.in, Out: e.ledger.out}
	for _, m := range e.markets {
		s.Markets = append(s.Markets, snapMarket{ID: m.id, Index: m.index, Mark: m.mark, Last: m.last})
	}
	e.ctl.init()
	for addr, ok := range e.ctl.fauced {
		if ok {
			s.Faucet = append(s.Faucet, addr)
		}
	}
	for _, ag := range e.ctl.agents {
		s.Agents = append(s.Agents, snapAgent{Addr: ag.addr, Account: ag.account, Name: ag.name, Created: ag.created, Until: ag.until})
	}
	for _, a := range e.allAccounts() {
		s.Accounts = append(s.Accounts, snapAccountOf(a))
	}
	return s
}

func snapAccountOf(a *account) snapAccount {
	sa := snapAccount{Addr: a.addr, Internal: a.internal, Spot: a.spot, Deriv: a.deriv, Volume: a.volume, SpotVol: a.spotVol,
		Pnl: a.pnl, Peak: a.peak, MaxDD: a.maxDD, Created: a.created}
	for id, p := range a.pos {
		sa.Pos = append(sa.Pos, snapPos{ID: id, Size: p.size, Cost: p.cost, IsoMargin: p.isoMargin, Lev: p.lev, Isolated: p.isolated, Updated: p.updated})
	}
	for id, l := range a.lev {
		sa.Lev = append(sa.Lev, snapLev{ID: id, Mode: l.mode, Lev: l.lev, Updated: l.updated})
	}
	for i := len(a.fills) - 1; i >= 0; i-- { // oldest first
		f := a.fillAt(i)
		sa.Fills = append(sa.Fills, snapFill{Mkt: f.mkt.id, Oid: f.oid, Cloid: f.cloid, Trade: f.trade, Buy: f.buy, Crossed: f.crossed,
			Dir: f.dir, OpenDir: f.openDir, TxHash: f.txHash, Price: f.price, Lots: f.lots, StartSize: f.startSize,
			ClosedPnl: f.closedPnl, Fee: f.fee, StartCost: f.startCost, FillType: f.fillType, At: f.at})
	}
	for _, f := range a.funding {
		sa.Funding = append(sa.Funding, snapFunding{Mkt: f.mkt.id, Amount: f.amount, Rate: f.rate, Mark: f.mark, Size: f.size, At: f.at})
	}
	for _, t := range a.transfers {
		sa.Transfers = append(sa.Transfers, snapTransfer{Kind: t.kind, Coll: t.coll.rec.ID, Amount: t.amount, Fee: t.fee,
			Proceeds: t.proceeds, Price: t.price, From: t.from, To: t.to, TxHash: t.txHash, Dir: t.dir, Chain: t.chain, At: t.at})
	}
	return sa
}

// restore puts a state file's contents into a new engine.
func (e *engine) restore(s *stateDoc) error {
	e.nextOid, e.nextTid, e.nextTx, e.fundedAt = s.NextOid, s.NextTid, s.NextTx, s.FundedAt
	for id, v := range s.In {
		e.ledger.in[id] = v
	}
	for id, v := range s.Out {
		e.ledger.out[id] = v
	}
	for _, sm := range s.Markets {
		if m := e.byID[sm.ID]; m != nil {
			m.index, m.mark, m.last = sm.Index, sm.Mark, sm.Last
		}
	}
	e.ctl.init()
	for _, addr := range s.Faucet {
		e.ctl.fauced[addr] = true
	}
	for _, ag := range s.Agents {
		e.ctl.agents[ag.Addr] = &agentRec{addr: ag.Addr, account: ag.Account, name: ag.Name, created: ag.Created, until: ag.Until, nonces: newNonceSet()}
	}
	for i := range s.Accounts {
		if err := e.restoreAccount(&s.Accounts[i]); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) restoreAccount(sa *snapAccount) error {
	a := e.accounts[sa.Addr]
	switch {
	case sa.Internal && a == nil:
		return fmt.Errorf("state file: house account %s is not this simulator's", sa.Addr)
	case !sa.Internal:
		a = e.fresh(sa.Addr)
		e.accounts[sa.Addr] = a
		e.users = append(e.users, a)
	}
	for id, v := range sa.Spot {
		a.spot[id] = v
	}
	for id, v := range sa.Deriv {
		a.deriv[id] = v
	}
	a.volume, a.spotVol, a.pnl, a.peak, a.maxDD = sa.Volume, sa.SpotVol, sa.Pnl, sa.Peak, sa.MaxDD
	if !sa.Created.IsZero() {
		a.created = sa.Created
	}
	for _, p := range sa.Pos {
		m := e.byID[p.ID]
		if m == nil {
			return fmt.Errorf("state file: %s holds a position on instrument %d, which this simulator does not list (same --markets?)", sa.Addr, p.ID)
		}
		a.pos[p.ID] = &position{size: p.Size, cost: p.Cost, isoMargin: p.IsoMargin, lev: p.Lev, isolated: p.Isolated, updated: p.Updated}
		m.oi += max(p.Size, 0)
	}
	for _, l := range sa.Lev {
		a.lev[l.ID] = &levSetting{mode: l.Mode, lev: l.Lev, updated: l.Updated}
	}
	for _, f := range sa.Fills {
		if m := e.byID[f.Mkt]; m != nil {
			a.addFill(fillRec{mkt: m, oid: f.Oid, cloid: f.Cloid, trade: f.Trade, buy: f.Buy, crossed: f.Crossed, dir: f.Dir,
				openDir: f.OpenDir, txHash: f.TxHash, price: f.Price, lots: f.Lots, startSize: f.StartSize, closedPnl: f.ClosedPnl,
				fee: f.Fee, startCost: f.StartCost, fillType: f.FillType, at: f.At})
		}
	}
	for _, f := range sa.Funding {
		if m := e.byID[f.Mkt]; m != nil {
			a.funding = append(a.funding, fundingRec{mkt: m, amount: f.Amount, rate: f.Rate, mark: f.Mark, size: f.Size, at: f.At})
		}
	}
	for _, t := range sa.Transfers {
		if c := e.collByID[t.Coll]; c != nil {
			a.transfers = append(a.transfers, transferRec{kind: t.Kind, coll: c, amount: t.Amount, fee: t.Fee, proceeds: t.Proceeds,
				price: t.Price, from: t.From, to: t.To, txHash: t.TxHash, dir: t.Dir, chain: t.Chain, at: t.At})
		}
	}
	a.seen = e.now()
	return nil
}
