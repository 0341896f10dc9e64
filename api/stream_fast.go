package api

import (
	"bytes"
	"reflect"

	"github.com/shopspring/decimal"
)

// The stream's hot path decoded in one pass (issue #34): a notification's envelope, and the
// ticker and mids channels' data, which at 500 instruments are most of what a stream carries
// (a ticker notification per instrument and a mids list a second). encoding/json read each
// notification five times over (validating, then decoding, the frame, its params, each row). Each
// fast decoder reads what the json tags of the same types name, a plain price or time as
// their UnmarshalJSON methods read it (any other through them), and declines (ok false)
// whatever it cannot take exactly as encoding/json would; the caller then checks the limits and
// decodes with encoding/json, so errors, dropped rows and their reasons are unchanged.

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
		var t []byte
		if t, ok = s.plainText(); ok {
			f.Channel = streamMemo.channel(t)
		}
	case "data":
		f.Data, ok = s.value()
	default:
		ok = s.other(k, "channel", "data")
	}
	return ok
}

// fastTickers decodes a ticker notification's data: one ticker, or a list of them, each under
// its symbol's key (see decodeEach). It reads the data before CheckAnswer does and holds it to the
// same limits itself (see fastLimits), so what it takes CheckAnswer passes.
func fastTickers(t Topic, raw []byte) ([]StreamEvent, bool) {
	s := jsonScan{b: raw}
	if s.peek() == '{' {
		x, key, ok := fastTicker(&s)
		if !ok || !s.end() {
			return nil, false
		}
		return []StreamEvent{{Topic: t, Key: key, Data: x}}, true
	}
	var out []StreamEvent
	ok := fastList(&s, ChannelLimit(t.Channel), func() bool {
		x, key, ok := fastTicker(&s)
		if !ok || reflect.ValueOf(*x).IsZero() {
			return false // a row of none of the fields: decodeRow drops it
		}
		out = append(out, StreamEvent{Topic: t, Key: key, Data: x})
		return true
	})
	return out, ok
}

// fastLimits: the fast decoders take their data before CheckAnswer (one pass over it instead of
// two) and decline what CheckAnswer might refuse, which then goes to CheckAnswer and
// encoding/json: a list over the channel's limit, an object of more than maxFastMembers members,
// a key or value of more than maxNumberLen characters (CheckAnswer judges a longer token by its
// first characters, numberOK by all of them), a value of another field than theirs that is an
// object or a list (nesting). Within these every token is checked by numberOK as CheckAnswer
// checks it.
const maxFastMembers = 64

// fastList reads a non-empty array of at most maxRows elements whose every element row reads;
// then only whitespace.
func fastList(s *jsonScan, maxRows int, row func() bool) bool {
	if !s.eat('[') || s.peek() == ']' {
		return false
	}
	for n := 1; n <= maxRows; n++ {
		if !row() {
			return false
		}
		if !s.eat(',') {
			return s.eat(']') && s.end()
		}
	}
	return false
}

// fastFields is jsonScan.fields within fastLimits' bounds on an object's members and keys.
func fastFields(s *jsonScan, field func(key []byte) bool) bool {
	n := 0
	return s.fields(func(k []byte) bool {
		n++
		return n <= maxFastMembers && len(k) <= maxNumberLen && field(k)
	})
}

// fastValue reads a value of at most maxNumberLen characters.
func fastValue(s *jsonScan) ([]byte, bool) {
	v, ok := s.value()
	return v, ok && len(v) <= maxNumberLen
}

// fastText reads a plain string (see jsonScan.str) of at most maxNumberLen characters.
func fastText(s *jsonScan) ([]byte, bool) {
	t, plain, ok := s.str()
	return t, ok && plain && len(t) <= maxNumberLen
}

// fastOther reads the value of a key no field takes, as jsonScan.other does: a number, a string
// or a literal (fastLimits).
func fastOther(s *jsonScan, key []byte, names []string) bool {
	if c := s.peek(); c == '{' || c == '[' {
		return false
	}
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return false
		}
	}
	_, ok := fastValue(s)
	return ok
}

// tickerNames are the keys a Ticker reads (its json tags, and instrument_name for fixTicker).
var tickerNames = []string{"type", "symbol", "instrument_name", "mark_price", "mid_price", "index_price",
	"best_bid_price", "best_ask_price", "best_bid_size", "best_ask_size", "funding_rate", "open_interest",
	"volume_24h", "change_24h", "max_trading_price", "min_trading_price", "last_price", "last_updated"}

// fastTicker reads one ticker object and returns it with its key; like fixTicker, instrument_name
// is its symbol when symbol is absent or empty. Its strings and plain prices are taken from
// the instrument's last ticker where they are the same (decodeMemo).
func fastTicker(s *jsonScan) (*Ticker, string, bool) {
	x := new(Ticker)
	var r tickerRead
	ok := fastFields(s, func(k []byte) bool { return r.field(s, x, k) })
	if !ok {
		return nil, "", false
	}
	return x, streamMemo.ticker(x, &r), true
}

// tickerRead is what fastTicker read of a ticker besides what it wrote into it: its strings'
// text and its plain prices' coefficients and exponents, which decodeMemo.ticker makes into
// the ticker's strings and decimals.
type tickerRead struct {
	typ, sym, name []byte
	p              [tickerPrices]plainNum
}

// plainNum is a plain number's coefficient and exponent (set: one was read).
type plainNum struct {
	n   int64
	e   int32
	set bool
}

// field reads the value of key into x or r.
func (r *tickerRead) field(s *jsonScan, x *Ticker, k []byte) bool {
	if i := tickerPrice(k); i >= 0 {
		return readPrice(s, &r.p[i], x.priceAt(i))
	}
	var ok bool
	switch string(k) {
	case "type":
		r.typ, ok = fastText(s)
	case "symbol":
		r.sym, ok = fastText(s)
	case "instrument_name":
		r.name, ok = fastText(s)
	case "last_updated":
		v, vok := fastValue(s)
		ok = vok && fastTime(&x.LastUpdated, v)
	default:
		ok = fastOther(s, k, tickerNames)
	}
	return ok
}

// readPrice reads a price or size value: a plain one into p (made a decimal later), anything
// else into d as Decimal.UnmarshalJSON reads it. A key given twice ends as encoding/json leaves
// it: the last value, or the one before it where the last is null (which UnmarshalJSON leaves).
func readPrice(s *jsonScan, p *plainNum, d *decimal.Decimal) bool {
	v, ok := fastValue(s)
	if !ok {
		return false
	}
	if n, e, ok := plainNumber(v); ok {
		*p = plainNum{n, e, true}
		return true
	}
	if p.set {
		*d, p.set = decimal.New(p.n, p.e), false
	}
	return d.UnmarshalJSON(v) == nil
}

// tickerPrices is the number of a Ticker's decimal fields.
const tickerPrices = 14

// tickerPrice is the index (for priceAt) of the ticker's decimal field that key names, exactly
// (-1: none).
func tickerPrice(key []byte) int {
	switch string(key) {
	case "mark_price":
		return 0
	case "mid_price":
		return 1
	case "index_price":
		return 2
	case "best_bid_price":
		return 3
	case "best_ask_price":
		return 4
	case "best_bid_size":
		return 5
	case "best_ask_size":
		return 6
	case "funding_rate":
		return 7
	case "open_interest":
		return 8
	case "volume_24h":
		return 9
	case "change_24h":
		return 10
	case "max_trading_price":
		return 11
	case "min_trading_price":
		return 12
	case "last_price":
		return 13
	}
	return -1
}

// priceAt is the ticker's decimal field of index i (see tickerPrice).
func (x *Ticker) priceAt(i int) *decimal.Decimal {
	return [tickerPrices]*decimal.Decimal{&x.MarkPrice, &x.MidPrice, &x.IndexPrice, &x.BestBidPrice,
		&x.BestAskPrice, &x.BestBidSize, &x.BestAskSize, &x.FundingRate, &x.OpenInterest, &x.Volume24h,
		&x.Change24h, &x.MaxTradingPrice, &x.MinTradingPrice, &x.LastPrice}[i]
}

// fastTime reads a plain count of Unix seconds or milliseconds (1 to 18 digits, quoted or not)
// as Time.UnmarshalJSON reads it, without its string; anything else through UnmarshalJSON.
func fastTime(t *Time, v []byte) bool {
	d := v
	if len(d) > 2 && d[0] == '"' && d[len(d)-1] == '"' {
		d = d[1 : len(d)-1]
	}
	if len(d) == 0 || len(d) > 18 {
		return t.UnmarshalJSON(v) == nil
	}
	var n int64
	for _, c := range d {
		if c < '0' || c > '9' {
			return t.UnmarshalJSON(v) == nil
		}
		n = n*10 + int64(c-'0')
	}
	if len(d) == 1 && n == 0 {
		*t = Time{}
		return true
	}
	*t = Time{unixAuto(n)}
	return true
}

// fastMids decodes a mids notification's data given as a list of {symbol, mid_price} (what
// /info and the simulator send), within fastLimits; the other shapes decline.
func fastMids(raw []byte) ([]Mid, bool) {
	s := jsonScan{b: raw}
	var out []Mid
	ok := fastList(&s, ChannelLimit(ChanMids), func() bool {
		var m Mid
		var sym []byte
		var p plainNum
		ok := fastFields(&s, func(k []byte) bool {
			var ok bool
			switch string(k) {
			case "symbol":
				sym, ok = fastText(&s)
			case "mid_price":
				ok = readPrice(&s, &p, &m.MidPrice)
			default:
				ok = fastOther(&s, k, []string{"symbol", "mid_price"})
			}
			return ok
		})
		if !ok {
			return false
		}
		streamMemo.mid(&m, sym, p)
		out = append(out, m)
		return m.Symbol != "" || m.MidPrice != decimal.Decimal{}
	})
	return out, ok
}

// plainNumber reads -?[0-9]+(.[0-9]+)? (quoted or not) whose text less its point is at most
// 18 characters, as decimal.NewFromString makes it on its own int64 path: the coefficient and
// minus the decimals, for decimal.New.
func plainNumber(v []byte) (int64, int32, bool) {
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
			return 0, 0, false
		}
	}
	if digits == 0 || dot && decimals == 0 || len(v)-b2i(dot) > 18 {
		return 0, 0, false
	}
	if neg {
		n = -n
	}
	return n, -decimals, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
