package sim

import (
	"encoding/json"
	"strconv"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// The hot notifications (a ticker of every market and the mids every market step) are written
// by hand into one buffer a fan-out: encoding/json's reflection and its checking of each
// MarshalJSON's output were a tenth of a 500-market demo's CPU. What they write is byte for byte
// what encoding/json writes (TestHandWrittenFramesMatchEncodingJSON); every other notification
// still goes to encoding/json.

// jsonAppender is a notification's data that writes itself as encoding/json would.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// midsJSON is a mids notification's data: encoding/json writes an api.Mid's price quoted.
type midsJSON []api.Mid

func (ms midsJSON) appendJSON(b []byte) []byte {
	if ms == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"symbol":`...)
		b = appendJSONString(b, m.Symbol)
		b = append(b, `,"mid_price":"`...)
		b = appendDecimal(b, m.MidPrice)
		b = append(b, `"}`...)
	}
	return append(b, ']')
}

func (t tickerStreamJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"instrument_name":`...)
	b = appendJSONString(b, t.InstrumentName)
	b = append(b, `,"instrument_id":`...)
	b = strconv.AppendInt(b, int64(t.InstrumentID), 10)
	b = append(b, `,"symbol":`...)
	b = appendJSONString(b, t.Symbol)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, t.Type)
	for _, f := range [...]struct {
		key string
		n   num
	}{
		{`,"mark_price":`, t.MarkPrice}, {`,"mid_price":`, t.MidPrice}, {`,"index_price":`, t.IndexPrice},
		{`,"best_bid_price":`, t.BestBidPrice}, {`,"best_ask_price":`, t.BestAskPrice},
		{`,"best_bid_size":`, t.BestBidSize}, {`,"best_ask_size":`, t.BestAskSize},
		{`,"funding_rate":`, t.FundingRate}, {`,"volume_24h":`, t.Volume24h}, {`,"change_24h":`, t.Change24h},
		{`,"open_interest":`, t.OpenInterest}, {`,"max_trading_price":`, t.MaxTradingPrice},
		{`,"min_trading_price":`, t.MinTradingPrice}, {`,"last_price":`, t.LastPrice},
	} {
		b = append(b, f.key...)
		b = appendDecimal(b, f.n.Decimal)
	}
	b = append(b, `,"last_updated":`...)
	b = strconv.AppendInt(b, t.LastUpdated, 10)
	return append(b, '}')
}

// appendJSONString writes s as encoding/json does: printable ASCII other than the quote, the
// backslash and its HTML-escaped <, > and & as is; anything else through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendFrame writes a notification on channel carrying data into b, as notificationFrame
// does: by hand when data writes itself, through encoding/json otherwise.
func appendFrame(b []byte, channel string, data any) ([]byte, error) {
	a, ok := data.(jsonAppender)
	if !ok {
		f, err := notificationFrame(channel, data)
		return append(b, f...), err
	}
	b = append(b, `{"jsonrpc":"2.0","method":"subscription","params":{"channel":`...)
	b = appendJSONString(b, channel)
	b = append(b, `,"data":`...)
	b = a.appendJSON(b)
	return append(b, "}}"...), nil
}

// appendDecimal writes d as its String does, without the big.Int's string when its coefficient
// has at most 18 digits and its exponent is 18 to -18 (every price and size the simulator sends:
// a size in lots of 10 or 100, a cheap synthetic market's, has a positive exponent); others, and
// the package's other string settings, through String.
func appendDecimal(b []byte, d decimal.Decimal) []byte {
	exp := d.Exponent()
	if exp > 18 || exp < -18 || !decimal.TrimTrailingZeros || decimal.UseScientificNotation || d.NumDigits() > 18 {
		return append(b, d.String()...)
	}
	return appendCoefficient(b, d.CoefficientInt64(), exp)
}

// appendCoefficient writes c x 10^exp (exp 18 to -18) as decimal's String does: no trailing
// zeros after the point, none of it when nothing is left after it; a positive exponent's zeros
// after the digits (none after a 0).
func appendCoefficient(b []byte, c int64, exp int32) []byte {
	if c < 0 {
		b = append(b, '-')
		c = -c
	}
	var digits [20]byte
	str := strconv.AppendInt(digits[:0], c, 10)
	if exp >= 0 {
		b = append(b, str...)
		for i := int32(0); i < exp && c != 0; i++ {
			b = append(b, '0')
		}
		return b
	}
	point := len(str) + int(exp) // digits before the point; 0 or less: "0." and -point zeros first
	frac := str[max(point, 0):]
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if point > 0 {
		b = append(b, str[:point]...)
	} else {
		b = append(b, '0')
	}
	if len(frac) == 0 {
		return b
	}
	b = append(b, '.')
	for range -min(point, 0) {
		b = append(b, '0')
	}
	return append(b, frac...)
}
