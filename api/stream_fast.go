package api

import (
	"reflect"

	"github.com/shopspring/decimal"
)

// The stream's hot path decoded in one pass (issue #34): a notification's envelope, and the
// ticker and mids channels' data, which at 500 instruments are most of what a stream carries
// (a ticker notification per instrument and a mids list a second). encoding/json read each
// notification five times over (validating, then decoding, the frame, its params, each row). Each
// fast decoder reads what the json tags of the same types name, through the same UnmarshalJSON
// methods for prices and times, and declines (ok false) whatever it cannot take exactly as
// encoding/json would; the caller then decodes with encoding/json, so errors, dropped rows and
// their reasons are unchanged.

// fastFrame decodes a notification frame whose keys and strings are plain; a response (an id),
// an error, or anything unusual declines.
func fastFrame(b []byte) (f frame, ok bool) {
	s := jsonScan{b: b}
	var method string
	var params bool
	ok = s.fields(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "jsonrpc":
			_, ok = s.plainString()
		case "method":
			method, ok = s.plainString()
		case "id":
			ok = s.peek() == 'n' && s.lit("null")
		case "params":
			params, f = true, frame{}
			ok = s.fields(func(k []byte) bool { return f.param(&s, k) })
		case "result", "error":
			ok = false
		default:
			ok = s.other(k, "jsonrpc", "id", "method", "params", "result", "error")
		}
		return ok
	})
	if !ok || !s.end() || !params || f.Channel == "" || f.Data == nil || (method != "subscription" && method != "event") {
		return frame{}, false
	}
	return f, true
}

// param reads one member of a notification's params.
func (f *frame) param(s *jsonScan, k []byte) bool {
	var ok bool
	switch string(k) {
	case "channel":
		f.Channel, ok = s.plainString()
	case "data":
		f.Data, ok = s.value()
	default:
		ok = s.other(k, "channel", "data")
	}
	return ok
}

// fastTickers decodes a ticker notification's data: one ticker, or a list of them, each under
// its symbol's key (see decodeEach).
func fastTickers(t Topic, raw []byte) ([]StreamEvent, bool) {
	s := jsonScan{b: raw}
	if s.peek() == '{' {
		x, ok := fastTicker(&s)
		if !ok || !s.end() {
			return nil, false
		}
		return []StreamEvent{{Topic: t, Key: "ticker:" + x.Symbol, Data: x}}, true
	}
	var out []StreamEvent
	ok := fastList(&s, func() bool {
		x, ok := fastTicker(&s)
		if ok && reflect.ValueOf(*x).IsZero() {
			return false // a row of none of the fields: decodeRow drops it
		}
		out = append(out, StreamEvent{Topic: t, Key: "ticker:" + x.Symbol, Data: x})
		return ok
	})
	return out, ok
}

// fastList reads a non-empty array whose every element row reads; then only whitespace.
func fastList(s *jsonScan, row func() bool) bool {
	if !s.eat('[') || s.peek() == ']' {
		return false
	}
	for {
		if !row() {
			return false
		}
		if !s.eat(',') {
			return s.eat(']') && s.end()
		}
	}
}

// tickerNames are the keys a Ticker reads (its json tags, and instrument_name for fixTicker).
var tickerNames = []string{"type", "symbol", "instrument_name", "mark_price", "mid_price", "index_price",
	"best_bid_price", "best_ask_price", "best_bid_size", "best_ask_size", "funding_rate", "open_interest",
	"volume_24h", "change_24h", "max_trading_price", "min_trading_price", "last_price", "last_updated"}

// fastTicker reads one ticker object; like fixTicker, instrument_name is its symbol when symbol
// is absent or empty.
func fastTicker(s *jsonScan) (*Ticker, bool) {
	x := new(Ticker)
	var name string
	ok := s.fields(func(k []byte) bool {
		if d := x.price(k); d != nil {
			return s.decimal(d)
		}
		var ok bool
		switch string(k) {
		case "type":
			x.Type, ok = s.plainString()
		case "symbol":
			x.Symbol, ok = s.plainString()
		case "instrument_name":
			name, ok = s.plainString()
		case "last_updated":
			v, vok := s.value()
			ok = vok && x.LastUpdated.UnmarshalJSON(v) == nil
		default:
			ok = s.other(k, tickerNames...)
		}
		return ok
	})
	if x.Symbol == "" {
		x.Symbol = name
	}
	return x, ok
}

// price is the ticker's decimal field that key names, exactly (nil: none).
func (x *Ticker) price(key []byte) *decimal.Decimal {
	switch string(key) {
	case "mark_price":
		return &x.MarkPrice
	case "mid_price":
		return &x.MidPrice
	case "index_price":
		return &x.IndexPrice
	case "best_bid_price":
		return &x.BestBidPrice
	case "best_ask_price":
		return &x.BestAskPrice
	case "best_bid_size":
		return &x.BestBidSize
	case "best_ask_size":
		return &x.BestAskSize
	case "funding_rate":
		return &x.FundingRate
	case "open_interest":
		return &x.OpenInterest
	case "volume_24h":
		return &x.Volume24h
	case "change_24h":
		return &x.Change24h
	case "max_trading_price":
		return &x.MaxTradingPrice
	case "min_trading_price":
		return &x.MinTradingPrice
	case "last_price":
		return &x.LastPrice
	}
	return nil
}

// fastMids decodes a mids notification's data given as a list of {symbol, mid_price} (what
// /info and the simulator send); the other shapes decline.
func fastMids(raw []byte) ([]Mid, bool) {
	s := jsonScan{b: raw}
	var out []Mid
	ok := fastList(&s, func() bool {
		var m Mid
		ok := s.fields(func(k []byte) bool {
			var ok bool
			switch string(k) {
			case "symbol":
				m.Symbol, ok = s.plainString()
			case "mid_price":
				ok = s.decimal(&m.MidPrice)
			default:
				ok = s.other(k, "symbol", "mid_price")
			}
			return ok
		})
		out = append(out, m)
		return ok && (m.Symbol != "" || m.MidPrice != decimal.Decimal{})
	})
	return out, ok
}

// decimal reads a price or size value into d as Decimal.UnmarshalJSON would: a plain number
// (quoted or not) of up to 18 characters as decimal.NewFromString makes it (an int64 coefficient,
// an exponent of minus its decimals), without its copy into a string; anything else through
// UnmarshalJSON itself.
func (s *jsonScan) decimal(d *decimal.Decimal) bool {
	v, ok := s.value()
	if !ok {
		return false
	}
	if x, ok := plainDecimal(v); ok {
		*d = x
		return true
	}
	return d.UnmarshalJSON(v) == nil
}

// plainDecimal reads -?[0-9]+(.[0-9]+)? (quoted or not) whose text less its point is at most 18
// characters, NewFromString's own int64 path.
func plainDecimal(v []byte) (decimal.Decimal, bool) {
	if len(v) > 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	i, neg := 0, len(v) > 0 && v[0] == '-'
	if neg {
		i++
	}
	var n int64
	digits, decimals, dot := 0, int32(0), false
	for ; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			n = n*10 + int64(c-'0')
			digits++
			if dot {
				decimals++
			}
		case c == '.' && !dot && digits > 0:
			dot = true
		default:
			return decimal.Decimal{}, false
		}
	}
	if digits == 0 || dot && decimals == 0 || len(v)-b2i(dot) > 18 {
		return decimal.Decimal{}, false
	}
	if neg {
		n = -n
	}
	return decimal.New(n, -decimals), true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
