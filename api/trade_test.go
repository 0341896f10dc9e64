package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// tradeCall maps each signing vector to the client method that must produce its body.
func tradeCall(t *testing.T, v vector) func(context.Context, *Client) (TxResponse, error) {
	d := vectorData(t, v)
	switch d := d.(type) {
	case *PlaceOrderData:
		return func(ctx context.Context, c *Client) (TxResponse, error) { return c.PlaceOrders(ctx, d.Orders) }
	case *CancelByOidData:
		return func(ctx context.Context, c *Client) (TxResponse, error) { return c.CancelByOid(ctx, d.Cancels) }
	case *CancelByCloidData:
		return func(ctx context.Context, c *Client) (TxResponse, error) { return c.CancelByCloid(ctx, d.Cancels) }
	case *CancelByInstrumentData:
		return func(ctx context.Context, c *Client) (TxResponse, error) {
			return c.CancelByInstrument(ctx, d.InstrumentID)
		}
	case *CancelAllData:
		return func(ctx context.Context, c *Client) (TxResponse, error) { return c.CancelAll(ctx) }
	case *TransferData:
		if v.TxType == TxSpotTransfer {
			return func(ctx context.Context, c *Client) (TxResponse, error) {
				return c.SpotTransfer(ctx, d.CollateralID, d.Amount, strings.ToLower(d.Destination))
			}
		}
		return func(ctx context.Context, c *Client) (TxResponse, error) {
			return c.DerivativeTransfer(ctx, d.CollateralID, d.Amount, d.Destination)
		}
	case *InternalTransferData:
		return func(ctx context.Context, c *Client) (TxResponse, error) {
			return c.InternalTransfer(ctx, d.CollateralID, d.Amount, d.ToDerivativesAccount)
		}
	case *WithdrawData:
		if v.TxType == TxSpotWithdraw {
			return func(ctx context.Context, c *Client) (TxResponse, error) {
				return c.SpotWithdraw(ctx, d.CollateralID, d.Amount, int64(d.ChainID))
			}
		}
		return func(ctx context.Context, c *Client) (TxResponse, error) {
			return c.DerivativeWithdraw(ctx, d.CollateralID, d.Amount, int64(d.ChainID))
		}
	}
	t.Fatalf("no call for %s", v.Name)
	return nil
}

// txAnswer is a spec-shaped transaction response for each tx type.
func txAnswer(tx uint16) string {
	data := `{}`
	extra := `"error":"",`
	switch tx {
	case TxPlaceOrder:
		data = `{"status":{"oid":12345}}`
	case TxCancelByOid, TxCancelByCloid:
		data, extra = `{"status":[{"success":{"success":"order cancelled"}}]}`, `"success":true,`
	case TxCancelByInstrument, TxCancelAll:
		data = `{"success":"ok","orders_cancelled":3}`
	case TxSpotWithdraw, TxDerivativeWithdraw:
		data = `{"nonce":"1769690420567"}`
	}
	return `{"tx_hash":"0xabc123","tx_type":` + itoa(tx) + `,` + extra + `"data":` + data + `,"address":"` + testAddr + `"}`
}

func TestExchangeRoundTripsReproduceVectors(t *testing.T) {
	vf := loadVectors(t)
	for _, v := range vf.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			info, _ := LookupTxType(v.TxType)
			rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, body []byte) {
				_, _ = w.Write([]byte(txAnswer(v.TxType)))
			})
			c := newTestClient(t, rec.srv.URL)
			resp, err := tradeCall(t, v)(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			path, body := rec.last()
			want := `{"action":{"type":"` + info.Name + `","data":` + v.DataJSON + `},"signature":"` + v.Signature + `","nonce":1769690420567}`
			if path != "/exchange" || body != want {
				t.Fatalf("%s body\n got %s\nwant %s", path, body, want)
			}
			req, err := DecodeSignedRequest([]byte(body), SourceMainnet)
			if err != nil || req.Signer != testAddr {
				t.Fatalf("server side check: %+v %v", req, err)
			}
			if int(resp.TxType) != int(v.TxType) || resp.TxHash != "0xabc123" || resp.Address != testAddr {
				t.Fatalf("response %+v", resp)
			}
			checkTxHelpers(t, v.TxType, resp)
		})
	}
}

func checkTxHelpers(t *testing.T, tx uint16, resp TxResponse) {
	t.Helper()
	switch tx {
	case TxPlaceOrder:
		ids, err := resp.OrderIDs()
		if err != nil || len(ids) != 1 || ids[0] != 12345 {
			t.Fatalf("OrderIDs %v %v", ids, err)
		}
	case TxCancelByOid, TxCancelByCloid:
		if n, err := resp.CancelCount(); n != 1 || err != nil {
			t.Fatalf("CancelCount %d %v", n, err)
		}
	case TxCancelByInstrument, TxCancelAll:
		if n, err := resp.CancelCount(); n != 3 || err != nil {
			t.Fatalf("CancelCount %d %v", n, err)
		}
	case TxSpotWithdraw, TxDerivativeWithdraw:
		if n, err := resp.WithdrawalNonce(); n != vecNonce || err != nil {
			t.Fatalf("WithdrawalNonce %d %v", n, err)
		}
	}
}

func TestExchangeTestnetSourceAndExpiryWindow(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { _, _ = w.Write([]byte(txAnswer(TxCancelAll))) })
	c := newTestClient(t, rec.srv.URL, WithNetwork(Testnet), WithExpiryWindow(10*time.Minute))
	if _, err := c.CancelAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CancelAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, body := rec.last()
	req, err := DecodeSignedRequest([]byte(body), SourceTestnet)
	if err != nil || req.Signer != testAddr {
		t.Fatalf("testnet signature: %+v %v", req, err)
	}
	// The frozen clock forces last+1 on the second action; expiry follows the nonce.
	if req.Nonce != vecNonce+1 || req.ExpiresAfter != vecNonce+1+600000 {
		t.Fatalf("nonce %d expires %d", req.Nonce, req.ExpiresAfter)
	}
}

func TestExchangeRejectsBadArgumentsBeforeSigning(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { _, _ = w.Write([]byte(`{}`)) })
	c := newTestClient(t, rec.srv.URL)
	ro := New(rec.srv.URL, WithAddress(testAddr))
	ctx := context.Background()
	good := OrderWire{InstrumentID: 1, Side: "b", PositionSide: "BOTH", Price: "50000.5", Size: "0.1", Tif: "GTC"}
	with := func(f func(*OrderWire)) []OrderWire { o := good; f(&o); return []OrderWire{o} }
	many := make([]OrderWire, MaxBatch+1)
	for i := range many {
		many[i] = good
	}
	calls := map[string]func() error{
		"read-only":  func() error { _, err := ro.CancelAll(ctx); return err },
		"no orders":  func() error { _, err := c.PlaceOrders(ctx, nil); return err },
		"101 orders": func() error { _, err := c.PlaceOrders(ctx, many); return err },
		"side":       func() error { _, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Side = "buy" })); return err },
		"position side": func() error {
			_, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.PositionSide = "" }))
			return err
		},
		"tif":            func() error { _, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Tif = "GTD" })); return err },
		"size zero":      func() error { _, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Size = "0" })); return err },
		"size exponent":  func() error { _, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Size = "1e-3" })); return err },
		"price negative": func() error { _, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Price = "-1" })); return err },
		"price empty":    func() error { _, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Price = "" })); return err },
		"tpsl":           func() error { _, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Tpsl = "tp" })); return err },
		"tpsl kind": func() error {
			_, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Tpsl = "x"; o.TriggerPx = "1" }))
			return err
		},
		"trigger": func() error {
			_, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.TriggerPx = "1." }))
			return err
		},
		"grouping": func() error {
			_, err := c.PlaceOrders(ctx, with(func(o *OrderWire) { o.Grouping = "oco" }))
			return err
		},
		"no cancels":  func() error { _, err := c.CancelByOid(ctx, nil); return err },
		"101 cancels": func() error { _, err := c.CancelByOid(ctx, make([]CancelOid, 101)); return err },
		"empty cloid": func() error { _, err := c.CancelByCloid(ctx, []CancelCloid{{InstrumentID: 1}}); return err },
		"instrument":  func() error { _, err := c.CancelByInstrument(ctx, -1); return err },
		"amount":      func() error { _, err := c.SpotTransfer(ctx, 1, "ten", destAddr); return err },
		"destination": func() error { _, err := c.DerivativeTransfer(ctx, 1, "10", "0x12"); return err },
		"internal":    func() error { _, err := c.InternalTransfer(ctx, -1, "10", true); return err },
		"chain":       func() error { _, err := c.SpotWithdraw(ctx, 1, "10", 0); return err },
		"withdraw":    func() error { _, err := c.DerivativeWithdraw(ctx, 1, "0", 1); return err },
	}
	for name, call := range calls {
		e, ok := AsError(call())
		if !ok || e.Kind != KindInvalid || e.Ambiguous() {
			t.Errorf("%s: %v, want a KindInvalid *Error", name, e)
		}
	}
	if rec.count() != 0 {
		t.Fatalf("%d requests sent", rec.count())
	}
	if c.signer.Nonces().Last() != 0 {
		t.Fatal("a nonce was used for a rejected request")
	}
}

func TestPlaceOrdersBatchOf100(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, body []byte) {
		req, err := DecodeSignedRequest(body, SourceMainnet)
		if err != nil || len(req.Data.(*PlaceOrderData).Orders) != MaxBatch {
			t.Errorf("batch decode: %v", err)
		}
		status := make([]map[string]any, MaxBatch)
		for i := range status {
			status[i] = map[string]any{"resting": map[string]any{"oid": i + 1}}
		}
		b, _ := json.Marshal(map[string]any{"tx_hash": "0x1", "tx_type": 1301, "error": "", "data": map[string]any{"status": status}})
		_, _ = w.Write(b)
	})
	c := newTestClient(t, rec.srv.URL)
	orders := make([]OrderWire, MaxBatch)
	for i := range orders {
		orders[i] = OrderWire{InstrumentID: 1, Side: "s", PositionSide: "BOTH", Price: "50000", Size: "0.001", Tif: "GTC", Cloid: "c" + itoa(uint16(i))}
	}
	resp, err := c.PlaceOrders(context.Background(), orders)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := resp.OrderIDs()
	if err != nil || len(ids) != MaxBatch || ids[99] != 100 {
		t.Fatalf("ids %v %v", ids, err)
	}
}
