package sim

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/big"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// snapshot renders everything a refused request must leave alone: every account's balances,
// positions and open orders, every book, and the order and trade counters.
func snapshot(s *Sim) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	var b strings.Builder
	fmt.Fprintf(&b, "accounts %d next oid %d next trade %d\n", len(e.accounts), e.nextOid, e.nextTid)
	addrs := make([]string, 0, len(e.accounts))
	for a := range e.accounts {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	for _, addr := range addrs {
		a := e.accounts[addr]
		fmt.Fprintf(&b, "%s spot %v deriv %v\n", addr, a.spot, a.deriv)
		for id, p := range a.pos {
			fmt.Fprintf(&b, "  pos %d %d %s %s\n", id, p.size, p.cost, p.isoMargin)
		}
		open := a.openOrders()
		for _, o := range open {
			fmt.Fprintf(&b, "  open %d %s %d %d %d\n", o.oid, o.cloid, o.price, o.rest, o.trigger)
		}
	}
	for _, m := range e.markets {
		fmt.Fprintf(&b, "%s %v %v %d\n", m.name, m.book.depth(true, 50), m.book.depth(false, 50), len(m.triggers))
	}
	return b.String()
}

// strictCase is one request with exactly one thing wrong.
type strictCase struct {
	name   string
	path   string // "/exchange" (default) or "/info"
	body   func(n uint64) []byte
	status int
	want   string
}

// mutateSig rewrites a signed body's signature.
func mutateSig(t *testing.T, body []byte, f func(sig []byte)) []byte {
	t.Helper()
	i := bytes.Index(body, []byte(`"signature":"0x`))
	if i < 0 {
		t.Fatalf("no signature in %s", body)
	}
	start := i + len(`"signature":"0x`)
	sig, err := hex.DecodeString(string(body[start : start+130]))
	if err != nil {
		t.Fatal(err)
	}
	f(sig)
	out := append([]byte(nil), body...)
	copy(out[start:], hex.EncodeToString(sig))
	return out
}

// highS turns a signature into its malleable twin: s → n − s, v flipped. It still recovers the
// same signer.
func highS(sig []byte) {
	n := secp.Order()
	s := new(big.Int).Sub(n, new(big.Int).SetBytes(sig[32:64]))
	s.FillBytes(sig[32:64])
	sig[64] = 27 + 28 - sig[64]
}

// Issue #21: a table of requests, each correctly signed (or, where the flaw is outside the signed
// data, signed and then altered) with exactly one defect. Each is refused with its status and a
// message that names the field and the fix, and nothing changes: no account, order or book.
func TestStrictRefusals(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	open := place(t, alice, limit(1, api.SideBuy, "97000", "0.1")) // a book and an account to leave alone
	openOid := oid(t, open)
	openCloid := "0f8fad5b-d9cb-469f-a165-70867728950e"
	w := limit(1, api.SideBuy, "96000", "0.1")
	w.Cloid = openCloid
	place(t, alice, w)
	order := func(f func(w *api.OrderWire)) func(n uint64) []byte {
		return func(n uint64) []byte {
			w := limit(1, api.SideBuy, "97000", "0.1")
			f(&w)
			return signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{w}, ExpiresAfter: n + 60000, Nonce: n})
		}
	}
	market := func(side, bound string) func(n uint64) []byte {
		return order(func(w *api.OrderWire) { w.Side, w.Price, w.IsMarket, w.Tif = side, bound, true, api.TifIOC })
	}
	orderData := func(n uint64, exp uint64) *api.PlaceOrderData {
		return &api.PlaceOrderData{Orders: []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")}, ExpiresAfter: exp, Nonce: n}
	}
	transfer := func(dest string) func(n uint64) []byte {
		return func(n uint64) []byte {
			return signed(t, "alice", api.ActionDerivativeTransfer, &api.TransferData{CollateralID: 1, Amount: "1", Destination: dest, Nonce: n})
		}
	}
	withdraw := func(amount string) func(n uint64) []byte {
		return func(n uint64) []byte {
			return signed(t, "alice", api.ActionSpotWithdraw, &api.WithdrawData{CollateralID: 1, Amount: amount, ChainID: 1, Nonce: n})
		}
	}
	altered := func(base func(n uint64) []byte, old, new string) func(n uint64) []byte {
		return func(n uint64) []byte {
			b := base(n)
			if !bytes.Contains(b, []byte(old)) {
				t.Fatalf("%q not in %s", old, b)
			}
			return bytes.Replace(b, []byte(old), []byte(new), 1)
		}
	}
	plain := order(func(*api.OrderWire) {})
	huge := "97000." + strings.Repeat("0", 990000)
	cases := []strictCase{
		// 1. market bounds that would wrap when made into ticks
		{name: "market sell bound 2^64+1 ticks", body: market(api.SideSell, "1844674407370955161.7"), status: 400,
			want: "market order price bound 1844674407370955161.7 is outside BTC-PERP's allowed band 48625 to 145875"},
		{name: "market buy bound 10^25", body: market(api.SideBuy, "10000000000000000000000000"), status: 400,
			want: "is outside BTC-PERP's allowed band"},
		{name: "market buy bound 1e25", body: market(api.SideBuy, "1e25"), status: 400, want: `price "1e25" is not a decimal number in plain form`},
		{name: "market buy bound 1e400", body: market(api.SideBuy, "1e400"), status: 400, want: `price "1e400" is not a decimal number in plain form`},
		// 2. pages that overflow page × limit
		{name: "order_history page 2^62", path: "/info", status: 400, want: "params.page 4611686018427387904: want 1 to 1000000",
			body: func(uint64) []byte {
				return []byte(`{"method":"order_history","params":{"user":"` + alice.Address() + `","page":4611686018427387904}}`)
			}},
		{name: "open_orders page 2^62+1", path: "/info", status: 400, want: "params.page 4611686018427387905: want 1 to 1000000",
			body: func(uint64) []byte {
				return []byte(`{"method":"open_orders","params":{"user":"` + alice.Address() + `","page":4611686018427387905,"limit":1000}}`)
			}},
		{name: "chart from -2^63", path: "/info", status: 400, want: "params.from -9223372036854775808: want Unix seconds or milliseconds",
			body: func(uint64) []byte {
				return []byte(`{"method":"chart","params":{"symbol":"1","chart_type":"mark","resolution":"1","from":-9223372036854775808,"to":0}}`)
			}},
		{name: "info user twice", path: "/info", status: 400, want: `body.params has the key "user" twice`,
			body: func(uint64) []byte {
				return []byte(`{"method":"open_orders","params":{"user":"` + alice.Address() + `","user":"` + bob.Address() + `"}}`)
			}},
		// 3. duplicate cloids
		{name: "cloid of an open order", body: order(func(w *api.OrderWire) { w.Cloid = openCloid }), status: 400,
			want: `cloid "` + openCloid + `" is already used by open order`},
		{name: "cloid twice in one request", status: 400, want: "is used by orders 1 and 2 of this request",
			body: func(n uint64) []byte {
				a, b := limit(1, api.SideBuy, "95000", "0.1"), limit(1, api.SideBuy, "95100", "0.1")
				a.Cloid, b.Cloid = "c-1", "c-1"
				return signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{a, b}, ExpiresAfter: n + 60000, Nonce: n})
			}},
		// 4. destinations
		{name: "transfer to the zero address", body: transfer("0x0000000000000000000000000000000000000000"), status: 400,
			want: "destination is the zero address: collateral sent there is lost"},
		{name: "transfer to a bad checksum", body: transfer(strings.Replace(bob.Address(), "0x", "0X", 1)[:2] + flipCase(bob.Address()[2:])),
			status: 400, want: "has a bad EIP-55 checksum: check it for typos"},
		// 5. expiry
		{name: "placeOrder without expiresAfter", status: 400, want: "action.data.expiresAfter is missing",
			body: func(n uint64) []byte { return signed(t, "alice", api.ActionPlaceOrder, orderData(n, 0)) }},
		{name: "cancelByOid without expiresAfter", status: 400, want: "action.data.expiresAfter is missing",
			body: func(n uint64) []byte {
				return signed(t, "alice", api.ActionCancelByOid, &api.CancelByOidData{Cancels: []api.CancelOid{{Oid: openOid, InstrumentID: 1}}, Nonce: n})
			}},
		{name: "cancelByCloid without expiresAfter", status: 400, want: "action.data.expiresAfter is missing",
			body: func(n uint64) []byte {
				return signed(t, "alice", api.ActionCancelByCloid, &api.CancelByCloidData{Cancels: []api.CancelCloid{{Cloid: openCloid, InstrumentID: 1}}, Nonce: n})
			}},
		{name: "cancelByInstrument without expiresAfter", status: 400, want: "action.data.expiresAfter is missing",
			body: func(n uint64) []byte {
				return signed(t, "alice", api.ActionCancelByInstrument, &api.CancelByInstrumentData{InstrumentID: 1, Nonce: n})
			}},
		{name: "cancelAll without expiresAfter", status: 400, want: "action.data.expiresAfter is missing",
			body: func(n uint64) []byte { return signed(t, "alice", api.ActionCancelAll, &api.CancelAllData{Nonce: n}) }},
		{name: "expiry already past", status: 400, want: "request expired: expiresAfter",
			body: func(n uint64) []byte { return signed(t, "alice", api.ActionPlaceOrder, orderData(n, n-3600000)) }},
		{name: "expiry a day and 1 ms after the nonce", status: 400, want: "is more than a day after the nonce",
			body: func(n uint64) []byte { return signed(t, "alice", api.ActionPlaceOrder, orderData(n, n+86400001)) }},
		{name: "expiry in 2100", status: 400, want: "is more than a day after the nonce",
			body: func(n uint64) []byte { return signed(t, "alice", api.ActionPlaceOrder, orderData(n, 4102444800000)) }},
		{name: "expiry before the nonce", status: 400, want: "is not after the nonce",
			body: func(n uint64) []byte { return signed(t, "alice", api.ActionPlaceOrder, orderData(n, n-1)) }},
		// 6. loose values
		{name: "size 1e-3", body: order(func(w *api.OrderWire) { w.Size = "1e-3" }), status: 400, want: `size "1e-3" is not a decimal number in plain form`},
		{name: "size +0.001", body: order(func(w *api.OrderWire) { w.Size = "+0.001" }), status: 400, want: `size "+0.001" is not a decimal number`},
		{name: "size with spaces", body: order(func(w *api.OrderWire) { w.Size = " 0.001 " }), status: 400, want: `size " 0.001 " is not a decimal number`},
		{name: "size .001", body: order(func(w *api.OrderWire) { w.Size = ".001" }), status: 400, want: `size ".001" is not a decimal number`},
		{name: "price 9e4", body: order(func(w *api.OrderWire) { w.Price = "9e4" }), status: 400, want: `price "9e4" is not a decimal number`},
		{name: "amount 1e2", body: withdraw("1e2"), status: 400, want: `amount "1e2" is not a decimal number`},
		{name: "side buy", body: order(func(w *api.OrderWire) { w.Side = "buy" }), status: 400, want: `side "buy" is not valid: use "b" (buy) or "s" (sell)`},
		{name: "side B", body: order(func(w *api.OrderWire) { w.Side = "B" }), status: 400, want: `side "B" is not valid`},
		{name: "tif gtc", body: order(func(w *api.OrderWire) { w.Tif = "gtc" }), status: 400, want: `tif "gtc" is not valid: use GTC, IOC or FOK, in capitals`},
		{name: "positionSide empty", body: order(func(w *api.OrderWire) { w.PositionSide = "" }), status: 400, want: `positionSide "" is not valid: send BOTH`},
		{name: "positionSide both", body: order(func(w *api.OrderWire) { w.PositionSide = "both" }), status: 400, want: `positionSide "both" is not valid`},
		{name: "top-level nonce as a string", status: 400, want: "nonce is a string: send a JSON integer, without quotes",
			body: func(n uint64) []byte {
				return altered(plain, fmt.Sprintf(`"nonce":%d}`, n), fmt.Sprintf(`"nonce":"%d"}`, n))(n)
			}},
		{name: "unknown key in action.data", status: 400, want: `action.data has the key "vault", which this action does not take`,
			body: func(n uint64) []byte {
				return altered(plain, `"expiresAfter"`, `"vault":"0x01","expiresAfter"`)(n)
			}},
		{name: "unknown key in an order", body: altered(plain, `"ro":false`, `"ro":false,"leverage":50`), status: 400,
			want: `order 1: action.data.orders[0] has the key "leverage", which is not part of it`},
		{name: "a key twice", body: altered(plain, `"size":"0.1"`, `"size":"0.1","size":"50"`), status: 400,
			want: `has the key "size" twice: send each key once`},
		// 7. non-canonical signatures (each still recovers alice)
		{name: "high-s signature", status: 401, want: "s is above n/2 (a high-s signature)",
			body: func(n uint64) []byte { return mutateSig(t, plain(n), highS) }},
		{name: "v = 0", status: 401, want: "send 27 or 28 (add 27 to a 0/1 recovery id)",
			body: func(n uint64) []byte { return mutateSig(t, plain(n), func(s []byte) { s[64] -= 27 }) }},
		{name: "v = 1", status: 401, want: "send 27 or 28 (add 27 to a 0/1 recovery id)",
			body: func(n uint64) []byte {
				return mutateSig(t, mutateSig(t, plain(n), highS), func(s []byte) { s[64] -= 27 })
			}},
		// 8. a price 990,000 decimals long: too long, said briefly
		{name: "million-digit price", body: order(func(w *api.OrderWire) { w.Price = huge }), status: 400,
			want: `price "97000.00000000000000"… is 990006 characters long: send at most 64`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(e.sim)
			n := e.nowMs() + uint64(i) + 10
			path := c.path
			if path == "" {
				path = "/exchange"
			}
			code, out := e.post(t, path, c.body(n))
			msg, _ := out["error"].(string)
			if code != c.status || !strings.Contains(msg, c.want) {
				t.Errorf("got %d %q, want %d with %q", code, trunc(msg, 300), c.status, c.want)
			}
			if len(msg) > 400 {
				t.Errorf("the refusal is %d characters long: it must echo at most a short prefix", len(msg))
			}
			if after := snapshot(e.sim); after != before {
				t.Errorf("a refused request changed the exchange:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// Issue #21.5: an expiry exactly a day after the nonce is the furthest accepted.
func TestExpiryBoundIsADay(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	e.open("alice")
	n := e.nowMs() + 1
	body := signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")},
		ExpiresAfter: n + 86400000, Nonce: n})
	if code, out := e.post(t, "/exchange", body); code != 200 {
		t.Errorf("expiry a day after the nonce: %d %v, want 200", code, out)
	}
}

// flipCase swaps the case of every letter, so a checksummed address becomes one with a wrong
// mixed-case checksum.
func flipCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'f':
			b[i] = c - 32
		case c >= 'A' && c <= 'F':
			b[i] = c + 32
		}
	}
	return string(b)
}

// Issue #21.9: POST without Content-Type: application/json is refused with 415, so a web page
// (which can send text/plain across origins without asking) cannot drive a local simulator.
func TestPostNeedsJSONContentType(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	before := snapshot(e.sim)
	n := e.nowMs() + 5
	order := signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")},
		ExpiresAfter: n + 60000, Nonce: n})
	for _, c := range []struct{ path, ct string }{
		{"/info", "text/plain"}, {"/info", ""}, {"/exchange", "text/plain;charset=UTF-8"},
		{"/exchange", "application/x-www-form-urlencoded"}, {"/info", "multipart/form-data; boundary=x"},
	} {
		body := []byte(`{"method":"mids","params":{"symbol":"all"}}`)
		if c.path == "/exchange" {
			body = order
		}
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+c.path, bytes.NewReader(body))
		if c.ct != "" {
			req.Header.Set("Content-Type", c.ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("%s with Content-Type %q: %d, want 415", c.path, c.ct, resp.StatusCode)
		}
	}
	if snapshot(e.sim) != before {
		t.Error("a refused request changed the exchange")
	}
	// JSON with a charset is JSON.
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/info", strings.NewReader(`{"method":"mids","params":{"symbol":"all"}}`))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("application/json; charset=utf-8: %d, want 200", resp.StatusCode)
	}
}

// Issue #21.8: million-digit numbers sent at once do not stall an unrelated query: each refusal
// is decided on the raw body, outside the engine's lock. (Before, each held the lock for about
// 1.2 s, and a mids query waited 4.6 s.) The test holds the engine's lock itself while four
// clients each send a million-digit order: every one is refused (400) while it is held, so none
// waits on the lock, and none holds it for a query behind. Nothing is timed: the test used to
// compare a query's median to the attacked simulator with the same query to one nobody
// attacked, and at load 22 under -race that ratio came out 21 against a bound of 10. Only a
// request that waits on the lock lets the minute run out. Guards the mutation that lets a long
// decimal through to the engine.
func TestHugeNumbersDoNotStallOthers(t *testing.T) {
	t.Parallel() // its own simulator; only it waits on the lock it holds
	e := quietEnv(t)
	n := e.nowMs() + 1
	w := limit(1, api.SideBuy, "97000."+strings.Repeat("1", 990000), "0.1")
	huge := signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{w}, ExpiresAfter: n + 60000, Nonce: n})
	const senders = 4
	answers := make(chan int, senders)
	e.sim.mu.Lock()
	for range senders {
		go func() {
			resp, err := http.Post(e.srv.URL+"/exchange", "application/json", bytes.NewReader(huge))
			if err != nil {
				answers <- 0
				return
			}
			resp.Body.Close()
			answers <- resp.StatusCode
		}()
	}
	wait := time.NewTimer(time.Minute)
	defer wait.Stop()
	for i := range senders {
		select {
		case code := <-answers:
			if code != http.StatusBadRequest {
				t.Errorf("a million-digit order answered %d, want 400", code)
			}
		case <-wait.C:
			e.sim.mu.Unlock()
			t.Fatalf("%d of %d million-digit orders answered in a minute while the engine's lock was held: the others wait on it, and every request behind them would wait on them", i, senders)
		}
	}
	e.sim.mu.Unlock()
	if code, _ := e.postRaw(t, "/info", `{"method":"mids","params":{"symbol":"all"}}`); code != 200 {
		t.Fatalf("mids after the refusals: %d", code)
	}
}
