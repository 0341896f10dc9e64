package sim

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// testStart is near the signing vectors' nonce (29 Jan 2026), so their nonces are in the window.
var testStart = time.UnixMilli(1769690400000).UTC()

// env is a simulator behind a real HTTP server with a test clock. A test that owns its
// simulators runs in parallel (t.Parallel); one that measures the process's heap or allocations,
// or a time against the same work alone, runs alone.
type env struct {
	t     testing.TB
	sim   *Sim
	clock *TestClock
	srv   *httptest.Server
}

func newEnv(t testing.TB, opts ...Option) *env {
	t.Helper()
	clock := NewTestClock(testStart)
	s := New(append([]Option{WithSeed(7), WithClock(clock)}, opts...)...)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return &env{t: t, sim: s, clock: clock, srv: srv}
}

// quietEnv is an env with the market loop off, for exact numbers.
func quietEnv(t testing.TB, opts ...Option) *env {
	return newEnv(t, append([]Option{WithQuietMarkets()}, opts...)...)
}

// keyHex derives a test private key from a name.
func keyHex(name string) string {
	return hex.EncodeToString(secp.Keccak256([]byte("sim-test/" + name)))
}

// client returns an api client that signs as the named test account.
func (e *env) client(name string) *api.Client {
	e.t.Helper()
	s, err := api.SignerFromHex(keyHex(name))
	if err != nil {
		e.t.Fatal(err)
	}
	c := api.New(e.srv.URL, api.WithSigner(s), api.WithClock(e.clock.Now), api.WithTimeout(5*time.Second),
		api.WithRetry(api.RetryPolicy{Attempts: 1}))
	if err := c.Err(); err != nil {
		e.t.Fatal(err)
	}
	e.fund(s.Address())
	return c
}

// nameAddr is the address of the named test key.
func nameAddr(t testing.TB, name string) string {
	t.Helper()
	s, err := api.SignerFromHex(keyHex(name))
	if err != nil {
		t.Fatal(err)
	}
	return s.Address()
}

// open funds the named test accounts (for tests that sign bodies by hand).
func (e *env) open(names ...string) {
	e.t.Helper()
	for _, n := range names {
		e.fund(nameAddr(e.t, n))
	}
}

// fund opens an account with the demo balance, once (the simulator acts only for accounts it
// knows).
func (e *env) fund(addr string) {
	e.t.Helper()
	e.sim.mu.Lock()
	known := e.sim.eng.known(addr) != nil
	e.sim.mu.Unlock()
	if known {
		return
	}
	if err := e.sim.Fund(addr, e.sim.cfg.demo); err != nil {
		e.t.Fatal(err)
	}
}

func ctx() context.Context { return context.Background() }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// order builds a limit order wire.
func limit(id api.InstrumentID, side, price, size string) api.OrderWire {
	return api.OrderWire{InstrumentID: id, Side: side, PositionSide: api.PositionSideBoth, Price: price, Size: size, Tif: api.TifGTC}
}

// place sends orders and returns the response, failing the test on error.
func place(t testing.TB, c *api.Client, os ...api.OrderWire) api.TxResponse {
	t.Helper()
	r, err := c.PlaceOrders(ctx(), os)
	if err != nil {
		t.Fatalf("place %+v: %v", os, err)
	}
	return r
}

// placeErr sends orders and returns the error, failing the test if there is none.
func placeErr(t testing.TB, c *api.Client, os ...api.OrderWire) string {
	t.Helper()
	_, err := c.PlaceOrders(ctx(), os)
	if err == nil {
		t.Fatalf("place %+v: want an error", os)
	}
	return err.Error()
}

func oid(t testing.TB, r api.TxResponse) api.OrderID {
	t.Helper()
	ids, err := r.OrderIDs()
	if err != nil || len(ids) == 0 {
		t.Fatalf("no order id in %s: %v", r.Data, err)
	}
	return ids[0]
}

func eqDec(t testing.TB, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(dec(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// signer returns the named test account's signer.
func signer(t testing.TB, name string) *api.Signer {
	t.Helper()
	s, err := api.SignerFromHex(keyHex(name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// signed builds a signed /exchange body for the named account.
func signed(t testing.TB, name, action string, data api.ActionData) []byte {
	t.Helper()
	b, err := signer(t, name).EncodeRequest("Mainnet", action, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// post sends a raw body and decodes the JSON answer into a map.
func (e *env) post(t testing.TB, path string, body []byte) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(e.srv.URL+path, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s answered %d with non-JSON %q", path, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

// nowMs is the test clock in Unix milliseconds.
func (e *env) nowMs() uint64 { return uint64(e.clock.Now().UnixMilli()) }

// postRaw sends a raw body and returns the status and body text.
func (e *env) postRaw(t testing.TB, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(e.srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
