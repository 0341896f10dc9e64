package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzStreamFrame: no frame, however broken, panics the decoder or yields a number the exponent
// check should have refused; every channel's data decoder is run on whatever a notification
// carries.
func FuzzStreamFrame(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"1","result":{"status":"subscribed","channels":["ticker:BTC-PERP"]}}`,
		`{"jsonrpc":"2.0","id":"2","error":{"code":-32602,"message":"bad"}}`,
		`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"c","data":{"update_type":"snapshot","instrument_name":"BTC-PERP","books":{"bids":[{"price":97000.5,"size":"1.25"}],"asks":[[1,2]],"sequence_number":7,"timestamp":1769688000000}}}}`,
		`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"c","data":{"symbol":"BTC-PERP","mark_price":97000.1,"last_updated":"1769688000"}}}`,
		`{"jsonrpc":"2.0","method":"event","params":{"channel":"c","data":[{"order_id":"12","limit_price":1e3,"size":"0.1","state":"open"}]}}`,
		`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"c","data":{"BTC-PERP":"97000","ETH-PERP":3400.5}}}`,
		`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"c","data":{"trade_id":1,"price":"1e99999999"}}}`,
	} {
		f.Add([]byte(s))
	}
	channels := []string{ChanTicker, ChanMids, ChanBBO, ChanOrderBook, ChanTrades, ChanChart, ChanOrders, ChanFills, ChanPositions, ChanAccount}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := decodeFrame(b)
		if err != nil || fr.Channel == "" {
			return
		}
		for _, ch := range channels {
			dropped := 0
			evs, err := decodeData(Topic{Channel: ch, Symbol: "BTC-PERP", User: "0x0000000000000000000000000000000000000001"}, fr.Data,
				func(int, error) { dropped++ })
			if err != nil {
				// A row is reported dropped only when the rest of its notification is kept.
				if dropped > 0 {
					t.Fatalf("%s: the notification failed (%v) yet %d rows were reported dropped", ch, err, dropped)
				}
				continue
			}
			// Whatever decoded re-encodes: no number it holds is beyond the bounds.
			if _, err := json.Marshal(evs); err != nil {
				t.Fatalf("%s: decoded records do not encode: %v", ch, err)
			}
		}
	})
}

// TestCheckNumbers: the bounds on numbers, bare and in strings, and text that only looks like one.
// Guards: the exponent bound dropped (a gigabyte decimal) or applied to hashes.
func TestCheckNumbers(t *testing.T) {
	for s, ok := range map[string]bool{
		`{"a":1e64,"b":"-2.5E-64"}`:          true,
		`{"a":1e65}`:                         false,
		`{"a":"1e999999999"}`:                false,
		`{"h":"0x3e99999999999999999999"}`:   true,
		`{"t":"2026-01-29T12:00:00Z"}`:       true,
		`{"a":` + string(make80('1')) + `1}`: false,
		`{"a":"\"1e999\""}`:                  true,
	} {
		if err := checkNumbers([]byte(s)); (err == nil) != ok {
			t.Errorf("checkNumbers(%s) = %v, want ok %v", s, err, ok)
		}
	}
}

func make80(c byte) []byte {
	b := make([]byte, 80)
	for i := range b {
		b[i] = c
	}
	return b
}

// FuzzFastDecodersAgree: whatever the one-pass decoders (fastFrame, fastTickers, fastMids) take,
// encoding/json decodes to the same frame and records, with no row dropped; what they decline
// goes to encoding/json. Guards: a fast decoder taking text encoding/json refuses (an escape, a
// control character, a bad number, a trailing byte), a key it matches only case-insensitively,
// or a type it does not check; a fast decoder taking data CheckAnswer refuses (they run before
// it).
func FuzzFastDecodersAgree(f *testing.F) {
	for _, s := range []string{
		string(tickerFrame(7)),
		string(midsFrame(3)),
		`{"instrument_name":"SYN1-PERP","symbol":"","type":"perp","mark_price":8712.9,"best_bid_size":"0.1342","last_updated":1769688000123}`,
		`[{"symbol":"SYN0-PERP","mid_price":8000.0},{"symbol":"SYN1-PERP","mid_price":"8001.1"}]`,
		`[{"symbol":"A","mid_price":null,"MID_PRICE":2},{"Symbol":"B"}]`,
		`{"symbol":"A","Mark_Price":"1"}`,
		`{"mark_price":"-0.0","best_bid_price":-0,"last_price":"007.50","mid_price":123456789012345678,"index_price":-12345678901234567.8}`,
		`[{"symbol":"A","mid_price":"1."},{"symbol":"B","mid_price":".5"},{"symbol":"C","mid_price":"-"},{"symbol":"D","mid_price":"1e3"}]`,
		`{"method":"subscription","params":{"channel":"c","data":{"x":"1e999999"}}}`,
		`{"method":"subscription","params":{"channel":"c","data":{"mark_price":-1.5e65}}}`,
		`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"ticker:all","data":[{"instrument_name":"A","mark_price":"1.5"},{"symbol":"B","last_updated":"2026-01-29T12:00:00Z"}]}}`,
		`{"method":"event","id":null,"x":[1,{"y":"\u00e9"}],"params":{"data":{"Symbol":"A"},"channel":"c"}}`,
		`{"method":"subscription","params":{"channel":"mids:all","data":[{"symbol":"A","mid_price":null,"MID_PRICE":2}]}}`,
		`{"method":"subscription","params":{"channel":"c","data":[{"symbol":"A\"","mark_price":-0.0e+5}]}} `,
		`{"symbol":"123456789012345678901234567890123456789012345678901234567890123456789012345678901234x","mark_price":1}`,
		`[{"symbol":"A","x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"mid_price":1}]`,
		`{"symbol":"A","mark_price":1,"mark_price":null,"index_price":"1e2","index_price":2,"last_updated":"00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, ok := fastFrame(b)
		if ok {
			if err := checkNumbers(b); err != nil {
				t.Fatalf("fastFrame took %q, which checkNumbers refuses: %v", b, err)
			}
			want, err := decodeFrameJSON(b)
			if err != nil || want.Channel != fr.Channel || !bytes.Equal(want.Data, fr.Data) || want.ID != "" {
				t.Fatalf("fastFrame took %q as %q %q; encoding/json: %q %q id %q, %v", b, fr.Channel, fr.Data, want.Channel, want.Data, want.ID, err)
			}
		}
		tk := Topic{Channel: ChanTicker, Symbol: "all"}
		if evs, ok := fastTickers(tk, b); ok {
			if err := CheckAnswer(b, ChannelLimit(ChanTicker)); err != nil {
				t.Fatalf("fastTickers took %q, which CheckAnswer refuses: %v", b, err)
			}
			dropped := 0
			want, err := decodeEach(tk, b, func(int, error) { dropped++ }, func(x *Ticker) string { return "ticker:" + x.Symbol }, fixTicker)
			if err != nil || dropped > 0 || !reflect.DeepEqual(evs, want) {
				t.Fatalf("fastTickers took %q as %+v; encoding/json: %+v, %v (%d dropped)", b, evs, want, err, dropped)
			}
		}
		if ms, ok := fastMids(b); ok {
			if err := CheckAnswer(b, ChannelLimit(ChanMids)); err != nil {
				t.Fatalf("fastMids took %q, which CheckAnswer refuses: %v", b, err)
			}
			for _, drop := range []dropFunc{nil, func(int, error) { t.Fatalf("fastMids took %q, encoding/json drops a row", b) }} {
				want, err := decodeMids(b, drop)
				if err != nil || !reflect.DeepEqual(ms, want) {
					t.Fatalf("fastMids took %q as %+v; encoding/json: %+v, %v", b, ms, want, err)
				}
			}
		}
	})
}
