package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// otherCloid is a cloid another program trading the account chose: it sets the title, clears
// the screen, and would run as a formula in a spreadsheet.
const otherCloid = "\x1b]0;other\a\x1b[2J=HYPERLINK(\"http://x\")\u009b1m"

// checkTerminalSafe fails when out holds anything a terminal acts on: a C0 control other than
// newline and tab, DEL, a C1 control, a bidi override, or invalid UTF-8.
func checkTerminalSafe(t *testing.T, where, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8 in %q", where, out)
	}
	for i, r := range out {
		bad := (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e)
		if bad {
			t.Errorf("%s: control %U at %d in %q", where, r, i, out)
			return
		}
	}
}

// placeOthersOrders has "another program" trade the account directly on the simulator: a resting
// bid and a filled IOC buy, both with otherCloid, so that open orders, fills, history and
// positions all carry it.
func placeOthersOrders(t *testing.T, h *harness) {
	t.Helper()
	c := h.client()
	bid := h.restingBid()
	ask := decimal.RequireFromString(bid).Mul(decimal.RequireFromString("1.04")).Round(0).String()
	for _, o := range []api.OrderWire{
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: bid, Size: "0.01", Tif: api.TifGTC, Cloid: otherCloid},
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: ask, Size: "0.01", Tif: api.TifIOC, Cloid: otherCloid + "2"},
	} {
		if _, err := c.PlaceOrders(context.Background(), []api.OrderWire{o}); err != nil {
			t.Fatalf("placing another program's order: %v", err)
		}
	}
}

// TestHostileServerText: against a server that puts control sequences into every name, symbol,
// address, cloid, state and error, every command's table, JSON and stderr line is free of
// control characters, and --json still carries the server's exact values. Guards the cleaning
// of table cells and of the output streams in Run.
func TestHostileServerText(t *testing.T) {
	h := newHarness(t)
	placeOthersOrders(t, h)
	hostile := httptest.NewServer(sim.Hostile(h.sim, sim.HostilePayload))
	t.Cleanup(hostile.Close)
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), append(args, "--url", hostile.URL),
			Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] }})
		return code, out.String(), errb.String()
	}
	reads := [][]string{{"account"}, {"positions"}, {"orders"}, {"fills"}, {"history"}, {"tickers"},
		{"instruments"}, {"collateral"}, {"export", "fills"}, {"export", "history"}, {"export", "fills", "--format", "json"}}
	for _, args := range reads {
		for _, js := range []bool{false, true} {
			a := append([]string(nil), args...)
			switch {
			case js && a[0] == "export":
				a = append(a, "--format", "json") // export takes no --json: its format says it
			case js:
				a = append(a, "--json")
			}
			code, out, errs := run(a...)
			name := strings.Join(a, " ")
			if code != 0 {
				t.Errorf("%s: exit %d: %s", name, code, errs)
			}
			checkTerminalSafe(t, name+" stdout", out)
			// The export's own progress line rewrites itself with \r; nothing else may.
			checkTerminalSafe(t, name+" stderr", strings.ReplaceAll(errs, "\rexporting ", "exporting "))
			if js && !json.Valid([]byte(out)) {
				t.Errorf("%s: not JSON:\n%s", name, out)
			}
		}
	}
	// --json stays exact: the cloid comes back as the other program wrote it.
	_, out, _ := run("orders", "--json")
	var orders []api.OrderRecord
	if err := json.Unmarshal([]byte(out), &orders); err != nil || len(orders) != 1 || orders[0].Cloid != otherCloid+sim.HostilePayload {
		t.Errorf("orders --json: %v %+v", err, orders)
	}
	_, out, _ = run("orders")
	if !strings.Contains(out, `\u001b]0;other\u0007`) {
		t.Errorf("the orders table does not show the cloid escaped:\n%s", out)
	}
	// Actions: the server refuses each with an error that carries the payload.
	cloid := state.NewCloid()
	for _, a := range [][]string{
		{"order", "--instrument", "1", "--side", "buy", "--size", "0.01", "--price", "1000", "--yes"},
		{"cancel", "--instrument", "1", "--cloid", cloid},
		{"cancel-all", "--yes"},
		{"transfer", "--collateral", "USDC", "--amount", "1", "--to-derivatives"},
		{"transfer", "--collateral", "0", "--amount", "1", "--to", "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"},
		{"withdraw", "--collateral", "0", "--amount", "1", "--chain", "1"},
	} {
		code, out, errs := run(a...)
		name := strings.Join(a, " ")
		if code == 0 {
			t.Errorf("%s: exit 0 from a server that refuses every action", name)
		}
		checkTerminalSafe(t, name+" stdout", out)
		checkTerminalSafe(t, name+" stderr", errs)
		if !strings.Contains(errs, `\u001b]0;PWNED\u0007`) {
			t.Errorf("%s: stderr does not show the server's error escaped: %q", name, errs)
		}
	}
}

// TestOrderRedirectedIsNotFollowed: an exchange that redirects /exchange (to plain http on
// another port) gets a failed order whose message says it redirected and the order was looked
// up; the target never sees the signed order.
func TestOrderRedirectedIsNotFollowed(t *testing.T) {
	t.Parallel() // waits on the wall clock (a request's expiry) while the others run
	h := newHarness(t)
	var hits atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(target.Close)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/exchange" {
			http.Redirect(w, r, target.URL+"/exchange", http.StatusTemporaryRedirect)
			return
		}
		h.sim.ServeHTTP(w, r)
	}))
	t.Cleanup(redirecting.Close)
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01",
		"--price", h.restingBid(), "--url", redirecting.URL}, Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] },
		StateDir: t.TempDir(), ExpiryWindow: time.Second, Skew: loopbackSkew}) // the lookup waits for the request's expiry
	if code == 0 || hits.Load() != 0 {
		t.Fatalf("exit %d, %d requests reached the target", code, hits.Load())
	}
	if msg := errb.String(); !strings.Contains(msg, "redirected") || !strings.Contains(msg, "not in open orders or history") {
		t.Errorf("stderr %q: want the redirect and the lookup's result", msg)
	}
}

// otherAccount answers every /exchange request as done for another account (without acting),
// and passes /info to the simulator.
func otherAccount(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/exchange" {
			_, _ = w.Write([]byte(`{"tx_hash":"0xab","address":"0x9908658A316D743159F001026F1ef08aa8F0b55B","success":true,` +
				`"data":{"status":[{"resting":{"oid":7}}],"orders_cancelled":1,"nonce":5}}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// TestActionCreditedToAnotherAccountFails: every signed command whose answer names another
// account exits non-zero and says so. Guards against reporting it as placed or done.
func TestActionCreditedToAnotherAccountFails(t *testing.T) {
	h := newHarness(t)
	srv := httptest.NewServer(otherAccount(h.sim))
	t.Cleanup(srv.Close)
	for _, a := range [][]string{
		{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(), "--yes"},
		{"cancel", "--instrument", "BTC-PERP", "--cloid", state.NewCloid()},
		{"cancel-all", "--yes"},
		{"transfer", "--collateral", "USDC", "--amount", "1", "--to-derivatives", "--yes"},
		{"withdraw", "--collateral", "USDC", "--amount", "1", "--chain", "1", "--yes"},
	} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), append(a, "--url", srv.URL), Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] }})
		if code == 0 || !strings.Contains(errb.String(), "the exchange attributed this action to 0x9908658A316D743159F001026F1ef08aa8F0b55B; nothing was done on your account") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", a, code, out.String(), errb.String())
		}
	}
}
