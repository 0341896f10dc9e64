package sim

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// The stream's data, in the newer SDK generation's shapes (protocol.md, "Streaming"): prices and
// sizes as JSON numbers; account_summary and position as /info sends them.

type tickerStreamJSON struct {
	InstrumentName  string           `json:"instrument_name"`
	InstrumentID    api.InstrumentID `json:"instrument_id"`
	Symbol          string           `json:"symbol"`
	Type            string           `json:"type"`
	MarkPrice       num              `json:"mark_price"`
	MidPrice        num              `json:"mid_price"`
	IndexPrice      num              `json:"index_price"`
	BestBidPrice    num              `json:"best_bid_price"`
	BestAskPrice    num              `json:"best_ask_price"`
	BestBidSize     num              `json:"best_bid_size"`
	BestAskSize     num              `json:"best_ask_size"`
	FundingRate     num              `json:"funding_rate"`
	Volume24h       num              `json:"volume_24h"`
	Change24h       num              `json:"change_24h"`
	OpenInterest    num              `json:"open_interest"`
	MaxTradingPrice num              `json:"max_trading_price"`
	MinTradingPrice num              `json:"min_trading_price"`
	LastPrice       num              `json:"last_price"`
	LastUpdated     int64            `json:"last_updated"`
}

func tickerOut(e *engine, m *market) tickerStreamJSON {
	t := e.ticker(m)
	return tickerStreamJSON{InstrumentName: m.name, InstrumentID: m.id, Symbol: m.name, Type: t.Type, MarkPrice: nm(t.MarkPrice),
		MidPrice: nm(t.MidPrice), IndexPrice: nm(t.IndexPrice), BestBidPrice: nm(t.BestBidPrice), BestAskPrice: nm(t.BestAskPrice),
		BestBidSize: nm(t.BestBidSize), BestAskSize: nm(t.BestAskSize), FundingRate: nm(t.FundingRate), Volume24h: nm(t.Volume24h),
		Change24h: nm(t.Change24h), OpenInterest: nm(t.OpenInterest), MaxTradingPrice: nm(t.MaxTradingPrice),
		MinTradingPrice: nm(t.MinTradingPrice), LastPrice: nm(t.LastPrice), LastUpdated: t.LastUpdated.UnixMilli()}
}

type bboJSON struct {
	Symbol       string `json:"symbol"`
	BestBidPrice num    `json:"best_bid_price"`
	BestBidSize  num    `json:"best_bid_size"`
	BestAskPrice num    `json:"best_ask_price"`
	BestAskSize  num    `json:"best_ask_size"`
	Timestamp    int64  `json:"timestamp"`
}

func bboOut(e *engine, m *market) bboJSON {
	out := bboJSON{Symbol: m.name, Timestamp: e.now().UnixMilli()}
	if l := m.book.best(true); l != nil {
		out.BestBidPrice, out.BestBidSize = nm(m.px(l.price)), nm(m.qty(l.size))
	}
	if l := m.book.best(false); l != nil {
		out.BestAskPrice, out.BestAskSize = nm(m.px(l.price)), nm(m.qty(l.size))
	}
	return out
}

type levelJSON struct {
	Price num `json:"price"`
	Size  num `json:"size"`
}

type booksJSON struct {
	Bids []levelJSON `json:"bids"`
	Asks []levelJSON `json:"asks"`
	Seq  uint64      `json:"sequence_number"`
	Time int64       `json:"timestamp"`
}

type bookJSON struct {
	UpdateType string    `json:"update_type"`
	Instrument string    `json:"instrument_name"`
	Books      booksJSON `json:"books"`
}

type tradeStreamJSON struct {
	InstrumentID api.InstrumentID `json:"instrument_id"`
	Instrument   string           `json:"instrument"`
	TradeID      api.TradeID      `json:"trade_id"`
	TxHash       string           `json:"tx_hash"`
	Side         string           `json:"side"`
	Price        num              `json:"price"`
	Size         num              `json:"size"`
	Maker        string           `json:"maker"`
	Taker        string           `json:"taker"`
	Timestamp    int64            `json:"timestamp"`
}

func tradeOut(m *market, t tradeRec) tradeStreamJSON {
	side := api.SideSell
	if t.buy {
		side = api.SideBuy
	}
	return tradeStreamJSON{InstrumentID: m.id, Instrument: m.name, TradeID: t.id, Side: side, Price: nm(m.px(t.price)),
		Size: nm(m.qty(t.lots)), Timestamp: t.at.UnixMilli()}
}

type orderStreamJSON struct {
	InstrumentID api.InstrumentID `json:"instrument_id"`
	Instrument   string           `json:"instrument"`
	Account      string           `json:"account"`
	User         string           `json:"user"`
	Tif          string           `json:"tif"`
	OrderID      api.OrderID      `json:"order_id"`
	Cloid        string           `json:"cloid"`
	Side         string           `json:"side"`
	PositionSide string           `json:"position_side"`
	LimitPrice   num              `json:"limit_price"`
	Size         num              `json:"size"`
	OldPrice     num              `json:"old_price"`
	OldSize      num              `json:"old_size"`
	Unfilled     num              `json:"unfilled"`
	State        string           `json:"state"`
	ReduceOnly   bool             `json:"reduce_only"`
	PostOnly     bool             `json:"post_only"`
	IsMarket     bool             `json:"is_market"`
	TriggerPx    api.OptDecimal   `json:"trigger_px"`
	Tpsl         string           `json:"tpsl"`
	Grouping     string           `json:"grouping"`
	Timestamp    int64            `json:"timestamp"`
	Reason       string           `json:"reason,omitempty"`
}

func streamOrderOut(o *order) orderStreamJSON {
	r := o.record()
	return orderStreamJSON{InstrumentID: r.InstrumentID, Instrument: r.Instrument, Account: r.User, User: r.User, Tif: r.Tif,
		OrderID: r.OrderID, Cloid: r.Cloid, Side: r.Side, PositionSide: r.PositionSide, LimitPrice: nm(r.LimitPrice),
		Size: nm(r.Size), OldPrice: nm(r.LimitPrice), OldSize: nm(r.Size), Unfilled: nm(r.Unfilled), State: r.State,
		ReduceOnly: r.ReduceOnly, PostOnly: r.PostOnly, IsMarket: r.IsMarket, TriggerPx: r.TriggerPx, Tpsl: r.Tpsl,
		Grouping: r.Grouping, Timestamp: r.Timestamp.UnixMilli(), Reason: o.reason}
}

type fillStreamJSON struct {
	InstrumentID  api.InstrumentID `json:"instrument_id"`
	Instrument    string           `json:"instrument"`
	Account       string           `json:"account"`
	OrderID       api.OrderID      `json:"order_id"`
	Cloid         string           `json:"cloid"`
	TradeID       api.TradeID      `json:"trade_id"`
	Side          string           `json:"side"`
	PositionSide  string           `json:"position_side"`
	Direction     string           `json:"direction"`
	Price         num              `json:"price"`
	Size          num              `json:"size"`
	ClosedPnl     num              `json:"closed_pnl"`
	OriginalSize  num              `json:"original_size"`
	OriginalPrice num              `json:"original_price"`
	Fee           num              `json:"fee"`
	BrokerFee     num              `json:"broker_fee"`
	FeeTokenID    api.Int          `json:"fee_token_id"`
	Crossed       bool             `json:"crossed"`
	TxHash        string           `json:"tx_hash"`
	FillType      api.Int          `json:"fill_type"`
	NotionalValue num              `json:"notional_value"`
	BlockTime     int64            `json:"block_timestamp"`
}

func streamFillOut(f api.Fill) fillStreamJSON {
	return fillStreamJSON{InstrumentID: f.InstrumentID, Instrument: f.Instrument, Account: f.Account, OrderID: f.OrderID,
		Cloid: f.Cloid, TradeID: f.TradeID, Side: f.Side, PositionSide: f.PositionSide, Direction: f.Direction,
		Price: nm(f.Price), Size: nm(f.Size), ClosedPnl: nm(f.ClosedPnl), OriginalSize: nm(f.StartSize),
		OriginalPrice: nm(f.StartPrice), Fee: nm(f.Fee), BrokerFee: nm(f.BrokerFee), FeeTokenID: f.FeeTokenID,
		Crossed: f.Crossed, TxHash: f.TxHash, FillType: f.FillType, NotionalValue: nm(f.NotionalValue),
		BlockTime: f.BlockTime.UnixMilli()}
}

func positionsOut(ps []api.Position) []positionJSON {
	out := make([]positionJSON, len(ps))
	for i, p := range ps {
		out[i] = positionJSON{p, unixSec(p.UpdatedAt.Time)}
	}
	return out
}

// balanceJSONv1 is beta.13's balance channel: {account, balances:[{asset,total,available,locked}], timestamp}.
type balanceJSONv1 struct {
	Account   string         `json:"account"`
	Balances  []assetBalance `json:"balances"`
	Timestamp int64          `json:"timestamp"`
}

type assetBalance struct {
	Asset     string `json:"asset"`
	Total     num    `json:"total"`
	Available num    `json:"available"`
	Locked    num    `json:"locked"`
}

func balanceOut(addr string, s api.AccountSummary, now time.Time) balanceJSONv1 {
	out := balanceJSONv1{Account: addr, Balances: []assetBalance{}, Timestamp: now.UnixMilli()}
	for sym, b := range s.Collateral {
		out.Balances = append(out.Balances, assetBalance{sym, nm(b.Balance), nm(b.WithdrawableBalance),
			nm(b.Balance.Sub(b.WithdrawableBalance))})
	}
	return out
}
