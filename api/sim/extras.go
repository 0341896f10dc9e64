package sim

import (
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// Methods the real exchange has beyond the spec's table. Their shapes are the simulator's own.

// tradeJSON is one trade of the trades method.
type tradeJSON struct {
	InstrumentID api.InstrumentID `json:"instrument_id"`
	Instrument   string           `json:"instrument"`
	TradeID      api.TradeID      `json:"trade_id"`
	TxHash       string           `json:"tx_hash"`
	Side         string           `json:"side"` // the taker's side
	Price        decimal.Decimal  `json:"price"`
	Size         decimal.Decimal  `json:"size"`
	Maker        string           `json:"maker"`
	Taker        string           `json:"taker"`
	Timestamp    isoTime          `json:"timestamp"`
}

// infoTrades answers trades {symbol, limit?}: the market's recent trades, newest first.
func (s *Sim) infoTrades(p *infoParams) (any, error) {
	if p.Symbol == "" {
		return nil, badRequest("params.symbol is missing: send an instrument name such as BTC-PERP")
	}
	m, err := s.eng.marketByName(string(p.Symbol))
	if err != nil {
		return nil, badRequest("%v", err)
	}
	n := int(p.Limit)
	if n < 0 || n > maxTradesKept {
		return nil, badRequest("params.limit %d: want 1 to %d (0 for the default of 50)", n, maxTradesKept)
	}
	if n == 0 {
		n = 50
	}
	out := make([]tradeJSON, 0, n)
	for i := len(m.trades) - 1; i >= 0 && len(out) < n; i-- {
		t := m.trades[i]
		side := api.SideSell
		if t.buy {
			side = api.SideBuy
		}
		out = append(out, tradeJSON{InstrumentID: m.id, Instrument: m.name, TradeID: t.id, TxHash: t.tx, Side: side,
			Price: m.px(t.price), Size: m.qty(t.lots), Maker: t.maker, Taker: t.taker, Timestamp: isoTime(t.at)})
	}
	return out, nil
}

// fundingJSON is one funding payment of the funding_history method, as the SDKs declare it
// (funding_payment negative: paid; size signed, negative for a short).
type fundingJSON struct {
	User               string           `json:"user"`
	InstrumentID       api.InstrumentID `json:"instrument_id"`
	SettlementCurrency api.CollateralID `json:"settlement_currency"`
	Payment            decimal.Decimal  `json:"funding_payment"`
	Rate               decimal.Decimal  `json:"funding_rate"`
	MarkPrice          decimal.Decimal  `json:"mark_price"`
	Size               decimal.Decimal  `json:"size"`
	Timestamp          isoTime          `json:"timestamp"`
}

// infoFunding answers funding_history {user, page?, limit?}, newest first.
func (s *Sim) infoFunding(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	fs := a.funding
	return page(len(fs), p, func(i int) fundingJSON {
		f := fs[len(fs)-1-i]
		return fundingJSON{User: a.addr, InstrumentID: f.mkt.id, SettlementCurrency: collUSDC, Payment: f.amount,
			Rate: f.rate, MarkPrice: f.mark, Size: f.size, Timestamp: isoTime(f.at)}
	})
}

// infoBBO answers bbo {symbol}: the best bid and offer with their sizes (zero on an empty side),
// as an array as the SDKs declare it: one record, or one per instrument for all.
func (s *Sim) infoBBO(p *infoParams) (any, error) {
	if p.Symbol == "" {
		return nil, badRequest("params.symbol is missing: send an instrument name such as BTC-PERP, or all")
	}
	ms, err := s.marketsFor(p.Symbol)
	if err != nil {
		return nil, err
	}
	out := make([]api.BBO, 0, len(ms))
	for _, m := range ms {
		b := s.eng.orderBook(m, 1)
		x := api.BBO{Symbol: m.name, Time: b.Time}
		if len(b.Bids) > 0 {
			x.BidPrice, x.BidSize = b.Bids[0].Price, b.Bids[0].Size
		}
		if len(b.Asks) > 0 {
			x.AskPrice, x.AskSize = b.Asks[0].Price, b.Asks[0].Size
		}
		out = append(out, x)
	}
	return out, nil
}
