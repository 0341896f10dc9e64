package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// FuzzHandlers mutates valid requests, signed /exchange bodies of every action and /info queries,
// and sends them through the HTTP handler: no panic, never a 5xx, and every refusal is
// {"error": "..."} with a message of bounded length. Issue #21's fuzz test.
func FuzzHandlers(f *testing.F) {
	n := uint64(testStart.UnixMilli()) + 1
	exp := n + 60000
	w := limit(1, api.SideBuy, "97000", "0.1")
	w.Cloid = "0f8fad5b-d9cb-469f-a165-70867728950e"
	mkt := limit(1, api.SideSell, "92000", "0.01")
	mkt.IsMarket, mkt.Tif = true, api.TifIOC
	trig := limit(1, api.SideSell, "90000", "0.1")
	trig.TriggerPx, trig.Tpsl, trig.ReduceOnly = "90000", api.TpslStopLoss, true
	bodies := []struct {
		action string
		data   api.ActionData
	}{
		{api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{w, mkt, trig}, ExpiresAfter: exp, Nonce: n}},
		{api.ActionCancelByOid, &api.CancelByOidData{Cancels: []api.CancelOid{{Oid: 1000001, InstrumentID: 1}}, ExpiresAfter: exp, Nonce: n + 1}},
		{api.ActionCancelByCloid, &api.CancelByCloidData{Cancels: []api.CancelCloid{{Cloid: w.Cloid, InstrumentID: 1}}, ExpiresAfter: exp, Nonce: n + 2}},
		{api.ActionCancelByInstrument, &api.CancelByInstrumentData{InstrumentID: 1, ExpiresAfter: exp, Nonce: n + 3}},
		{api.ActionCancelAll, &api.CancelAllData{ExpiresAfter: exp, Nonce: n + 4}},
		{api.ActionSpotTransfer, &api.TransferData{CollateralID: 1, Amount: "12.5", Destination: "0x7D2b6a4b38BfE8f3bF4A1ec0F2a3E5dA1c9B4e10", Nonce: n + 5}},
		{api.ActionDerivativeTransfer, &api.TransferData{CollateralID: 1, Amount: "1", Destination: "0x7D2b6a4b38BfE8f3bF4A1ec0F2a3E5dA1c9B4e10", Nonce: n + 6}},
		{api.ActionInternalTransfer, &api.InternalTransferData{CollateralID: 1, Amount: "3", ToDerivativesAccount: true, Nonce: n + 7}},
		{api.ActionSpotWithdraw, &api.WithdrawData{CollateralID: 1, Amount: "10", ChainID: 42161, Nonce: n + 8}},
		{api.ActionDerivativeWithdraw, &api.WithdrawData{CollateralID: 1, Amount: "10", ChainID: 1, Nonce: n + 9}},
	}
	for _, b := range bodies {
		f.Add("/exchange", signed(f, "fuzz", b.action, b.data))
	}
	for _, q := range []string{
		`{"method":"order_history","params":{"user":"0x7D2b6a4b38BfE8f3bF4A1ec0F2a3E5dA1c9B4e10","page":2,"limit":1000}}`,
		`{"method":"open_orders","params":{"user":"0x7D2b6a4b38BfE8f3bF4A1ec0F2a3E5dA1c9B4e10","page":1}}`,
		`{"method":"fills","params":{"user":"0x7D2b6a4b38BfE8f3bF4A1ec0F2a3E5dA1c9B4e10","page":1,"limit":5}}`,
		`{"method":"chart","params":{"symbol":"1","chart_type":"mark","resolution":"15","from":1769000000,"to":1769690400}}`,
		`{"method":"orderbook","params":{"symbol":"BTC-PERP","depth":5}}`,
		`{"method":"account_summary","params":{"user":"0x7D2b6a4b38BfE8f3bF4A1ec0F2a3E5dA1c9B4e10"}}`,
	} {
		f.Add("/info", []byte(q))
	}
	s := New(WithSeed(3), WithClock(NewTestClock(testStart)), WithQuietMarkets())
	if err := s.Fund(signer(f, "fuzz").Address(), dec("100000")); err != nil { // so signed bodies reach the engine
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		if path != "/info" {
			path = "/exchange"
		}
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 || rec.Code < 200 {
			t.Fatalf("status %d for %s %q: %s", rec.Code, path, body, rec.Body.Bytes())
		}
		if rec.Code < 400 {
			return
		}
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || len(e.Error) < 10 || len(e.Error) > 2*maxErrorLen {
			t.Fatalf("status %d for %s %q without a clear, short error: %.300s", rec.Code, path, body, rec.Body.Bytes())
		}
	})
}
