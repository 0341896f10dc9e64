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
	Price        decimal.Decimal  `json:"price"`
	Size         decimal.Decimal  `json:"size"`
	Side         string           `json:"side"` // the taker's side
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
		out = append(out, tradeJSON{InstrumentID: m.id, Instrument: m.name, TradeID: t.id, Price: m.px(t.price),
			Size: m.qty(t.lots), Side: side, Timestamp: isoTime(t.at)})
	}
	return out, nil
}

// fundingJSON is one funding payment of the funding_history method (amount negative: paid).
type fundingJSON struct {
	InstrumentID api.InstrumentID `json:"instrument_id"`
	Instrument   string           `json:"instrument"`
	Amount       decimal.Decimal  `json:"amount"`
	Rate         decimal.Decimal  `json:"funding_rate"`
	Timestamp    isoTime          `json:"timestamp"`
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
		return fundingJSON{InstrumentID: f.mkt.id, Instrument: f.mkt.name, Amount: f.amount, Rate: f.rate, Timestamp: isoTime(f.at)}
	})
}

// infoBBO answers bbo {symbol}: the best bid and offer with their sizes (zero on an empty side).
func (s *Sim) infoBBO(p *infoParams) (any, error) {
	if p.Symbol == "" {
		return nil, badRequest("params.symbol is missing: send an instrument name such as BTC-PERP")
	}
	m, err := s.eng.marketByName(string(p.Symbol))
	if err != nil {
		return nil, badRequest("%v", err)
	}
	b := s.eng.orderBook(m, 1)
	out := api.BBO{Symbol: m.name, Time: b.Time}
	if len(b.Bids) > 0 {
		out.BidPrice, out.BidSize = b.Bids[0].Price, b.Bids[0].Size
	}
	if len(b.Asks) > 0 {
		out.AskPrice, out.AskSize = b.Asks[0].Price, b.Asks[0].Size
	}
	return out, nil
}
