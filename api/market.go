package api

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"
)

// /info methods of the real exchange beyond the spec's table (protocol.md).
const (
	MethodTrades = "trades"
	MethodBBO    = "bbo"
)

// Trade is one print on an instrument's tape: the taker's side, price and size. /info sends
// decimals as strings and the stream as numbers; both decode exactly (never through float64).
type Trade struct {
	InstrumentID InstrumentID    `json:"instrument_id"`
	Instrument   string          `json:"instrument"`
	TradeID      TradeID         `json:"trade_id"`
	TxHash       string          `json:"tx_hash"`
	Side         string          `json:"side"` // the taker's side: SideBuy or SideSell
	Price        decimal.Decimal `json:"price"`
	Size         decimal.Decimal `json:"size"`
	Maker        string          `json:"maker"`
	Taker        string          `json:"taker"`
	Time         Time            `json:"timestamp"`
}

// BBO is an instrument's best bid and offer.
type BBO struct {
	Symbol   string
	BidPrice decimal.Decimal
	BidSize  decimal.Decimal
	AskPrice decimal.Decimal
	AskSize  decimal.Decimal
	Time     Time
}

// UnmarshalJSON implements json.Unmarshaler tolerantly: the fields may be named as in the ticker
// (best_bid_price...) or short (bid_price, bid_px...), the symbol as symbol, instrument or
// instrument_name, and the record may come wrapped in a one-element array.
func (b *BBO) UnmarshalJSON(data []byte) error {
	var list []json.RawMessage
	if json.Unmarshal(data, &list) == nil {
		if len(list) == 0 {
			*b = BBO{}
			return nil
		}
		data = list[0]
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	var out BBO
	for _, f := range []struct {
		dst   any
		names []string
	}{
		{&out.Symbol, []string{"symbol", "instrument", "instrument_name"}},
		{&out.BidPrice, []string{"best_bid_price", "bid_price", "bid_px", "bid"}},
		{&out.BidSize, []string{"best_bid_size", "bid_size", "bid_sz"}},
		{&out.AskPrice, []string{"best_ask_price", "ask_price", "ask_px", "ask"}},
		{&out.AskSize, []string{"best_ask_size", "ask_size", "ask_sz"}},
		{&out.Time, []string{"timestamp", "time", "last_updated"}},
	} {
		for _, n := range f.names {
			if v, ok := raw[n]; ok && string(v) != "null" {
				if err := json.Unmarshal(v, f.dst); err != nil {
					return err
				}
				break
			}
		}
	}
	*b = out
	return nil
}

// MarshalJSON implements json.Marshaler with the ticker's field names.
func (b BBO) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Symbol   string          `json:"symbol"`
		BidPrice decimal.Decimal `json:"best_bid_price"`
		BidSize  decimal.Decimal `json:"best_bid_size"`
		AskPrice decimal.Decimal `json:"best_ask_price"`
		AskSize  decimal.Decimal `json:"best_ask_size"`
		Time     Time            `json:"timestamp"`
	}{b.Symbol, b.BidPrice, b.BidSize, b.AskPrice, b.AskSize, b.Time})
}

type tradesParams struct {
	Symbol string `json:"symbol"`
	Limit  int    `json:"limit,omitempty"`
}

// Trades fetches an instrument's recent trades (by name), newest first; limit 0 means the
// server's default.
func (c *Client) Trades(ctx context.Context, symbol string, limit int) ([]Trade, error) {
	var out []Trade
	if symbol == "" {
		return out, invalid("info "+MethodTrades, "symbol is empty: want an instrument name such as BTC-PERP")
	}
	if limit < 0 {
		return out, invalid("info "+MethodTrades, "limit %d: want 0 (default) or more", limit)
	}
	return out, c.info(ctx, MethodTrades, tradesParams{symbol, limit}, rowsOf(&out))
}

// BBO fetches an instrument's best bid and offer (by name).
func (c *Client) BBO(ctx context.Context, symbol string) (BBO, error) {
	var out BBO
	if symbol == "" {
		return out, invalid("info "+MethodBBO, "symbol is empty: want an instrument name such as BTC-PERP")
	}
	return out, c.info(ctx, MethodBBO, symbolParams{symbol}, &out)
}
