package sim

import (
	"encoding/json"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
)

// loadLogs reads each account's fills, funding, transfers and history points, oldest first.
func (st *store) loadLogs(e *engine) error {
	for k, t := range logTables {
		err := st.each(`SELECT acct, seq, v FROM `+t+` ORDER BY acct, seq`, func(scan func(...any) error) error {
			var addr string
			var seq int64
			var raw []byte
			if err := scan(&addr, &seq, &raw); err != nil {
				return err
			}
			a := e.accounts[addr]
			if a == nil || a.internal {
				return nil
			}
			if err := e.restoreRecord(a, k, raw); err != nil {
				return fmt.Errorf("%s of %s, record %d: %w", t, addr, seq, err)
			}
			a.logN[k], a.logSaved[k], a.dirty = seq, seq, false
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// restoreRecord adds one log record to an account (one of a market or collateral this
// simulator does not list is skipped).
func (e *engine) restoreRecord(a *account, k int, raw []byte) error {
	switch k {
	case logFills:
		var f snapFill
		if err := json.Unmarshal(raw, &f); err != nil {
			return err
		}
		if m := e.byID[f.Mkt]; m != nil {
			a.addFill(fillRec{mkt: m, oid: f.Oid, cloid: f.Cloid, trade: f.Trade, buy: f.Buy, crossed: f.Crossed, dir: f.Dir,
				openDir: f.OpenDir, txHash: f.TxHash, price: f.Price, lots: f.Lots, startSize: f.StartSize, closedPnl: f.ClosedPnl,
				fee: f.Fee, startCost: f.StartCost, fillType: f.FillType, at: f.At})
		}
	case logFunding:
		var f snapFunding
		if err := json.Unmarshal(raw, &f); err != nil {
			return err
		}
		if m := e.byID[f.Mkt]; m != nil {
			a.addFunding(fundingRec{mkt: m, amount: f.Amount, rate: f.Rate, mark: f.Mark, size: f.Size, at: f.At})
		}
	case logTransfers:
		var t snapTransfer
		if err := json.Unmarshal(raw, &t); err != nil {
			return err
		}
		if c := e.collByID[t.Coll]; c != nil {
			a.addTransfer(transferRec{kind: t.Kind, coll: c, amount: t.Amount, fee: t.Fee, proceeds: t.Proceeds,
				price: t.Price, from: t.From, to: t.To, txHash: t.TxHash, dir: t.Dir, chain: t.Chain, at: t.At})
		}
	case logHistory:
		var p snapPoint
		if err := json.Unmarshal(raw, &p); err != nil {
			return err
		}
		a.hist = append(a.hist, historyPoint{at: p.At, value: p.Value, pnl: p.Pnl, volume: p.Volume})
	}
	return nil
}

// loadOrders reads every user's order history, oldest first: open orders go back on their book
// (in id order, which is their time priority) or, waiting for a trigger, reserve their margin.
func (st *store) loadOrders(e *engine) error {
	return st.each(`SELECT acct, v FROM orders ORDER BY oid`, func(scan func(...any) error) error {
		var addr string
		var raw []byte
		var r orderRow
		if err := scan(&addr, &raw); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		a, m := e.accounts[addr], e.byID[r.Mkt]
		if a == nil || a.internal || m == nil {
			return nil
		}
		o := &order{oid: r.Oid, acct: a, mkt: m, buy: r.Buy, po: r.Po, ro: r.Ro, isMarket: r.IsMarket, fireAbove: r.FireAbove,
			autoBound: r.AutoBound, price: r.Price, size: r.Size, rest: r.Rest, trigger: r.Trigger, pxLots: r.PxLots,
			limit: r.Limit, spotNotional: r.SpotNotional, spotFee: r.SpotFee, tif: r.Tif, cloid: r.Cloid, tpsl: r.Tpsl,
			grouping: r.Grouping, state: r.State, reason: r.Reason, created: r.Created}
		a.history = append(a.history, o)
		if st.check {
			st.orders[o.oid], st.orderRow[o.oid] = raw, r
		}
		if o.state != api.StateOpen {
			a.closed++
			return nil
		}
		e.orders[o.oid] = o
		a.open[o.oid] = o
		if o.cloid != "" {
			a.cloids[o.cloid] = o
		}
		if r.InBook {
			o.mkt.book.add(o)
			o.inBook = true
			rs := a.restingOn(m.id)
			if o.buy {
				rs.buy += o.rest
			} else {
				rs.sell += o.rest
			}
		}
		if o.trigger != 0 {
			a.reserveTrigger(o, 1)
		}
		return nil
	})
}

// loadBrackets reads the open brackets and then arms the trigger orders that do not wait for
// an entry, in id order.
func (st *store) loadBrackets(e *engine) error {
	byID := map[api.OrderID]*order{}
	for _, a := range e.users {
		for _, o := range a.history {
			byID[o.oid] = o
		}
	}
	err := st.each(`SELECT v FROM brackets ORDER BY n`, func(scan func(...any) error) error {
		var raw []byte
		var r bracketRow
		if err := scan(&raw); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		a, m := e.accounts[r.Acct], e.byID[r.Mkt]
		parent := byID[r.Parent]
		if a == nil || m == nil || (r.Parent != 0 && parent == nil) {
			return nil
		}
		b := &bracket{acct: a, mkt: m, parent: parent, sent: r.Sent, armed: r.Armed, guarded: r.Guarded}
		if parent != nil {
			parent.grp = b
		}
		for _, id := range r.Children {
			if o := byID[id]; o != nil {
				o.grp, b.children = b, append(b.children, o)
			}
		}
		for _, id := range r.Fired {
			if o := byID[id]; o != nil {
				o.grp, b.fired = b, append(b.fired, o)
			}
		}
		e.brackets = append(e.brackets, b)
		return nil
	})
	if err != nil {
		return err
	}
	st.brackets = mustJSON(e.bracketRows())
	for id, seq := range st.seqs {
		e.byID[id].book.seq = seq // the books' sequence numbers go on from where they were
	}
	for _, id := range sortedOpen(e) {
		if o := e.orders[id]; o.trigger != 0 && !o.waits() {
			o.mkt.triggers = append(o.mkt.triggers, o)
		}
	}
	return nil
}

// sortedOpen lists the open orders' ids in order.
func sortedOpen(e *engine) []api.OrderID {
	list := make([]*order, 0, len(e.orders))
	for _, o := range e.orders {
		list = append(list, o)
	}
	sortOrders(list)
	ids := make([]api.OrderID, len(list))
	for i, o := range list {
		ids[i] = o.oid
	}
	return ids
}
