package sim

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// Every order the exchange must refuse, with the reason it gives. The orders go out raw (signed
// but unchecked), since the api client refuses some of them before sending.
func TestOrderRejections(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	e.open("alice")
	mod := func(f func(w *api.OrderWire)) api.OrderWire {
		w := limit(1, api.SideBuy, "97000", "0.1")
		f(&w)
		return w
	}
	cases := []struct {
		name string
		w    api.OrderWire
		want string
	}{
		{"tick", mod(func(w *api.OrderWire) { w.Price = "97000.05" }), "price 97000.05 is not a multiple of 0.1 (tick size of BTC-PERP)"},
		{"lot", mod(func(w *api.OrderWire) { w.Size = "0.00005" }), "size 0.00005 is not a multiple of 0.0001 (lot size of BTC-PERP)"},
		{"min notional", mod(func(w *api.OrderWire) { w.Size = "0.0001" }), "order value 9.70 USDC is below BTC-PERP's minimum of 10"},
		{"leverage tier", mod(func(w *api.OrderWire) { w.Size = "110" }), "where the most leverage allowed is 5x and yours is 10x"},
		{"margin", mod(func(w *api.OrderWire) { w.Size = "20" }), "insufficient margin: this order needs 195278.00 USDC of initial margin and fees, 100000.00 USDC is available"},
		{"unknown instrument", mod(func(w *api.OrderWire) { w.InstrumentID = 999 }), "unknown instrument id 999"},
		{"delisted", mod(func(w *api.OrderWire) { w.InstrumentID, w.Price, w.Size = 6, "0.42", "100" }), "LUNA-PERP is delisted"},
		{"side", mod(func(w *api.OrderWire) { w.Side = "x" }), `side "x" is not valid`},
		{"tif", mod(func(w *api.OrderWire) { w.Tif = "GTD" }), `tif "GTD" is not valid: use GTC, IOC or FOK`},
		{"hedge", mod(func(w *api.OrderWire) { w.PositionSide = "LONG" }), "needs hedge mode"},
		{"band", mod(func(w *api.OrderWire) { w.Price = "10000" }), "outside BTC-PERP's allowed band 48625 to 145875"},
		{"bad price", mod(func(w *api.OrderWire) { w.Price = "abc" }), `price "abc" is not a decimal number`},
		{"zero size", mod(func(w *api.OrderWire) { w.Size = "0" }), "size 0 must be above zero"},
		{"tpsl without trigger", mod(func(w *api.OrderWire) { w.Tpsl = "tp" }), `tpsl "tp" needs a triggerPx`},
		{"bad tpsl", mod(func(w *api.OrderWire) { w.Tpsl, w.TriggerPx = "xx", "96000" }), `tpsl "xx" is not valid`},
		{"bad grouping", mod(func(w *api.OrderWire) { w.Grouping = "oco" }), `grouping "oco" is not valid`},
		{"spot reduce-only", mod(func(w *api.OrderWire) { w.InstrumentID, w.Price, w.Size, w.ReduceOnly = 101, "3400", "1", true }), "ETH/USDC is a spot pair"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := e.nowMs() + uint64(i)
			body := signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{c.w}, ExpiresAfter: n + 60000, Nonce: n})
			code, out := e.post(t, "/exchange", body)
			msg, _ := out["error"].(string)
			if code != 400 || !strings.Contains(msg, c.want) {
				t.Errorf("got %d %q, want 400 with %q", code, msg, c.want)
			}
		})
	}
}

// One bad order in a batch: the rest are placed and the bad one's status says why.
func TestBatchPartialRejection(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	r := place(t, alice, limit(1, api.SideBuy, "97000", "0.1"), limit(1, api.SideBuy, "97000.05", "0.1"))
	sts, err := r.OrderStatuses()
	if err != nil || len(sts) != 2 {
		t.Fatalf("statuses %+v %v", sts, err)
	}
	if sts[0].Oid == 0 || sts[1].Oid != 0 || !strings.Contains(sts[1].Error, "order 2: price 97000.05") {
		t.Errorf("statuses %+v", sts)
	}
}

// envelope builds a signed body and lets a test tamper with it.
func envelope(t *testing.T, name string, data api.ActionData, action string, tamper func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(signed(t, name, action, data), &m); err != nil {
		t.Fatal(err)
	}
	if tamper != nil {
		tamper(m)
	}
	b, _ := json.Marshal(m)
	return b
}

func TestAuthRejections(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	e.open("alice", "bob")
	now := e.nowMs()
	cancelAll := func(nonce, exp uint64) *api.CancelAllData { return &api.CancelAllData{ExpiresAfter: exp, Nonce: nonce} }
	many := make([]api.OrderWire, 101)
	for i := range many {
		many[i] = limit(1, api.SideBuy, "97000", "0.1")
	}
	cases := []struct {
		name   string
		body   []byte
		status int
		want   string
	}{
		{"missing signature", envelope(t, "alice", cancelAll(now+1, now+60000), "cancelAll", func(m map[string]any) { delete(m, "signature") }), 401, "signature: missing"},
		{"bad signature", envelope(t, "alice", cancelAll(now+2, now+60000), "cancelAll", func(m map[string]any) { m["signature"] = "0x1234" }), 401, "signature"},
		{"nonce mismatch", envelope(t, "alice", cancelAll(now+3, now+60000), "cancelAll", func(m map[string]any) { m["nonce"] = now + 4 }), 400, "differs from action.data.nonce"},
		{"nonce too old", envelope(t, "alice", cancelAll(now-3*86400000, now+60000), "cancelAll", nil), 401, "outside the accepted window"},
		{"nonce too new", envelope(t, "alice", cancelAll(now+2*86400000, now+3*86400000), "cancelAll", nil), 401, "outside the accepted window"},
		{"expired", envelope(t, "alice", cancelAll(now+5, now-1), "cancelAll", nil), 400, "request expired"},
		{"too many orders", envelope(t, "alice", &api.PlaceOrderData{Orders: many, ExpiresAfter: now + 60000, Nonce: now + 6}, "placeOrder", nil), 400, "carries 101 orders or cancels: send at most 100"},
		{"unknown type", envelope(t, "alice", cancelAll(now+7, now+60000), "cancelAll", func(m map[string]any) { m["action"].(map[string]any)["type"] = "frobnicate" }), 400, `unknown action "frobnicate"`},
		{"not JSON", []byte("{nope"), 400, "not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := e.post(t, "/exchange", c.body)
			msg, _ := out["error"].(string)
			if code != c.status || !strings.Contains(msg, c.want) {
				t.Errorf("got %d %q, want %d with %q", code, msg, c.status, c.want)
			}
		})
	}

	t.Run("reuse", func(t *testing.T) {
		body := envelope(t, "alice", cancelAll(now+10, now+60000), "cancelAll", nil)
		if code, out := e.post(t, "/exchange", body); code != 200 {
			t.Fatalf("first use: %d %v", code, out)
		}
		code, out := e.post(t, "/exchange", body)
		if msg, _ := out["error"].(string); code != 401 || !strings.Contains(msg, "already used by this signer") {
			t.Errorf("reuse: %d %q", code, msg)
		}
		// Another signer may use the same nonce.
		if code, out := e.post(t, "/exchange", envelope(t, "bob", cancelAll(now+10, now+60000), "cancelAll", nil)); code != 200 {
			t.Errorf("other signer: %d %v", code, out)
		}
	})
	t.Run("numeric type", func(t *testing.T) {
		body := envelope(t, "alice", cancelAll(now+11, now+60000), "cancelAll", func(m map[string]any) { m["action"].(map[string]any)["type"] = "1311" })
		if code, out := e.post(t, "/exchange", body); code != 200 || out["tx_type"] != float64(1311) {
			t.Errorf("numeric type: %d %v", code, out)
		}
	})
	t.Run("tampered data is someone else's", func(t *testing.T) {
		body := envelope(t, "alice", &api.CancelByInstrumentData{InstrumentID: 1, ExpiresAfter: now + 60000, Nonce: now + 12}, "cancelByInstrument",
			func(m map[string]any) { m["action"].(map[string]any)["data"].(map[string]any)["instrumentId"] = 2 })
		_, out := e.post(t, "/exchange", body)
		if out["address"] == signer(t, "alice").Address() {
			t.Errorf("tampered request attributed to alice: %v", out)
		}
	})
}
