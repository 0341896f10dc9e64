package api

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// edgeNumbers are price texts at the edges of the fast path (plainNumber's 18 characters, signs,
// zeros, exponents, quotes) and past them (taken by Decimal.UnmarshalJSON).
var edgeNumbers = []string{
	"0", "-0", "0.0", `"-0.0"`, "1", "-1", "0.5", "-0.000000000000001", "1.10", `"007.50"`, `"8712.9"`,
	"123456789012345678", "-123456789012345678", "12345678901234567.8", "0.12345678901234567",
	"1234567890123456789", "-9223372036854775808", "9223372036854775807", "99999999999999999999999999",
	"0.123456789012345678901234567890", "1e3", "-1.5E-7", "2.5e+10", "0e0", `"1e2"`, `""`, "null",
}

// tickerData is a ticker notification's data with mark, index and last at the texts given.
func tickerData(sym, mark, index, last string) []byte {
	return []byte(`{"instrument_name":"` + sym + `","instrument_id":7,"symbol":"` + sym + `","type":"perp","mark_price":` + mark +
		`,"mid_price":8713.3,"index_price":` + index + `,"best_bid_size":0.1342,"last_price":` + last +
		`,"last_updated":1769688000123}`)
}

// TestFastTickerMatchesEncodingJSONOnEdgeNumbers: a streamed ticker decodes to what encoding/json
// makes of it (the general decoder), figure by figure, value and exponent, for every edge number
// in each field, after a ticker of the same instrument whose figures were the same, others or
// none (the memo's hit, miss and first). Guards: the memo sharing a decimal made from another
// text (1.10 for 1.1, 0 for -0.0), a plain number's coefficient or exponent misread.
func TestFastTickerMatchesEncodingJSONOnEdgeNumbers(t *testing.T) {
	tk := Topic{Channel: ChanTicker, Symbol: "all"}
	for i, v := range edgeNumbers {
		for j, before := range []string{v, "1.1", edgeNumbers[(i+1)%len(edgeNumbers)]} {
			sym := fmt.Sprintf("EDGE%d-%d", i, j)
			for _, data := range [][]byte{tickerData(sym, before, before, "5"), tickerData(sym, v, "5", v), tickerData(sym, "5", v, v)} {
				got, gerr := decodeData(tk, data, nil)
				want, werr := decodeEach(tk, data, nil, func(x *Ticker) string { return "ticker:" + x.Symbol }, fixTicker)
				if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: stream decode %+v, %v; encoding/json %+v, %v", data, got, gerr, want, werr)
				}
				if gerr != nil {
					continue
				}
				g, w := got[0].Data.(*Ticker), want[0].Data.(*Ticker)
				for k := range tickerPrices {
					if a, b := g.priceAt(k), w.priceAt(k); a.String() != b.String() || a.Exponent() != b.Exponent() {
						t.Fatalf("%s: figure %d is %s (exponent %d), encoding/json %s (%d)", data, k, a, a.Exponent(), b, b.Exponent())
					}
				}
			}
		}
	}
}

// TestFastMidsMatchEncodingJSONOnEdgeNumbers: the same for a mids list, each edge number after the
// same, another and none.
func TestFastMidsMatchEncodingJSONOnEdgeNumbers(t *testing.T) {
	mt := Topic{Channel: ChanMids, Symbol: "all"}
	for i, v := range edgeNumbers {
		for _, before := range []string{v, edgeNumbers[(i+3)%len(edgeNumbers)]} {
			for _, mid := range []string{before, v} {
				data := []byte(fmt.Sprintf(`[{"symbol":"EDGE%d","mid_price":%s},{"symbol":"X","mid_price":1}]`, i, mid))
				got, gerr := decodeData(mt, data, nil)
				want, werr := decodeMids(data, nil)
				if (gerr == nil) != (werr == nil) || gerr == nil && !reflect.DeepEqual(got[0].Data, want) {
					t.Fatalf("%s: stream decode %+v, %v; encoding/json %+v, %v", data, got, gerr, want, werr)
				}
				if gerr == nil && got[0].Data.([]Mid)[0].MidPrice.Exponent() != want[0].MidPrice.Exponent() {
					t.Fatalf("%s: exponent %d, encoding/json %d", data, got[0].Data.([]Mid)[0].MidPrice.Exponent(), want[0].MidPrice.Exponent())
				}
			}
		}
	}
}

// TestStreamTickerAllocatesOnlyWhatMoved: an instrument's ticker whose figures are the ones it
// had takes four allocations (the ticker, its event, the read's bookkeeping), where each of its
// fourteen decimals took two; one figure moved adds that figure's. Guards: the memo bypassed,
// or the symbol, type, key or the frame's channel made anew each time.
func TestStreamTickerAllocatesOnlyWhatMoved(t *testing.T) {
	tk := Topic{Channel: ChanTicker, Symbol: "all"}
	same, mids := tickerFrame(42), midsFrame(509)
	moved := [2][]byte{tickerFrame(42), []byte(strings.Replace(string(tickerFrame(42)), `"mark_price":8712.9`, `"mark_price":8713.1`, 1))}
	decode := func(tp Topic, b []byte) {
		f, err := decodeFrame(b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeData(tp, f.Data, nil); err != nil {
			t.Fatal(err)
		}
	}
	run := func(b []byte) { decode(tk, b) }
	if n := testing.AllocsPerRun(50, func() { run(same) }); n > 4 {
		t.Errorf("an unchanged ticker: %.0f allocations, want at most 4", n)
	}
	i := 0
	if n := testing.AllocsPerRun(50, func() { i++; run(moved[i%2]) }); n > 6 {
		t.Errorf("a ticker with its mark moved: %.0f allocations, want at most 6", n)
	}
	if n := testing.AllocsPerRun(20, func() { decode(Topic{Channel: ChanMids, Symbol: "all"}, mids) }); n > 20 {
		t.Errorf("a mids list of 509 unchanged: %.0f allocations, want at most 20", n)
	}
}

// TestFastDecodersHoldCheckAnswersLimits: the ticker and mids data the fast decoders now read
// before CheckAnswer fail as CheckAnswer fails them: a list over the channel's limit, nesting past
// MaxDepth in a field no record reads, a number too long or too large, a numeric-looking name of
// more than 80 characters. Guards: fastList without its count, fastOther skipping nested
// values or long ones, fastText taking a long string CheckAnswer judges numeric by its first characters.
func TestFastDecodersHoldCheckAnswersLimits(t *testing.T) {
	long := strings.Repeat("1", 85) + "x"
	rows := func(n int, row string) string { return "[" + strings.TrimSuffix(strings.Repeat(row+",", n), ",") + "]" }
	for _, c := range []struct {
		ch, data string
	}{
		{ChanTicker, rows(MaxMarketRecords+1, `{"symbol":"A","mark_price":1}`)},
		{ChanMids, rows(MaxMarketRecords+1, `{"symbol":"A","mid_price":1}`)},
		{ChanTicker, `{"symbol":"A","x":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + `}`},
		{ChanMids, `[{"symbol":"A","mid_price":1,"x":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + `}]`},
		{ChanTicker, `{"symbol":"A","mark_price":1e999999999}`},
		{ChanTicker, `{"symbol":"A","x":1e99}`},
		{ChanTicker, `{"symbol":"A","mark_price":` + strings.Repeat("9", 90) + `}`},
		{ChanTicker, `{"symbol":"` + long + `","mark_price":1}`},
		{ChanMids, `[{"symbol":"` + long + `","mid_price":1}]`},
		{ChanTicker, `{"` + long + `":1,"symbol":"A"}`},
		{ChanTicker, `{"symbol":"A","x":"` + long + `"}`},
		{ChanMids, `[{"symbol":"A","mid_price":1,"x":"` + long + `"}]`},
	} {
		want := CheckAnswer([]byte(c.data), ChannelLimit(c.ch))
		if want == nil {
			t.Fatalf("%.80s: CheckAnswer passes it; the case is wrong", c.data)
		}
		_, err := decodeData(Topic{Channel: c.ch, Symbol: "all"}, []byte(c.data), nil)
		if err == nil || !strings.Contains(err.Error(), want.Error()) {
			t.Errorf("%s %.80s: %v, want CheckAnswer's %v", c.ch, c.data, err, want)
		}
	}
}

// TestMemoHoldsAtMostMaxMarketRecords: tickers and mids of more instruments than any answer may
// list (and frames of more channels than a connection holds) are decoded right, the memo keeps
// no more than MaxMarketRecords of each (maxMemoChannels channels), and an
// instrument seen after them is memoized again. Guards: an unbounded memo; one that, once full,
// takes no new instrument (a stream of made-up names would end the sharing for good).
func TestMemoHoldsAtMostMaxMarketRecords(t *testing.T) {
	tk := Topic{Channel: ChanTicker, Symbol: "all"}
	for i := range MaxMarketRecords + 10 {
		sym := fmt.Sprintf("MEMO%d", i)
		evs, err := decodeData(tk, tickerData(sym, "1.5", "2", "3"), nil)
		if err != nil || evs[0].Key != "ticker:"+sym || !evs[0].Data.(*Ticker).MarkPrice.Equal(decimal.RequireFromString("1.5")) {
			t.Fatalf("%s: %+v, %v", sym, evs, err)
		}
		if _, err := decodeData(Topic{Channel: ChanMids, Symbol: "all"}, []byte(`[{"symbol":"`+sym+`","mid_price":1}]`), nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range maxMemoChannels + 10 {
		f, err := decodeFrame([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"ch%d","data":{}}}`, i)))
		if err != nil || f.Channel != fmt.Sprintf("ch%d", i) {
			t.Fatalf("channel %d: %+v, %v", i, f, err)
		}
	}
	streamMemo.mu.Lock()
	n, m, c := len(streamMemo.tickers), len(streamMemo.mids), len(streamMemo.channels)
	streamMemo.mu.Unlock()
	if n > MaxMarketRecords || m > MaxMarketRecords || c > maxMemoChannels {
		t.Errorf("memo holds %d tickers, %d mids and %d channels, want at most %d, %d and %d", n, m, c, MaxMarketRecords, MaxMarketRecords, maxMemoChannels)
	}
	data := tickerData("AFTER-THE-FLOOD", "1.5", "2", "3")
	if _, err := decodeData(tk, data, nil); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() { _, _ = decodeData(tk, data, nil) }); a > 6 {
		t.Errorf("an instrument after the memo filled: %.0f allocations a ticker, want at most 6 (memoized)", a)
	}
}
