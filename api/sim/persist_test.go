package sim

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestStateSurvivesARestart (issue #39.1): a simulator with a state file trades, transfers,
// withdraws, pays funding and liquidates; a new one started later from the file answers the
// same balances, positions, fills, funding, transfers and house accounts, the whole system
// still balances to the unit, the faucet remembers whom it funded, and a body acted on before
// the restart (one with a nonce ahead of the clock too) is refused after it.
func TestStateSurvivesARestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sim.json")
	first := envAt(t, testStart, WithStateFile(file), WithStartNonceFloor(), WithDemoBalance(dec("5000")))
	alice, bob := first.client("alice"), first.client("bob")
	first.clock.Add(time.Millisecond) // nonces after the start
	place(t, bob, limit(1, api.SideSell, "97250", "0.3"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.3"))
	first.clock.Add(time.Millisecond)
	if _, err := alice.InternalTransfer(ctx(), collUSDC, "1000", true); err != nil {
		t.Fatal(err)
	}
	first.clock.Add(time.Millisecond)
	if _, err := bob.DerivativeWithdraw(ctx(), collUSDC, "100", 42161); err != nil {
		t.Fatal(err)
	}
	first.sim.Advance(time.Hour) // funding
	if err := first.sim.SetIndexPrice("BTC-PERP", dec("76000")); err != nil {
		t.Fatal(err)
	}
	if s := summaryOf(t, alice, ""); len(s.PerpPositions) != 0 {
		t.Fatalf("alice should have been liquidated: %+v", s.PerpPositions)
	}
	if code, raw := first.postRaw(t, "/faucet", fmt.Sprintf(`{"user":%q}`, nameAddr(t, "carol"))); code != 200 {
		t.Fatalf("faucet: %d %s", code, raw)
	}
	n := first.nowMs() + 10*60*1000 // ten minutes ahead of the clock, inside the window
	ahead := signed(t, "bob", api.ActionPlaceOrder, &api.PlaceOrderData{
		Orders: []api.OrderWire{limit(1, api.SideBuy, "70000", "0.1")}, ExpiresAfter: n + 60000, Nonce: n})
	if code, out := first.post(t, "/exchange", ahead); code != http.StatusOK {
		t.Fatalf("a body signed ahead of the clock: %d %v", code, out)
	}
	users := []string{alice.Address(), bob.Address(), nameAddr(t, "carol")}
	before := recordsOf(t, first, users)
	if err := first.sim.StateError(); err != nil {
		t.Fatal(err)
	}

	second := envAt(t, first.clock.Now().Add(time.Second), WithStateFile(file), WithStartNonceFloor(), WithDemoBalance(dec("5000")))
	if err := second.sim.StateError(); err != nil {
		t.Fatal(err)
	}
	after := recordsOf(t, second, users)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s after the restart:\n%s\nbefore:\n%s", k, after[k], v)
		}
	}
	checkBooks(t, second.sim)
	if got, want := second.sim.eng.byID[1].oi, first.sim.eng.byID[1].oi; got != want || want == 0 {
		t.Errorf("BTC-PERP open interest %d lots after the restart, %d before", got, want)
	}
	if code, raw := second.postRaw(t, "/faucet", fmt.Sprintf(`{"user":%q}`, nameAddr(t, "carol"))); code == 200 {
		t.Errorf("the faucet funded carol again after the restart: %s", raw)
	}
	if code, out := second.post(t, "/exchange", ahead); code != http.StatusUnauthorized {
		t.Errorf("the body signed ahead of the clock, replayed after the restart: %d %v", code, out)
	}
}

// recordsOf reads what each account and the house show over /info, as raw JSON by method.
func recordsOf(t *testing.T, e *env, users []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, u := range users {
		for _, m := range []string{"account_summary", "positions", "fills", "funding_history", "transfer_history"} {
			code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":%q,"params":{"user":%q}}`, m, u))
			if code != 200 {
				t.Fatalf("%s %s: %d %s", m, u, code, raw)
			}
			out[m+" "+u] = raw
		}
	}
	_, out["exchange_accounts"] = e.postRaw(t, "/info", `{"method":"exchange_accounts"}`)
	return out
}

// BenchmarkStateWrite is the cost --data adds to each action: one state file write (marshal,
// write, fsync, rename) with 2 accounts of 10 fills, and with 40 accounts of 200 fills and 50
// transfer records each.
func BenchmarkStateWrite(b *testing.B) {
	for _, size := range []struct{ accounts, fills int }{{2, 10}, {40, 200}} {
		b.Run(fmt.Sprintf("%dx%d", size.accounts, size.fills), func(b *testing.B) { benchStateWrite(b, size.accounts, size.fills) })
	}
}

func benchStateWrite(b *testing.B, accounts, fills int) {
	file := filepath.Join(b.TempDir(), "sim.json")
	e := quietEnv(b, WithStateFile(file))
	e.sim.mu.Lock()
	m := e.sim.eng.byID[1]
	for k := range accounts {
		a, err := e.sim.eng.fund(nameAddr(b, fmt.Sprint("bench", k)), dec("100000"))
		if err != nil {
			b.Fatal(err)
		}
		for i := range fills {
			a.addFill(fillRec{mkt: m, oid: api.OrderID(i), trade: api.TradeID(i), buy: i%2 == 0, dir: api.DirOpenLong, price: 97000, lots: 1,
				closedPnl: dec("1.5"), fee: dec("0.01"), txHash: "0xabc", at: testStart})
		}
		for range 48 {
			e.sim.eng.noteDeposit(a, collUSDC, dec("1"))
		}
	}
	e.sim.mu.Unlock()
	b.ResetTimer()
	for b.Loop() {
		e.sim.mu.Lock()
		e.sim.saveState()
		e.sim.mu.Unlock()
	}
	b.StopTimer()
	if err := e.sim.StateError(); err != nil {
		b.Fatal(err)
	}
	if st, err := os.Stat(file); err == nil {
		b.ReportMetric(float64(st.Size())/1024, "KiB/file")
	}
}

// TestStateFlag: `tradedesk sim --data DIR` run twice with the same --fund keeps what the
// first run did and does not fund the account again; a state file it cannot read stops it
// (exit 1) and is left as it was.
func TestStateFlag(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sim")
	file := filepath.Join(dir, StateFileName)
	addr := nameAddr(t, "alice")
	run := func() (string, string) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		r, w := io.Pipe()
		var errb bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- RunCommand(ctx, []string{"--listen", "127.0.0.1:0", "--data", dir, "--fund", addr + "=2500"}, w, &errb)
			w.Close()
		}()
		var lines []string
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("output %q: %v (stderr %q)", lines, err, errb.String())
			}
			lines = append(lines, line)
			if strings.Contains(line, "serving") {
				break
			}
		}
		url, _, _ := strings.Cut(strings.TrimPrefix(lines[len(lines)-1], "tradedesk sim: serving "), " ")
		c := api.New(url, api.WithSigner(signer(t, "alice")), api.WithRetry(api.RetryPolicy{Attempts: 1}))
		if _, err := c.InternalTransfer(context.Background(), collUSDC, "100", false); err != nil {
			t.Fatal(err)
		}
		s, err := c.AccountSummary(context.Background(), addr)
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		go io.Copy(io.Discard, r)
		if code := <-done; code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return strings.Join(lines, ""), s.Collateral["USDC"].Balance.String()
	}
	if out, bal := run(); !strings.Contains(out, "funded "+addr) || bal != "2400" {
		t.Fatalf("first run: %q, derivative USDC %s; want funded, 2400", out, bal)
	}
	if out, bal := run(); !strings.Contains(out, addr+" kept from the state file") || bal != "2300" {
		t.Fatalf("second run: %q, derivative USDC %s; want kept, 2300", out, bal)
	}
	if err := os.WriteFile(file, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	if code := RunCommand(context.Background(), []string{"--listen", "127.0.0.1:0", "--data", dir}, io.Discard, &errb); code != 1 ||
		!strings.Contains(errb.String(), "--data: state file") {
		t.Errorf("unreadable state: exit %d, %q; want 1 naming the file", code, errb.String())
	}
	if b, _ := os.ReadFile(file); string(b) != "{not json" {
		t.Errorf("the unreadable state file was overwritten: %q", b)
	}
}
