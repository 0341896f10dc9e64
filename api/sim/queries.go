package sim

import (
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

var hundred = decimal.NewFromInt(100)

// summary computes an account's account_summary from its balances and positions.
func (e *engine) summary(a *account) api.AccountSummary {
	r := e.risk(a)
	s := api.AccountSummary{Address: a.addr, MarginMode: api.MarginCross,
		SpotCollateral: map[string]api.CollateralBalance{}, Collateral: map[string]api.CollateralBalance{},
		VaultBalances: e.vaultBalances(a), PerpPositions: map[string]api.PositionSummary{}}
	spotEq := decimal.Zero
	for _, c := range e.colls {
		id, sym := c.rec.ID, c.rec.Symbol
		if bal, ok := a.spot[id]; ok {
			s.SpotCollateral[sym] = api.CollateralBalance{Balance: bal, WithdrawableBalance: decimal.Max(e.spotFree(a, id), decimal.Zero)}
			spotEq = spotEq.Add(bal.Mul(e.collPrice(id)))
		}
		if bal, ok := a.deriv[id]; ok {
			s.Collateral[sym] = api.CollateralBalance{Balance: bal, WithdrawableBalance: e.derivFree(a, id)}
		}
	}
	for i := range r.pos {
		pr := &r.pos[i]
		s.PerpPositions[pr.m.name] = e.positionSummary(&r, pr)
	}
	eq := r.equity()
	s.Upnl = r.upnl
	s.TotalAccountEquity = eq
	s.MarginBalance = eq
	s.DerivativeAccountEquity = eq
	s.InitialMargin = r.im
	s.MaintenanceMargin = r.mm
	if eq.IsPositive() {
		s.InitialMarginUtilization = r.im.DivRound(eq, 6)
		s.MaintenanceMarginUtilization = r.mm.DivRound(eq, 6)
	}
	s.AvailableBalance = decimal.Max(r.available(), decimal.Zero)
	s.TransferMarginReq = r.crossIM.Add(r.orderIM)
	s.TotalVolume = a.volume
	s.SpotVolume = a.spotVol
	s.TotalPnl = a.pnl
	s.SpotAccountEquity = spotEq
	if eq.GreaterThan(a.peak) {
		a.peak, a.dirty = eq, true
	}
	if dd := a.peak.Sub(eq); dd.GreaterThan(a.maxDD) {
		a.maxDD, a.dirty = dd, true
	}
	s.MaxDrawdown = a.maxDD
	return s
}

func (e *engine) positionSummary(r *risk, pr *posRisk) api.PositionSummary {
	// One-way mode: the leg's side is BOTH (as the SDKs declare it), its size signed.
	side := api.PositionSideBoth
	mode := api.MarginCross
	if pr.p.isolated {
		mode = api.MarginIsolated
	}
	leg := api.PositionLeg{InstrumentID: pr.m.id, InstrumentName: pr.m.name, Side: side, Size: pr.qty,
		EntryPrice: pr.p.entry(pr.m.lot), Leverage: api.LegLeverage{Type: mode, Value: pr.p.lev}, PositionValue: pr.notional}
	return api.PositionSummary{PositionType: "oneWay", Legs: []api.PositionLeg{leg},
		LiquidationPrice: r.liquidationPrice(pr), MM: pr.mm, IM: pr.im, Upnl: pr.upnl}
}

// positions lists an account's open positions in instrument order. A position's margin is its
// isolated margin, or in cross mode the initial margin it takes at the mark.
func (e *engine) positions(a *account) []api.Position {
	out := []api.Position{}
	r := e.risk(a)
	for _, m := range e.markets {
		p := a.pos[m.id]
		if p == nil {
			continue
		}
		mode := api.MarginCross
		margin := decimal.Zero
		if p.isolated {
			mode, margin = api.MarginIsolated, p.isoMargin
		} else {
			for i := range r.pos {
				if r.pos[i].m == m {
					margin = r.pos[i].im
				}
			}
		}
		out = append(out, api.Position{User: a.addr, InstrumentID: m.id, Instrument: m.name,
			PositionSide: api.PositionSideBoth, Size: m.qty(p.size), EntryPrice: p.entry(m.lot),
			PositionValue: m.qty(abs(p.size)).Mul(m.markPx()), MarginMode: mode, Leverage: p.lev, Margin: margin,
			UpdatedAt: api.Time{Time: p.updated}})
	}
	return out
}

// leverageRecord is an account's leverage setting on one perpetual.
func (e *engine) leverageRecord(a *account, m *market) api.InstrumentLeverage {
	s := a.leverage(m)
	return api.InstrumentLeverage{Address: a.addr, InstrumentID: m.id, Instrument: m.name, MarginType: s.mode,
		Leverage: s.lev, UpdatedAt: api.Time{Time: s.updated}}
}

// ticker summarises one market.
func (e *engine) ticker(m *market) api.Ticker {
	t := api.Ticker{Type: "perp", Symbol: m.name, MarkPrice: m.markPx(), IndexPrice: m.px(m.index),
		FundingRate: m.funding, OpenInterest: m.qty(m.oi), LastPrice: m.px(m.last), LastUpdated: api.Time{Time: m.updated}}
	if m.spot {
		t.Type = "spot"
		t.FundingRate, t.OpenInterest = decimal.Zero, decimal.Zero
	}
	if l := m.book.best(true); l != nil {
		t.BestBidPrice, t.BestBidSize = m.px(l.price), m.qty(l.size)
	}
	if l := m.book.best(false); l != nil {
		t.BestAskPrice, t.BestAskSize = m.px(l.price), m.qty(l.size)
	}
	t.MidPrice = m.mid()
	lo, hi := m.band()
	t.MinTradingPrice, t.MaxTradingPrice = m.px(lo), m.px(hi)
	notional, open := m.charts.stats24h(e.now())
	t.Volume24h = m.tick.d.Mul(m.lot.d).Mul(decimal.NewFromInt(notional)).Round(2)
	if open > 0 {
		t.Change24h = m.px(m.last-open).Mul(hundred).DivRound(m.px(open), 2)
	}
	return t
}

// mid is the average of best bid and best ask, or the mark when a side is empty.
func (m *market) mid() decimal.Decimal {
	bid, okb := m.book.bestPrice(true)
	ask, oka := m.book.bestPrice(false)
	if !okb || !oka {
		return m.markPx()
	}
	return m.px(bid + ask).Div(decimal.NewFromInt(2))
}

// orderBook returns up to depth levels of each side.
func (e *engine) orderBook(m *market, depth int) api.OrderBook {
	ob := api.OrderBook{Symbol: m.name, Bids: []api.BookLevel{}, Asks: []api.BookLevel{}, Time: api.Time{Time: e.now()}, Sequence: m.book.seq}
	for _, l := range m.book.depth(true, depth) {
		ob.Bids = append(ob.Bids, api.BookLevel{Price: m.px(l[0]), Size: m.qty(l[1])})
	}
	for _, l := range m.book.depth(false, depth) {
		ob.Asks = append(ob.Asks, api.BookLevel{Price: m.px(l[0]), Size: m.qty(l[1])})
	}
	return ob
}

// openOrders lists the account's open orders, newest first.
func (a *account) openOrders() []*order {
	out := make([]*order, 0, len(a.open))
	for _, o := range a.open {
		out = append(out, o)
	}
	sortOrders(out)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
