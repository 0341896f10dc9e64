package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Stream channels, as the newer SDK generation names them (protocol.md, "Streaming").
const (
	ChanTicker    = "ticker"
	ChanMids      = "mids"
	ChanBBO       = "bbo"
	ChanOrderBook = "orderbook"
	ChanTrades    = "trades"
	ChanChart     = "chart"
	ChanOrders    = "orders"
	ChanFills     = "fills"
	ChanPositions = "position"
	ChanAccount   = "account_summary"
)

// BookUpdate is one orderbook notification: a snapshot (the whole book) or an update (levels
// that changed; a size of 0 deletes the level), numbered by Sequence.
type BookUpdate struct {
	Snapshot   bool
	Instrument string
	Bids, Asks []BookLevel
	Sequence   uint64
	Time       Time
}

// StreamEvent is one streamed record, decoded into the same types as /info: *Ticker, []Mid, *BBO,
// *BookUpdate, *Trade, *Candle, *OrderRecord, *Fill, []Position or *AccountSummary.
type StreamEvent struct {
	Topic Topic
	// Key names the state the record replaces (a ticker's symbol, the account): records with the
	// same Key may be merged, the newest kept. "" for events (orders, fills, book updates,
	// trades), which are never merged or dropped.
	Key  string
	Data any
}

// rpcFrame is one JSON-RPC 2.0 message: a request, a response or a notification.
type rpcFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error is the server's code and (shortened) message.
func (e *RPCError) Error() string {
	return fmt.Sprintf("stream error %d: %s", e.Code, truncate(e.Message, 200))
}

// notification is a data message's params.
type notification struct {
	Channel string          `json:"channel"`
	Data    json.RawMessage `json:"data"`
}

// subscribeResult is the result of subscribe and unsubscribe.
type subscribeResult struct {
	Status   string   `json:"status"`
	Channels []string `json:"channels"`
	Error    string   `json:"error"`
}

// maxNumberLen and maxExponent bound a number's text: a hostile "1e999999999" would make a
// decimal whose text is a gigabyte.
const (
	maxNumberLen = 80
	maxExponent  = 64
)

// frame is a decoded message: a response (ID set) or a notification (Channel set).
type frame struct {
	ID      string
	Result  json.RawMessage
	Err     error // a JSON-RPC error, or a refused subscription
	Channel string
	Data    json.RawMessage
}

// decodeFrame reads one text frame. Numbers are checked before anything is decoded; a plain
// notification is read in one pass (fastFrame, which checks them as it reads), anything else by
// decodeFrameJSON after checkNumbers.
func decodeFrame(b []byte) (frame, error) {
	if f, ok := fastFrame(b); ok {
		return f, nil
	}
	if err := checkNumbers(b); err != nil {
		return frame{}, err
	}
	return decodeFrameJSON(b)
}

// decodeFrameJSON reads one frame with encoding/json.
func decodeFrameJSON(b []byte) (frame, error) {
	var f rpcFrame
	if err := json.Unmarshal(b, &f); err != nil {
		return frame{}, fmt.Errorf("malformed frame: %v", shortErr(err))
	}
	if len(f.ID) > 0 && string(f.ID) != "null" {
		id := strings.Trim(string(f.ID), `"`)
		out := frame{ID: truncate(id, 40), Result: f.Result}
		if f.Error != nil {
			out.Err = f.Error
		}
		return out, nil
	}
	if f.Method != "subscription" && f.Method != "event" {
		return frame{}, fmt.Errorf("frame without id has method %q: want subscription", truncate(f.Method, 40))
	}
	var n notification
	if err := json.Unmarshal(f.Params, &n); err != nil {
		return frame{}, fmt.Errorf("malformed notification params: %v", shortErr(err))
	}
	if n.Channel == "" {
		return frame{}, errors.New("notification without a channel")
	}
	return frame{Channel: n.Channel, Data: n.Data}, nil
}

// decodeData decodes one notification's data for a channel into its typed records (one
// notification may carry one record or an array of them), within the channel's limits (the same
// as a poll's: CheckAnswer). A bad row of an array is left out and reported to drop, as a poll's
// is (see rows); when more than half of the rows are bad, or the notification's one record is,
// the notification fails. The ticker and mids channels are read in one pass (fastTickers and
// fastMids, which hold the data to CheckAnswer's limits themselves) where they can be.
func decodeData(t Topic, raw json.RawMessage, drop dropFunc) ([]StreamEvent, error) {
	switch t.Channel {
	case ChanTicker:
		if evs, ok := fastTickers(t, raw); ok {
			return evs, nil
		}
	case ChanMids:
		if ms, ok := fastMids(raw); ok {
			return []StreamEvent{{Topic: t, Key: "mids:" + t.Symbol, Data: ms}}, nil
		}
	}
	if err := CheckAnswer(raw, ChannelLimit(t.Channel)); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Channel, err)
	}
	switch t.Channel {
	case ChanTicker:
		return decodeEach(t, raw, drop, func(x *Ticker) string { return "ticker:" + x.Symbol }, fixTicker)
	case ChanMids:
		ms, err := decodeMids(raw, drop)
		if err != nil {
			return nil, err
		}
		return []StreamEvent{{Topic: t, Key: "mids:" + t.Symbol, Data: ms}}, nil
	case ChanOrderBook:
		var u BookUpdate
		if err := u.UnmarshalJSON(raw); err != nil {
			return nil, err
		}
		return bookOf(t, &u, drop), nil
	case ChanChart:
		return decodeEach(t, raw, drop, func(c *Candle) string { return "chart:" + t.key() }, nil)
	case ChanOrders, ChanFills, ChanPositions, ChanAccount:
		return decodeAccount(t, raw, drop)
	case ChanBBO:
		var b BBO
		if err := b.UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("bbo: %v", shortErr(err))
		}
		return []StreamEvent{{Topic: t, Key: "bbo:" + t.Symbol, Data: &b}}, nil
	case ChanTrades:
		return decodeEach(t, raw, drop, func(*Trade) string { return "" }, nil)
	}
	return nil, fmt.Errorf("no decoder for channel %q", truncate(t.Channel, 40))
}

// decodeEach decodes one record or an array of records of type T; an array's bad rows are
// dropped (see keepEach).
func decodeEach[T any](t Topic, raw json.RawMessage, drop dropFunc, key func(*T) string, fix func(raw json.RawMessage, x *T)) ([]StreamEvent, error) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || b[0] != '[' {
		x := new(T)
		if err := json.Unmarshal(raw, x); err != nil {
			return nil, fmt.Errorf("%s: %v", t.Channel, shortErr(err))
		}
		if fix != nil {
			fix(raw, x)
		}
		return []StreamEvent{{Topic: t, Key: key(x), Data: x}}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return nil, fmt.Errorf("%s: %v", t.Channel, shortErr(err))
	}
	out := make([]StreamEvent, 0, len(raws))
	err := keepEach(len(raws), func(i int) error {
		x, err := decodeRow(raws[i], fix)
		if err != nil {
			return shortErr(err)
		}
		out = append(out, StreamEvent{Topic: t, Key: key(&x), Data: &x})
		return nil
	}, drop)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", t.Channel, err)
	}
	return out, nil
}

// fixTicker fills the ticker's symbol from instrument_name when the stream sends only that.
func fixTicker(raw json.RawMessage, t *Ticker) {
	if t.Symbol != "" {
		return
	}
	var alt struct {
		Name string `json:"instrument_name"`
	}
	if json.Unmarshal(raw, &alt) == nil {
		t.Symbol = alt.Name
	}
}

// fixOrder reads the newer generation's account when user is absent.
func fixOrder(raw json.RawMessage, o *OrderRecord) {
	if o.User != "" {
		return
	}
	var alt struct {
		Account string `json:"account"`
	}
	if json.Unmarshal(raw, &alt) == nil {
		o.User = alt.Account
	}
}

// fixFill reads the newer generation's original_size / original_price when start_* are absent.
func fixFill(raw json.RawMessage, f *Fill) {
	if !f.StartSize.IsZero() || !f.StartPrice.IsZero() {
		return
	}
	var alt struct {
		Size  *decimal.Decimal `json:"original_size"`
		Price *decimal.Decimal `json:"original_price"`
	}
	if json.Unmarshal(raw, &alt) == nil {
		if alt.Size != nil {
			f.StartSize = *alt.Size
		}
		if alt.Price != nil {
			f.StartPrice = *alt.Price
		}
	}
}

// decodeList decodes an array, its bad rows dropped (see keepEach), or one object as a list of
// one.
func decodeList[T any](raw json.RawMessage, out *[]T, drop dropFunc) error {
	b := bytes.TrimSpace(raw)
	if len(b) > 0 && b[0] == '{' {
		var x T
		if err := json.Unmarshal(b, &x); err != nil {
			return shortErr(err)
		}
		*out = []T{x}
		return nil
	}
	var d dropFunc
	if drop != nil {
		d = func(i int, err error) { drop(i, shortErr(err)) }
	}
	if err := decodeRows(b, out, d); err != nil {
		return shortErr(err)
	}
	return nil
}

// decodeMids reads mids as /info sends them ([{symbol, mid_price}]), as one record, or as a map
// of symbol to price. A bad row or price is dropped (see keepEach).
func decodeMids(raw json.RawMessage, drop dropFunc) ([]Mid, error) {
	b := bytes.TrimSpace(raw)
	if len(b) > 0 && b[0] == '{' && !bytes.Contains(b, []byte(`"mid_price"`)) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("mids: %v", shortErr(err))
		}
		syms := make([]string, 0, len(m))
		for s := range m {
			syms = append(syms, s)
		}
		sort.Strings(syms)
		out := make([]Mid, 0, len(m))
		err := keepEach(len(syms), func(i int) error {
			var p decimal.Decimal
			if err := json.Unmarshal(m[syms[i]], &p); err != nil {
				return fmt.Errorf("%s: %v", truncate(syms[i], 40), shortErr(err))
			}
			out = append(out, Mid{Symbol: syms[i], MidPrice: p})
			return nil
		}, drop)
		if err != nil {
			return nil, fmt.Errorf("mids: %v", err)
		}
		return out, nil
	}
	var out []Mid
	if err := decodeList(b, &out, drop); err != nil {
		return nil, fmt.Errorf("mids: %v", err)
	}
	return out, nil
}

// UnmarshalJSON implements json.Unmarshaler: {update_type, instrument_name, books: {bids, asks,
// sequence_number, timestamp}}, or the same fields at the top level.
func (u *BookUpdate) UnmarshalJSON(b []byte) error {
	type books struct {
		Bids     []BookLevel `json:"bids"`
		Asks     []BookLevel `json:"asks"`
		Sequence *Int        `json:"sequence_number"`
		Time     Time        `json:"timestamp"`
	}
	var aux struct {
		UpdateType string `json:"update_type"`
		Instrument string `json:"instrument_name"`
		Symbol     string `json:"symbol"`
		Books      *books `json:"books"`
		books
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return fmt.Errorf("orderbook: %v", shortErr(err))
	}
	bk := aux.books
	if aux.Books != nil {
		bk = *aux.Books
	}
	switch aux.UpdateType {
	case "snapshot", "update", "delta":
	default:
		return fmt.Errorf("orderbook: update_type %q: want snapshot or update", truncate(aux.UpdateType, 20))
	}
	if bk.Sequence == nil || *bk.Sequence < 0 {
		return errors.New("orderbook: no sequence_number")
	}
	*u = BookUpdate{Snapshot: aux.UpdateType == "snapshot", Instrument: aux.Instrument, Bids: bk.Bids, Asks: bk.Asks,
		Sequence: uint64(*bk.Sequence), Time: bk.Time}
	if u.Instrument == "" {
		u.Instrument = aux.Symbol
	}
	return nil
}

// shortErr shortens a decoding error (which may quote the hostile input) to one short line.
func shortErr(err error) error {
	return errors.New(truncate(strings.ReplaceAll(err.Error(), "\n", " "), 160))
}

// checkNumbers refuses a frame holding a number (bare, or as a whole string) longer than
// maxNumberLen or with an exponent beyond ±maxExponent.
func checkNumbers(b []byte) error {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if j > len(b) {
				j = len(b)
			}
			if err := checkNumberText(b[i+1 : j]); err != nil {
				return err
			}
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(b) && (numStart(b[j]) || b[j] == 'e' || b[j] == 'E') {
				j++
			}
			if err := checkNumberText(b[i:j]); err != nil {
				return err
			}
			i = j - 1
		}
	}
	return nil
}

// checkNumberText checks s when it is a number: its length and its exponent.
func checkNumberText(s []byte) error {
	if len(s) == 0 || !numStart(s[0]) {
		return nil
	}
	e := -1
	for i, c := range s {
		if c == 'e' || c == 'E' {
			e = i
			break
		}
	}
	if len(s) <= maxNumberLen && e < 0 {
		return nil
	}
	if !looksNumeric(s) {
		return nil // text that only starts like a number (a hash, a date)
	}
	if len(s) > maxNumberLen {
		return fmt.Errorf("a number of %d characters: at most %d", len(s), maxNumberLen)
	}
	exp, err := strconv.Atoi(string(s[e+1:]))
	if err != nil || exp > maxExponent || exp < -maxExponent {
		return fmt.Errorf("number %q: exponent beyond ±%d", truncate(string(s), 24), maxExponent)
	}
	return nil
}

// numStart reports whether a number may start with c (or go on with it, but for an exponent).
func numStart(c byte) bool {
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

// looksNumeric reports whether s is a decimal number in JSON's or decimal's syntax.
func looksNumeric(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		if s[i] != '.' {
			digits++
		}
		i++
	}
	if digits == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != 'e' && s[i] != 'E' {
		return false
	}
	i++
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i == len(s) {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
