package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func decodeInto[T any]() func([]byte) (any, error) {
	return func(b []byte) (any, error) {
		var v T
		err := json.Unmarshal(b, &v)
		return v, err
	}
}

type recordCase struct {
	name     string
	file     string
	decode   func([]byte) (any, error)
	tolerant [][2]string // replacements that must still decode
	strict   [][2]string // replacements that must fail
	check    func(*testing.T, any)
}

func recordCases() []recordCase {
	return []recordCase{
		{name: "account summary", file: "account_summary.json", decode: decodeInto[AccountSummary](),
			tolerant: [][2]string{{`"upnl":100.02,"total`, `"upnl":"100.02","total`}, {`"staked_collateral":0,`, ``}, {`"hedge_mode":false,`, ``}},
			strict:   [][2]string{{`"upnl":100.02,"total`, `"upnl":"1o0","total`}, {`"balance":10250.5`, `"balance":true`}},
			check: func(t *testing.T, v any) {
				if a := v.(AccountSummary); !a.Upnl.Equal(dec("100.02")) {
					t.Fatalf("upnl %s", a.Upnl)
				}
			}},
		{name: "broker approvals", file: "brokers_check.json", decode: decodeInto[Page[BrokerApproval]](),
			tolerant: [][2]string{{`"updated_at":1769690420`, `"updated_at":"1769690420"`}, {`"max_fee_rate":"0.001"`, `"max_fee_rate":0.001`}, {`"page":2`, `"page":"2"`}},
			strict:   [][2]string{{`"max_fee_rate":"0.001"`, `"max_fee_rate":"0.1%"`}, {`"page":2`, `"page":"two"`}}},
		{name: "instruments", file: "instruments.json", decode: decodeInto[Instruments](),
			tolerant: [][2]string{{`"tick_size":0.5`, `"tick_size":"0.5"`}, {`"id":1,`, `"id":"1",`}, {`"delisted":false,`, ``}},
			strict:   [][2]string{{`"tick_size":0.5`, `"tick_size":"half"`}, {`"id":1,`, `"id":1.5,`}}},
		{name: "candles", file: "chart.json", decode: decodeInto[[]Candle](),
			tolerant: [][2]string{{`"open":50000.5`, `"open":"50000.5"`}, {`"time":1769688000000`, `"time":1769688000`}},
			strict:   [][2]string{{`"close":50050.25`, `"close":"NaN"`}, {`"time":1769688000000`, `"time":"yesterday"`}},
			check: func(t *testing.T, v any) {
				if c := v.([]Candle); !c[0].Time.Equal(time.UnixMilli(1769688000000)) {
					t.Fatalf("time %v", c[0].Time)
				}
			}},
		{name: "fills", file: "fills.json", decode: decodeInto[Page[Fill]](),
			tolerant: [][2]string{{`"trade_id":184467440737095516`, `"trade_id":"184467440737095516"`}, {`"fee":"-0.15"`, `"fee":-0.15`}, {`"broker_fee":"0",`, ``}},
			strict:   [][2]string{{`"price":"50000.5"`, `"price":"50000.5.1"`}, {`"block_timestamp":"2026-01-29T12:40:21.123Z"`, `"block_timestamp":"29/01/2026"`}}},
		{name: "order history", file: "order_history.json", decode: decodeInto[Page[OrderRecord]](),
			tolerant: [][2]string{{`"trigger_px":"",`, ``}, {`"trigger_px":"2900"`, `"trigger_px":null`}, {`"size":"0.1"`, `"size":0.1`}},
			strict:   [][2]string{{`"limit_price":"50000.5"`, `"limit_price":"50,000.5"`}, {`"unfilled":"0.04"`, `"unfilled":""`}, {`"trigger_px":"2900"`, `"trigger_px":"high"`}},
			check: func(t *testing.T, v any) {
				if p := v.(Page[OrderRecord]); len(p.Data) != 2 {
					t.Fatalf("%d records", len(p.Data))
				}
			}},
		{name: "leverage", file: "instrument_leverage.json", decode: decodeInto[InstrumentLeverage](),
			tolerant: [][2]string{{`"leverage":"10"`, `"leverage":10`}, {`"instrument_id":1`, `"instrument_id":"1"`}},
			strict:   [][2]string{{`"leverage":"10"`, `"leverage":"10x"`}}},
		{name: "collateral", file: "supported_collateral.json", decode: decodeInto[[]Collateral](),
			tolerant: [][2]string{{`"decimals":6`, `"decimals":"6"`}, {`"withdrawal_fee":1`, `"withdrawal_fee":"1"`}, {`"added_at_block":12`, `"added_at_block":null`}},
			strict:   [][2]string{{`"weight":0.95`, `"weight":"high"`}, {`"decimals":6`, `"decimals":"six"`}}},
		{name: "positions", file: "positions.json", decode: decodeInto[[]Position](),
			tolerant: [][2]string{{`"size":"-1.5"`, `"size":-1.5`}, {`"updated_at":1769690420`, `"updated_at":"2026-01-29T12:40:20Z"`}},
			strict:   [][2]string{{`"entry_price":"3010.25"`, `"entry_price":"3010,25"`}}},
		{name: "tickers", file: "ticker.json", decode: decodeInto[[]Ticker](),
			tolerant: [][2]string{{`"mark_price":"50010.1"`, `"mark_price":50010.1`}, {`"last_updated":1769690420567`, `"last_updated":"1769690420567"`}},
			strict:   [][2]string{{`"mark_price":"50010.1"`, `"mark_price":"-"`}}},
		{name: "mids", file: "mids.json", decode: decodeInto[[]Mid](),
			tolerant: [][2]string{{`"mid_price":"50010"`, `"mid_price":50010`}},
			strict:   [][2]string{{`"mid_price":"50010"`, `"mid_price":"5e"`}}},
		{name: "order book", file: "orderbook.json", decode: decodeInto[OrderBook](),
			tolerant: [][2]string{{`{"price":"50009","size":"3"}`, `["50009","3"]`}, {`"timestamp":1769690420567`, `"timestamp":"2026-01-29T12:40:20.567Z"`}},
			strict:   [][2]string{{`["50011","2.5"]`, `["50011"]`}, {`["50011","2.5"]`, `["x","2.5"]`}}},
	}
}

func TestRecordDecoding(t *testing.T) {
	for _, rc := range recordCases() {
		t.Run(rc.name, func(t *testing.T) {
			good := string(readTestdata(t, "info/"+rc.file))
			v, err := rc.decode([]byte(good))
			if err != nil {
				t.Fatalf("realistic JSON: %v", err)
			}
			if rc.check != nil {
				rc.check(t, v)
			}
			for _, r := range rc.tolerant {
				mustReplace(t, good, r)
				if _, err := rc.decode([]byte(strings.Replace(good, r[0], r[1], 1))); err != nil {
					t.Errorf("tolerant %s -> %s: %v", r[0], r[1], err)
				}
			}
			for _, r := range rc.strict {
				mustReplace(t, good, r)
				if _, err := rc.decode([]byte(strings.Replace(good, r[0], r[1], 1))); err == nil {
					t.Errorf("strict %s -> %s: accepted", r[0], r[1])
				}
			}
		})
	}
}

func mustReplace(t *testing.T, s string, r [2]string) {
	t.Helper()
	if !strings.Contains(s, r[0]) {
		t.Fatalf("fixture has no %s", r[0])
	}
}

func TestPageFromBareArray(t *testing.T) {
	var p Page[Mid]
	if err := json.Unmarshal([]byte(`[{"symbol":"A","mid_price":"1"}]`), &p); err != nil || p.TotalCount != 1 || p.HasNext || p.Page != 1 {
		t.Fatalf("%+v %v", p, err)
	}
	if err := json.Unmarshal([]byte(`null`), &p); err != nil {
		t.Fatal(err)
	}
}
