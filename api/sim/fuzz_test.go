package sim

import (
	"encoding/json"
	"testing"
)

// FuzzInfo feeds arbitrary /info bodies: the simulator answers every one with JSON (a result or
// {"error"}), a 2xx or 4xx status, and never panics.
func FuzzInfo(f *testing.F) {
	for _, s := range []string{
		`{"method":"ticker","params":{"symbol":"all"}}`,
		`{"method":"chart","params":{"symbol":"1","chart_type":"mark","resolution":"1W","from":1,"to":99999999999999}}`,
		`{"method":"chart","params":{"instrument_id":"2","chart_type":"ltp","resolution":"5","from":-5,"to":0}}`,
		`{"method":"fills","params":{"user":"0x0000000000000000000000000000000000000001","page":"2","limit":1}}`,
		`{"method":"orderbook","params":{"symbol":101,"depth":1000}}`,
		`{"method":"brokers_check","params":{"user":"0x0000000000000000000000000000000000000001","broker":"zz"}}`,
		`{"method":"account_summary","params":null}`,
		`{"method":"instrument_leverage","params":{"user":"0x0000000000000000000000000000000000000001","symbol":"hype-perp"}}`,
		`{"method":"orderHistory","params":{"user":"0x0000000000000000000000000000000000000001","instrumentId":"1","limit":null}}`,
		`{"method":"transferHistory","params":{"user":"0x0000000000000000000000000000000000000001","limit":5}}`,
		`{"method":"accountHistory","params":{"user":"0x0000000000000000000000000000000000000001"}}`,
		`{"method":"userFees","params":{"user":"0x0000000000000000000000000000000000000001"}}`,
		`{"method":"accountInfo","params":{"user":"0x0000000000000000000000000000000000000001","collateralID":1,"includeHistory":true}}`,
		`{"method":"oracle","params":{"symbol":"BTC"}}`, `{"method":"bbo","params":{"symbol":"all"}}`,
		`{"method":"vaultBalance","params":{"vaultAddress":"0x0000000000000000000000000000000000000002","user":null}}`,
		`{}`, `null`, `[]`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	s := New(WithSeed(3), WithClock(NewTestClock(testStart)), WithQuietMarkets())
	f.Fuzz(func(t *testing.T, body []byte) {
		code, out := s.info(body)
		if code >= 500 || code < 200 {
			t.Fatalf("status %d for %q", code, body)
		}
		checkAnswer(t, body, code, out)
		if n := len(s.eng.users); n != 0 {
			t.Fatalf("a query opened %d accounts", n)
		}
	})
}

// FuzzExchange feeds arbitrary /exchange bodies: a clear 4xx, never a panic.
func FuzzExchange(f *testing.F) {
	for _, s := range []string{
		`{"action":{"type":"placeOrder","data":{"orders":[],"expiresAfter":1,"nonce":1}},"signature":"0x00","nonce":1}`,
		`{"action":{"type":"1311","data":{"nonce":1769690400001}},"signature":"0x` + "11" + `","nonce":1769690400001}`,
		`{"action":{"type":"nope"}}`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	s := New(WithSeed(3), WithClock(NewTestClock(testStart)), WithQuietMarkets())
	f.Fuzz(func(t *testing.T, body []byte) {
		code, out := s.exchange(body)
		if code >= 500 || code < 200 {
			t.Fatalf("status %d for %q", code, body)
		}
		checkAnswer(t, body, code, out)
	})
}

// checkAnswer: an answer encodes as JSON, and a 4xx answer is {"error": "..."} with a message.
func checkAnswer(t *testing.T, body []byte, code int, out any) {
	t.Helper()
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatalf("unencodable answer for %q: %v", body, err)
	}
	if code < 400 {
		return
	}
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(b, &e) != nil || len(e.Error) < 10 {
		t.Fatalf("status %d for %q without a clear error: %s", code, body, b)
	}
}
