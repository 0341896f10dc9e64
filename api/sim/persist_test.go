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

// TestStateSurvivesARestart (issue #39.1): a simulator with a state database trades, transfers,
// withdraws, pays funding, liquidates, registers an agent, approves a broker and sets a
// leverage; a new one started later from the database answers the same balances, positions,
// fills, funding, transfers, orders, agents, broker approvals, fee volumes and house accounts,
// the whole system still balances to the unit, the faucet remembers whom it funded, a body acted
// on before the restart (one with a nonce ahead of the clock too) is refused after it, and the
// agent still acts for its account.
func TestStateSurvivesARestart(t *testing.T) {
	t.Parallel() // its own simulator, clock and state file: its waits (the file's syncs) overlap the others'
	file := filepath.Join(t.TempDir(), "sim.db")
	first := envAt(t, testStart, WithStateFile(file), WithStartNonceFloor(), WithDemoBalance(dec("5000")), withStoreCheck())
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
	first.clock.Add(time.Millisecond)
	first.agentClient(t, bob, "bob-bot", 24*time.Hour)
	first.clock.Add(time.Millisecond)
	if _, err := alice.ApproveBrokerFee(ctx(), nameAddr(t, "broker"), "0.0007"); err != nil {
		t.Fatal(err)
	}
	first.clock.Add(time.Millisecond)
	if _, err := alice.UpdateLeverage(ctx(), 2, 5); err != nil {
		t.Fatal(err)
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

	second := envAt(t, first.clock.Now().Add(time.Second), WithStateFile(file), WithStartNonceFloor(), WithDemoBalance(dec("5000")), withStoreCheck())
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
	key, err := signer(t, "bob-bot").AsAgentFor(bob.Address())
	if err != nil {
		t.Fatal(err)
	}
	second.clock.Add(10 * time.Minute) // past the nonce signed ahead of the clock
	bot := api.New(second.srv.URL, api.WithSigner(key), api.WithClock(second.clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	if _, err := bot.PlaceOrders(ctx(), []api.OrderWire{limit(1, api.SideBuy, "70000", "0.01")}); err != nil {
		t.Errorf("bob's agent, registered before the restart, placing an order after it: %v", err)
	}
}

// recordsOf reads what each account and the house show over /info, as raw JSON by method.
func recordsOf(t *testing.T, e *env, users []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, u := range users {
		for _, m := range []string{"account_summary", "positions", "fills", "funding_history", "transfer_history", "open_orders",
			"order_history", "all_agents", "brokers_check", "user_fees"} {
			code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":%q,"params":{"user":%q}}`, m, u))
			if code != 200 {
				t.Fatalf("%s %s: %d %s", m, u, code, raw)
			}
			out[m+" "+u] = raw
		}
	}
	_, out["exchange_accounts"] = e.postRaw(t, "/info", `{"method":"exchange_accounts"}`)
	for _, sym := range []string{"BTC-PERP", "ETH-PERP"} { // the market's state: index and mark
		_, out["oracle "+sym] = e.postRaw(t, "/info", fmt.Sprintf(`{"method":"oracle","params":{"symbol":%q}}`, sym))
	}
	return out
}

// BenchmarkStateWrite is the cost --data adds to each action: one transaction that writes
// what a typical action changes (an account's row, a new fill, an order, the exchange-wide
// state, the fee account), committed with an fsync, with 2 accounts of 10 fills, and with 40
// accounts of 200 fills and 50 transfer records each (the other accounts are not written).
func BenchmarkStateWrite(b *testing.B) {
	for _, size := range []struct{ accounts, fills int }{{2, 10}, {40, 200}} {
		b.Run(fmt.Sprintf("%dx%d", size.accounts, size.fills), func(b *testing.B) { benchStateWrite(b, size.accounts, size.fills) })
	}
}

func benchStateWrite(b *testing.B, accounts, fills int) {
	e := stateWithAccounts(b, accounts, fills)
	e.sim.mu.Lock()
	defer e.sim.mu.Unlock()
	a, m := e.sim.eng.users[0], e.sim.eng.byID[1]
	o := &order{oid: 1, acct: a, mkt: m, buy: true, price: 97000, size: 1, rest: 1, tif: api.TifGTC, state: api.StateOpen, created: testStart}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		o.rest = int64(i % 2)
		e.sim.eng.touchOrder(o)
		a.addFill(fillRec{mkt: m, oid: o.oid, trade: api.TradeID(i), buy: true, dir: api.DirOpenLong, price: 97000, lots: 1,
			closedPnl: dec("1.5"), fee: dec("0.01"), txHash: "0xabc", at: testStart})
		e.sim.eng.fees.deriv[collUSDC] = e.sim.eng.fees.deriv[collUSDC].Add(dec("0.01"))
		e.sim.saveState()
	}
	b.StopTimer()
	if e.sim.stateErr != nil {
		b.Fatal(e.sim.stateErr)
	}
	b.ReportMetric(float64(e.sim.store.written), "stmts/write")
}

// stateWithAccounts is a quiet simulator with a state database and accounts of fills and
// transfer records each, all written.
func stateWithAccounts(t testing.TB, accounts, fills int) *env {
	e := quietEnv(t, WithStateFile(filepath.Join(t.TempDir(), "sim.db")))
	e.sim.mu.Lock()
	defer e.sim.mu.Unlock()
	m := e.sim.eng.byID[1]
	for k := range accounts {
		a, err := e.sim.eng.fund(nameAddr(t, fmt.Sprint("bench", k)), dec("100000"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range fills {
			a.addFill(fillRec{mkt: m, oid: api.OrderID(i), trade: api.TradeID(i), buy: i%2 == 0, dir: api.DirOpenLong, price: 97000, lots: 1,
				closedPnl: dec("1.5"), fee: dec("0.01"), txHash: "0xabc", at: testStart})
		}
		for range 48 {
			e.sim.eng.noteDeposit(a, collUSDC, dec("1"))
		}
	}
	e.sim.saveState()
	return e
}

// TestStateWriteIsWhatChanged (issue #39, durable state): an action writes only what it
// changed, so its write is the same whether the simulator holds 2 accounts or 40 with 200 fills
// each: the same statements for the same order placed, and no more than a dozen. Guards a
// write of the whole state per action.
func TestStateWriteIsWhatChanged(t *testing.T) {
	t.Parallel() // its own simulator, clock and state file: its waits (the file's syncs) overlap the others'
	var got []int
	for _, n := range []int{2, 40} {
		e := stateWithAccounts(t, n, 200)
		c := e.client("bench0")
		e.clock.Add(time.Millisecond)
		place(t, c, limit(1, api.SideBuy, "97000", "0.1"))
		e.sim.mu.Lock()
		got = append(got, e.sim.store.written)
		e.sim.mu.Unlock()
		if err := e.sim.StateError(); err != nil {
			t.Fatal(err)
		}
	}
	if got[0] != got[1] || got[1] > 12 {
		t.Errorf("an order placed wrote %d statements with 2 accounts and %d with 40: want the same, at most 12", got[0], got[1])
	}
}

// TestStateFlag: `tradedesk sim --data DIR` run twice with the same --fund keeps what the
// first run did and does not fund the account again; a state file it cannot read stops it
// (exit 1) and is left as it was.
func TestStateFlag(t *testing.T) {
	t.Parallel()
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
	if out, bal := run(); !strings.Contains(out, addr+" kept from the state database") || bal != "2300" {
		t.Fatalf("second run: %q, derivative USDC %s; want kept, 2300", out, bal)
	}
	if err := os.WriteFile(file, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	if code := RunCommand(context.Background(), []string{"--listen", "127.0.0.1:0", "--data", dir}, io.Discard, &errb); code != 1 ||
		!strings.Contains(errb.String(), "--data: state database "+file+": not a simulator state database") {
		t.Errorf("unreadable state: exit %d, %q; want 1 naming the file", code, errb.String())
	}
	if b, _ := os.ReadFile(file); string(b) != "{not json" {
		t.Errorf("the unreadable state file was overwritten: %q", b)
	}
	// An earlier version's JSON state is not read (no migration): a clear refusal, not a new start.
	old := t.TempDir()
	if err := os.WriteFile(filepath.Join(old, "sim-state.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := RunCommand(context.Background(), []string{"--listen", "127.0.0.1:0", "--data", old}, io.Discard, &errb); code != 1 ||
		!strings.Contains(errb.String(), "sim-state.json, the state file of an earlier version, which this one does not read") {
		t.Errorf("an earlier version's state file: exit %d, %q; want 1 saying it is not read", code, errb.String())
	}
}
