package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// manyTickers is a ticker answer of n records.
func manyTickers(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"symbol":"X%d","mark_price":"%d"}`, i, i)
	}
	b.WriteString("]")
	return b.String()
}

// TestCheckAnswer: each limit refuses one element over it and passes one at it. Guards the
// comparisons (an off-by-one, > flipped to <) and each check dropped.
func TestCheckAnswer(t *testing.T) {
	cases := []struct {
		name, body string
		max        int
		want       string // "" when it passes
		tooMany    bool
	}{
		{"at the list limit", manyTickers(3), 3, "", false},
		{"over the list limit", manyTickers(4), 3, "over 3 entries in one list", true},
		{"a nested list over", `{"perps":[1,2,3,4]}`, 3, "over 3 entries", true},
		{"an object's members over", `{"a":1,"b":2,"c":3,"d":4}`, 3, "over 3 entries", true},
		{"an object's members at", `{"a":1,"b":2,"c":3}`, 3, "", false},
		{"strings with brackets and quotes count once", `["[[[", "\"]]", "{"]`, 3, "", false},
		{"at the depth limit", strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), 5, "", false},
		{"over the depth limit", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), 5, "nested more than 32 deep", false},
		{"a huge exponent", `{"mark_price":1e999999999}`, 5, "exponent", false},
		{"a huge exponent as text", `{"mark_price":"1e999999999"}`, 5, "exponent", false},
		{"a long number", `[` + strings.Repeat("9", 81) + `]`, 5, "a number of 81 characters", false},
		{"a hash is no number", `["0x` + strings.Repeat("ab", 40) + `", "2026-11-22T10:00:00Z"]`, 5, "", false},
		{"literals count", `[true,false,null,1]`, 3, "over 3 entries", true},
	}
	for _, c := range cases {
		err := CheckAnswer([]byte(c.body), c.max)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var le *LimitError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) || le.TooMany != c.tooMany {
			t.Errorf("%s: %v, want a LimitError saying %q (too many %v)", c.name, err, c.want, c.tooMany)
		}
	}
}

// answerServer answers every /info request with body.
func answerServer(t *testing.T, body string) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return New(srv.URL, WithAddress(destAddr), WithRetry(RetryPolicy{Attempts: 1}))
}

// TestLimitsPerMethod: the answer of every list method is refused over its limit, as
// KindTooLarge, and kept at it: tickers and instruments at 5,000, a page at the size asked for
// plus the margin, candles and book levels at theirs. Guards limitFor's cases.
func TestLimitsPerMethod(t *testing.T) {
	ctx := context.Background()
	over := answerServer(t, manyTickers(MaxMarketRecords+1))
	if _, err := over.Ticker(ctx, ""); !IsKind(err, KindTooLarge) || !strings.Contains(err.Error(), "over 5000 entries in one list") {
		t.Errorf("ticker over the limit: %v", err)
	}
	at := answerServer(t, manyTickers(MaxMarketRecords))
	if ts, err := at.Ticker(ctx, ""); err != nil || len(ts) != MaxMarketRecords {
		t.Errorf("ticker at the limit: %d, %v", len(ts), err)
	}
	page := answerServer(t, `{"data":`+manyTickers(PageLimit(100)+1)+`,"page":1}`)
	if _, err := page.Fills(ctx, "", PageParams{Limit: 100}); !IsKind(err, KindTooLarge) {
		t.Errorf("a page of fills over the size asked for plus the margin: %v", err)
	}
	if _, err := page.Fills(ctx, "", PageParams{Limit: 1000}); IsKind(err, KindTooLarge) {
		t.Errorf("a page within a larger size asked for: %v", err)
	}
	// A bare list with a limit asked (transfer_history, account_history) is held to it too.
	user := "0x1111111111111111111111111111111111111111"
	list := answerServer(t, manyTickers(PageLimit(200)+1))
	if _, err := list.TransferHistory(ctx, user, 200); !IsKind(err, KindTooLarge) {
		t.Errorf("transfers over the limit asked plus the margin: %v", err)
	}
	if _, err := list.AccountHistory(ctx, user, 200); !IsKind(err, KindTooLarge) {
		t.Errorf("account history over the limit asked plus the margin: %v", err)
	}
	if _, err := list.AccountHistory(ctx, user, 1000); IsKind(err, KindTooLarge) {
		t.Errorf("account history within a larger limit asked: %v", err)
	}
	perps := answerServer(t, `{"perps":`+manyTickers(MaxMarketRecords+1)+`,"spot":[]}`)
	if _, err := perps.Instruments(ctx, ""); !IsKind(err, KindTooLarge) {
		t.Errorf("instruments over the limit: %v", err)
	}
	levels := strings.Repeat(`["1","1"],`, MaxBookLevels) + `["1","1"]`
	book := answerServer(t, `{"symbol":"BTC-PERP","bids":[`+levels+`],"asks":[]}`)
	if _, err := book.OrderBook(ctx, "BTC-PERP", 0); !IsKind(err, KindTooLarge) {
		t.Errorf("a book side over the limit: %v", err)
	}
	candles := answerServer(t, "["+strings.Repeat(`{"time":1,"open":"1"},`, MaxCandles)+`{"time":1,"open":"1"}]`)
	if _, err := candles.Chart(ctx, ChartParams{InstrumentID: 1, ChartType: "mark", Resolution: "1", From: 1, To: 2}); !IsKind(err, KindTooLarge) {
		t.Errorf("candles over the limit: %v", err)
	}
}

// TestBadRowDropped: an empty string in a decimal field of one ticker, one order-history record
// or one instrument drops that row, logged and counted in the request's Drops, and keeps the
// rest; when most rows are bad the answer fails. Guards the drop (a bad row failing the whole
// answer) and the majority rule (> flipped).
func TestBadRowDropped(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		body string
		call func(*Client, context.Context) (int, error)
	}{
		{"ticker", `[{"symbol":"A","mark_price":"1"},{"symbol":"B","mark_price":""},{"symbol":"C","mark_price":"3"}]`,
			func(c *Client, ctx context.Context) (int, error) { ts, err := c.Ticker(ctx, ""); return len(ts), err }},
		{"order history", `{"data":[{"order_id":1,"limit_price":"1","size":"1"},{"order_id":2,"limit_price":"","size":"1"},{"order_id":3,"limit_price":"1","size":"1"}],"page":1,"total_pages":1}`,
			func(c *Client, ctx context.Context) (int, error) {
				p, err := c.OrderHistory(ctx, "", PageParams{})
				return len(p.Data), err
			}},
		{"instruments", `{"perps":[{"id":1,"name":"A","tick_size":"0.1"},{"id":2,"name":"B","tick_size":"x"},{"id":3,"name":"C"}],"spot":[]}`,
			func(c *Client, ctx context.Context) (int, error) {
				in, err := c.Instruments(ctx, "")
				return len(in.Perps), err
			}},
	}
	for _, c := range cases {
		var drops Drops
		n, err := c.call(answerServer(t, c.body), WithDrops(ctx, &drops))
		if err != nil || n != 2 {
			t.Errorf("%s: %d rows, %v; want 2 rows kept", c.name, n, err)
		}
		if drops.Count() != 1 || !strings.Contains(drops.First(), "row 1") {
			t.Errorf("%s: %d dropped (%q), want row 1", c.name, drops.Count(), drops.First())
		}
	}
	var drops Drops
	mostly := answerServer(t, `[{"symbol":"A","mark_price":""},{"symbol":"B","mark_price":""},{"symbol":"C","mark_price":"3"}]`)
	if _, err := mostly.Ticker(WithDrops(ctx, &drops), ""); !IsKind(err, KindDecode) || !strings.Contains(err.Error(), "2 of 3 rows do not decode") {
		t.Errorf("mostly bad: %v", err)
	}
	other := answerServer(t, `[{"foo":1},{"bar":2}]`)
	if _, err := other.Positions(ctx, ""); !IsKind(err, KindDecode) || !strings.Contains(err.Error(), "none of the record's fields") {
		t.Errorf("rows of another record: %v", err)
	}
}

// IsKind reports whether err is an *Error of kind k (for tests).
func IsKind(err error, k ErrorKind) bool {
	e, ok := AsError(err)
	return ok && e.Kind == k
}

// FuzzCheckAnswer: CheckAnswer never panics, reads an answer in pieces as it does whole, and
// whatever it passes with a limit decodes into
// []json.RawMessage (when it is an array) with no more elements than the limit.
func FuzzCheckAnswer(f *testing.F) {
	for _, s := range []string{manyTickers(3), `{"a":[1,2,{"b":"1e9"}]}`, `[[[`, `"\"`, `["\\"]`, `[1e99999]`, `{"perps":[],"spot":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		whole := CheckAnswer(b, 3)
		sc := NewAnswerScan(3)
		for i := 0; i < len(b); i += 7 { // as a body is read, in pieces
			_ = sc.Write(b[i:min(i+7, len(b))])
		}
		if pieces := sc.Close(); (pieces == nil) != (whole == nil) {
			t.Fatalf("whole: %v, in pieces: %v, for %q", whole, pieces, b)
		}
		if whole != nil {
			return
		}
		var raws []json.RawMessage
		if json.Unmarshal(b, &raws) == nil && len(raws) > 3 {
			t.Fatalf("passed %d elements with a limit of 3: %q", len(raws), b)
		}
	})
}

// FuzzDecodeRows: decoding a list row by row never panics, keeps no more rows than there are,
// and drops at most half of them.
func FuzzDecodeRows(f *testing.F) {
	for _, s := range []string{`[{"symbol":"A","mark_price":"1"},{"symbol":"B","mark_price":""}]`, `[{}]`, `null`, `[1,"x"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var out []Ticker
		dropped := 0
		err := decodeRows(b, &out, func(int, error) { dropped++ })
		if err != nil {
			return
		}
		var raws []json.RawMessage
		if json.Unmarshal(b, &raws) == nil && (len(out)+dropped != len(raws) || 2*dropped > len(raws)) {
			t.Fatalf("%d kept, %d dropped of %d rows", len(out), dropped, len(raws))
		}
	})
}

// TestStreamLimits: a streamed notification meets the same limits as a poll (decodeData calls
// CheckAnswer): a book side over MaxBookLevels, tickers over MaxMarketRecords and a number bomb
// are refused; a book at the limit is kept. Guards the stream decode's call of the check.
func TestStreamLimits(t *testing.T) {
	book := func(n int) []byte {
		return []byte(`{"update_type":"snapshot","instrument_name":"BTC-PERP","books":{"bids":[` +
			strings.TrimSuffix(strings.Repeat(`["1","1"],`, n), ",") + `],"asks":[],"sequence_number":1}}`)
	}
	if _, err := decodeData(Topic{Channel: ChanOrderBook, Symbol: "BTC-PERP"}, book(MaxBookLevels+1), nil); err == nil || !strings.Contains(err.Error(), "over 5000 entries") {
		t.Errorf("a book side over the limit: %v", err)
	}
	if ev, err := decodeData(Topic{Channel: ChanOrderBook, Symbol: "BTC-PERP"}, book(MaxBookLevels), nil); err != nil || len(ev) != 1 {
		t.Errorf("a book side at the limit: %v", err)
	}
	if _, err := decodeData(Topic{Channel: ChanTicker, Symbol: "all"}, []byte(manyTickers(MaxMarketRecords+1)), nil); err == nil {
		t.Error("tickers over the limit accepted")
	}
	if _, err := decodeData(Topic{Channel: ChanTicker, Symbol: "all"}, []byte(`{"symbol":"X","mark_price":1e999999999}`), nil); err == nil {
		t.Error("a number bomb accepted")
	}
}
