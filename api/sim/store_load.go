package sim

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
)

// load reads the store into a new engine: nothing when the store is new. It returns the
// highest nonce accepted.
func (st *store) load(e *engine) (uint64, error) {
	var raw []byte
	err := st.db.QueryRow(`SELECT v FROM meta WHERE k = 'state'`).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var meta metaRow
	if err := json.Unmarshal(raw, &meta); err != nil {
		return 0, err
	}
	if meta.Version != storeVersion {
		return 0, fmt.Errorf("version %d: %w %d", meta.Version, errStateVersion, storeVersion)
	}
	e.nextOid, e.nextTid, e.nextTx, e.fundedAt = meta.NextOid, meta.NextTid, meta.NextTx, meta.FundedAt
	for id, v := range meta.In {
		e.ledger.in[id] = v
	}
	for id, v := range meta.Out {
		e.ledger.out[id] = v
	}
	for _, step := range []func(*engine) error{st.loadMarkets, st.loadControl, st.loadAccounts, st.loadLogs, st.loadOrders, st.loadBrackets} {
		if err := step(e); err != nil {
			return 0, err
		}
	}
	return meta.MaxNonce, nil
}

// each runs a query and hands each row's columns to fn, stopping at the first error.
func (st *store) each(q string, fn func(scan func(...any) error) error) error {
	rs, err := st.db.Query(q)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		if err := fn(rs.Scan); err != nil {
			return err
		}
	}
	return rs.Err()
}

func (st *store) loadMarkets(e *engine) error {
	return st.each(`SELECT id, v FROM markets`, func(scan func(...any) error) error {
		var id api.InstrumentID
		var raw []byte
		var r marketRow
		if err := scan(&id, &raw); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		if m := e.byID[id]; m != nil {
			m.index, m.mark, m.last, m.funding, m.premSum, m.premN, m.paused = r.Index, r.Mark, r.Last, r.Funding, r.PremSum, r.PremN, r.Paused
			m.premInUnits = false // the sum is premSum's again
			st.seqs[id] = r.Seq
			if !r.Updated.IsZero() {
				m.updated = r.Updated
			}
			st.markets[id] = raw
		}
		return nil
	})
}

func (st *store) loadControl(e *engine) error {
	e.ctl.init()
	err := st.each(`SELECT addr FROM faucet`, func(scan func(...any) error) error {
		var addr string
		err := scan(&addr)
		e.ctl.fauced[addr] = true
		return err
	})
	if err != nil {
		return err
	}
	return st.each(`SELECT v FROM agents`, func(scan func(...any) error) error {
		var raw []byte
		var ag snapAgent
		if err := scan(&raw); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &ag); err != nil {
			return err
		}
		e.ctl.agents[ag.Addr] = &agentRec{addr: ag.Addr, account: ag.Account, name: ag.Name, created: ag.Created, until: ag.Until, nonces: newNonceSet()}
		return nil
	})
}

func (st *store) loadAccounts(e *engine) error {
	return st.each(`SELECT addr, internal, v FROM accounts ORDER BY rowid`, func(scan func(...any) error) error {
		var addr string
		var internal bool
		var raw []byte
		var r accountRow
		if err := scan(&addr, &internal, &raw); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		a := e.accounts[addr]
		switch {
		case internal && a == nil:
			return fmt.Errorf("house account %s is not this simulator's", addr)
		case !internal:
			a = e.fresh(addr)
			e.accounts[addr] = a
			e.users = append(e.users, a)
		}
		if err := e.restoreAccount(a, &r); err != nil {
			return err
		}
		if internal {
			st.house[addr] = raw
		} else if st.check {
			st.rows[addr] = mustJSON(a.row())
		}
		return nil
	})
}

// restoreAccount puts an account row's contents into an account.
func (e *engine) restoreAccount(a *account, r *accountRow) error {
	for id, v := range r.Spot {
		a.spot[id] = v
	}
	for id, v := range r.Deriv {
		a.deriv[id] = v
	}
	a.volume, a.spotVol, a.pnl, a.peak, a.maxDD = r.Volume, r.SpotVol, r.Pnl, r.Peak, r.MaxDD
	if !r.Created.IsZero() {
		a.created = r.Created
	}
	for _, p := range r.Pos {
		m := e.byID[p.ID]
		if m == nil {
			return fmt.Errorf("%s holds a position on instrument %d, which this simulator does not list (same --markets?)", a.addr, p.ID)
		}
		a.pos[p.ID] = &position{size: p.Size, cost: p.Cost, isoMargin: p.IsoMargin, lev: p.Lev, isolated: p.Isolated, updated: p.Updated}
		m.oi += max(p.Size, 0)
	}
	for _, l := range r.Lev {
		a.lev[l.ID] = &levSetting{mode: l.Mode, lev: l.Lev, updated: l.Updated}
	}
	if r.Brokers != nil || !a.internal {
		a.brokers = a.brokers[:0]
		for _, b := range r.Brokers {
			a.brokers = append(a.brokers, brokerRec{broker: b.Broker, maxFee: b.MaxFee, updated: b.Updated})
		}
	}
	for _, d := range r.Days {
		a.days = append(a.days, dayVolume{day: d.Day, perp: d.Perp, spot: d.Spot, stable: d.Stable})
	}
	a.seen, a.dirty = e.now(), false
	return nil
}
