package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// everyCall runs each Info and Trader method of c once and returns the errors, keyed by method.
func everyCall(c *Client) map[string]error {
	ctx := context.Background()
	order := []OrderWire{{InstrumentID: 1, Side: SideBuy, PositionSide: PositionSideBoth, Price: "1", Size: "1", Tif: TifGTC, Cloid: "c1"}}
	errs := map[string]error{}
	call := func(name string, f func() error) { errs[name] = f() }
	call("account_summary", func() error { _, err := c.AccountSummary(ctx, ""); return err })
	call("brokers_check", func() error { _, err := c.BrokersCheck(ctx, "", "", PageParams{}); return err })
	call("instruments", func() error { _, err := c.Instruments(ctx, ""); return err })
	call("chart", func() error {
		_, err := c.Chart(ctx, ChartParams{InstrumentID: 1, ChartType: "mark", Resolution: "1", From: 1, To: 2})
		return err
	})
	call("fills", func() error { _, err := c.Fills(ctx, "", PageParams{}); return err })
	call("order_history", func() error { _, err := c.OrderHistory(ctx, "", PageParams{}); return err })
	call("open_orders", func() error { _, err := c.OpenOrders(ctx, "", PageParams{}); return err })
	call("instrument_leverage", func() error { _, err := c.InstrumentLeverage(ctx, "", "BTC-PERP"); return err })
	call("supported_collateral", func() error { _, err := c.SupportedCollateral(ctx, ""); return err })
	call("positions", func() error { _, err := c.Positions(ctx, ""); return err })
	call("ticker", func() error { _, err := c.Ticker(ctx, ""); return err })
	call("mids", func() error { _, err := c.Mids(ctx, ""); return err })
	call("orderbook", func() error { _, err := c.OrderBook(ctx, "BTC-PERP", 0); return err })
	call("placeOrder", func() error { _, err := c.PlaceOrders(ctx, order); return err })
	call("cancelByOid", func() error { _, err := c.CancelByOid(ctx, []CancelOid{{Oid: 1, InstrumentID: 1}}); return err })
	call("cancelByCloid", func() error {
		_, err := c.CancelByCloid(ctx, []CancelCloid{{Cloid: "c1", InstrumentID: 1}})
		return err
	})
	call("cancelByInstrument", func() error { _, err := c.CancelByInstrument(ctx, 1); return err })
	call("cancelAll", func() error { _, err := c.CancelAll(ctx); return err })
	call("spotTransfer", func() error { _, err := c.SpotTransfer(ctx, 1, "1", destAddr); return err })
	call("internalTransfer", func() error { _, err := c.InternalTransfer(ctx, 1, "1", true); return err })
	call("spotWithdraw", func() error { _, err := c.SpotWithdraw(ctx, 1, "1", 1); return err })
	return errs
}

var exchangeCalls = map[string]bool{"placeOrder": true, "cancelByOid": true, "cancelByCloid": true,
	"cancelByInstrument": true, "cancelAll": true, "spotTransfer": true, "internalTransfer": true, "spotWithdraw": true}

// TestHostileAnswers: a server answering 2xx with bodies no method can use (too deep, too big,
// the wrong JSON type, fields of the wrong type) gives every method a typed *Error, never a
// panic, never a silent success. Every /exchange failure of this kind is ambiguous: the action
// may have been applied.
func TestHostileAnswers(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	deepObj := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	cases := map[string]struct {
		body  string
		kinds []ErrorKind
	}{
		"nested past the decoder's depth": {deep, []ErrorKind{KindNotJSON, KindDecode}}, // /info refuses it at 32 deep (#16)
		"nested objects":                  {deepObj, []ErrorKind{KindDecode}},
		"over the size cap":               {`["` + strings.Repeat("x", 70000) + `"]`, []ErrorKind{KindTooLarge}},
		"a string":                        {`"ok"`, []ErrorKind{KindDecode}},
		"a number":                        {`12345`, []ErrorKind{KindDecode}},
		"a boolean":                       {`true`, []ErrorKind{KindDecode}},
		"fields of the wrong type": {`{"tx_hash":5,"data":[],"page":"x","perps":5,"spot":{},"bids":"x",` +
			`"collateral":[],"leverage":{},"updated_at":{},"address":7,"success":"maybe"}`, []ErrorKind{KindDecode}},
		"records with objects for prices": {`[{"mark_price":{},"mid_price":[],"open":{},"size":{},"id":{},"time":[],"max_fee_rate":{}}]`,
			[]ErrorKind{KindDecode}},
		"truncated": {`{"data":[{"order_id":1,`, []ErrorKind{KindNotJSON}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
				_, _ = w.Write([]byte(tc.body))
			})
			c := newTestClient(t, rec.srv.URL, WithMaxBody(65536))
			for method, err := range everyCall(c) {
				e, ok := AsError(err)
				if !ok {
					t.Errorf("%s: got %v (%T), want a typed *Error", method, err, err)
					continue
				}
				if !kindIn(e.Kind, tc.kinds) {
					t.Errorf("%s: kind %v, want one of %v (%v)", method, e.Kind, tc.kinds, e)
				}
				if exchangeCalls[method] != e.Ambiguous() {
					t.Errorf("%s: ambiguous = %v: %v", method, e.Ambiguous(), e)
				}
			}
		})
	}
}

func kindIn(k ErrorKind, ks []ErrorKind) bool {
	for _, x := range ks {
		if k == x {
			return true
		}
	}
	return false
}

// TestEmptyAnswersToActions: null or {} from /exchange is not a transaction response, so the
// client does not report success; the outcome is unknown (ambiguous).
func TestEmptyAnswersToActions(t *testing.T) {
	for _, body := range []string{`null`, `{}`, `{"tx_hash":"","data":null}`} {
		rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { _, _ = w.Write([]byte(body)) })
		c := newTestClient(t, rec.srv.URL)
		_, err := c.CancelAll(context.Background())
		if e, ok := AsError(err); !ok || e.Kind != KindDecode || !e.Ambiguous() {
			t.Errorf("%s: %v, want an ambiguous decode error", body, err)
		}
	}
}

// TestTolerantTxResponse: tx_type as text, success as text or 0/1, error null: all read.
func TestTolerantTxResponse(t *testing.T) {
	for body, ok := range map[string]bool{
		`{"tx_hash":"0x1","tx_type":"1302","success":"true","data":{"status":[{"success":{"success":"ok"}}]}}`: true,
		`{"tx_hash":"0x1","tx_type":1302,"success":1,"error":null,"data":{"status":["success"]}}`:              true,
		`{"tx_hash":"0x1","tx_type":1302,"success":"false","data":{"status":[{"error":"gone"}]}}`:              false,
		`{"tx_hash":"0x1","tx_type":1302,"success":0,"data":{"status":[{"error":"gone"}]}}`:                    false,
	} {
		rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { _, _ = w.Write([]byte(body)) })
		c := newTestClient(t, rec.srv.URL)
		r, err := c.CancelByOid(context.Background(), []CancelOid{{Oid: 1, InstrumentID: 1}})
		if (err == nil) != ok || r.TxType != 1302 || r.TxHash != "0x1" {
			t.Errorf("%s: %+v %v", body, r, err)
		}
		if e, isErr := AsError(err); isErr && (e.Kind != KindServer || e.Ambiguous()) {
			t.Errorf("%s: %v, want a clear server error", body, err)
		}
	}
}

// TestTolerantNumbers: whole numbers written as floats or exponents, and float timestamps.
func TestTolerantNumbers(t *testing.T) {
	var p Page[Mid]
	if err := p.UnmarshalJSON([]byte(`{"data":[],"page":1.0,"limit":1e2,"total_count":"0","total_pages":0}`)); err != nil || p.Limit != 100 || p.Page != 1 {
		t.Fatalf("%+v %v", p, err)
	}
	var n Int
	if err := n.UnmarshalJSON([]byte(`1.5`)); err == nil {
		t.Fatal("1.5 read as an integer")
	}
	var tm Time
	if err := tm.UnmarshalJSON([]byte(`1769690400000.0`)); err != nil || !tm.Equal(time.UnixMilli(1769690400000)) {
		t.Fatalf("%v %v", tm, err)
	}
	if err := tm.UnmarshalJSON([]byte(`"NaN"`)); err == nil {
		t.Fatal("NaN read as a time")
	}
}

// TestEndlessBodyStopsAtTheCap: a server that never stops sending is cut off at the cap.
func TestEndlessBodyStopsAtTheCap(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		_, _ = w.Write([]byte(`["`))
		chunk := []byte(strings.Repeat("x", 4096))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	// Cut off at the cap (KindTooLarge), not by the timeout, which is far away (it would be a
	// KindTimeout).
	c := newTestClient(t, rec.srv.URL, WithMaxBody(1<<16), WithTimeout(time.Minute))
	_, err := c.Mids(context.Background(), "")
	if e, ok := AsError(err); !ok || e.Kind != KindTooLarge {
		t.Fatalf("%v, want the body refused at the cap", err)
	}
}
