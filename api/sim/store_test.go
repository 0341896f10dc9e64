package sim

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestOpenOrdersSurviveARestart (issue #39, durable state): open orders, order history and
// brackets are kept. After a restart from the state database the open orders, the order
// history and both books read the same over /info, and the market goes on from there: a resting
// bid left part-filled fills in its place, a bracket's entry fills and arms its stop, which
// fires, and a stop waiting for its trigger fires. Every write is checked to have missed no
// change (withStoreCheck). Guards a restart that starts with an empty book.
func TestOpenOrdersSurviveARestart(t *testing.T) {
	t.Parallel() // its own simulator, clock and state file: its waits (the file's syncs) overlap the others'
	file := filepath.Join(t.TempDir(), "sim.db")
	opts := []Option{WithStateFile(file), WithStartNonceFloor(), withStoreCheck()}
	first := envAt(t, testStart, opts...)
	alice, bob := first.client("alice"), first.client("bob")
	first.clock.Add(time.Millisecond)
	bid := ids(t, alice, limit(1, api.SideBuy, "97000", "0.2"), limit(1, api.SideSell, "98000", "0.1"))
	place(t, bob, limit(1, api.SideSell, "97000", "0.05")) // alice's bid fills 0.05 of 0.2
	if _, err := alice.CancelByOid(ctx(), []api.CancelOid{{Oid: bid[1], InstrumentID: 1}}); err != nil {
		t.Fatal(err)
	}
	br := ids(t, bob, ethBracket(t, api.SideBuy, "3400", "1", "3500", "3300")...)
	st := ids(t, alice, stop(1, api.SideSell, "95000", "94000", "0.05"))
	users := []string{alice.Address(), bob.Address()}
	before := orderRecordsOf(t, first, users)
	if err := first.sim.StateError(); err != nil {
		t.Fatal(err)
	}

	second := envAt(t, first.clock.Now().Add(time.Second), opts...)
	if err := second.sim.StateError(); err != nil {
		t.Fatal(err)
	}
	after := orderRecordsOf(t, second, users)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s after the restart:\n%s\nbefore:\n%s", k, after[k], v)
		}
	}
	alice, bob, carol := second.client("alice"), second.client("bob"), second.client("carol")
	second.clock.Add(time.Millisecond)
	place(t, carol, limit(1, api.SideSell, "97000", "0.15")) // the rest of alice's bid
	if o := findOrder(t, alice, bid[0]); o.State != api.StateFilled {
		t.Errorf("alice's bid after carol's sell: %s, want filled", o.State)
	}
	place(t, carol, limit(2, api.SideSell, "3400", "1"), limit(2, api.SideBuy, "3280", "1")) // bob's entry; a bid for his stop
	if err := second.sim.SetIndexPrice("ETH-PERP", dec("3290")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, bob, br[2]); o.State != api.StateTriggered {
		t.Errorf("bob's stop after the entry filled and ETH fell through it: %s, want triggered", o.State)
	}
	if o := findOrder(t, bob, br[1]); o.State != api.StateCancelled {
		t.Errorf("bob's take-profit once the stop fired and filled: %s, want cancelled", o.State)
	}
	if err := second.sim.SetIndexPrice("BTC-PERP", dec("94900")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, alice, st[0]); o.State != api.StateTriggered {
		t.Errorf("alice's stop after BTC fell through it: %s, want triggered", o.State)
	}
	checkBooks(t, second.sim)
	if err := second.sim.StateError(); err != nil {
		t.Fatal(err)
	}
}

// orderRecordsOf reads each account's open orders and order history, and the BTC and ETH books,
// as raw JSON.
func orderRecordsOf(t *testing.T, e *env, users []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, u := range users {
		for _, m := range []string{"open_orders", "order_history", "fills"} {
			code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":%q,"params":{"user":%q}}`, m, u))
			if code != 200 {
				t.Fatalf("%s %s: %d %s", m, u, code, raw)
			}
			out[m+" "+u] = raw
		}
	}
	for _, s := range []string{"BTC-PERP", "ETH-PERP"} {
		_, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":"orderbook","params":{"symbol":%q}}`, s))
		out["orderbook "+s] = regexp.MustCompile(`"timestamp":\d+`).ReplaceAllString(raw, "") // the time it is read
	}
	return out
}

// TestForgottenAccountLeavesTheStore: an idle account the simulator forgets to make room (the
// account limit) leaves the state database too, rows, records and orders: after a restart it is
// not known, the account that took its place is, and the books still balance (its money counts
// as gone out).
func TestForgottenAccountLeavesTheStore(t *testing.T) {
	t.Parallel() // its own simulator, clock and state file: its waits (the file's syncs) overlap the others'
	file := filepath.Join(t.TempDir(), "sim.db")
	opts := []Option{WithStateFile(file), WithMaxAccounts(1), withStoreCheck()}
	first := envAt(t, testStart, opts...)
	idle := first.client("idle")
	first.clock.Add(time.Millisecond)
	ids(t, idle, limit(1, api.SideBuy, "90000", "0.01"))
	if _, err := idle.CancelAll(ctx()); err != nil {
		t.Fatal(err)
	}
	first.clock.Add(nonceBehind + accountIdle + time.Minute)
	if err := first.sim.Fund(nameAddr(t, "late"), dec("1000")); err != nil {
		t.Fatalf("funding past the limit once the first account is idle: %v", err)
	}
	if err := first.sim.StateError(); err != nil {
		t.Fatal(err)
	}
	second := envAt(t, first.clock.Now().Add(time.Second), opts...)
	if second.sim.Known(idle.Address()) || !second.sim.Known(nameAddr(t, "late")) {
		t.Errorf("after the restart: forgotten account known %v, its successor known %v; want false, true",
			second.sim.Known(idle.Address()), second.sim.Known(nameAddr(t, "late")))
	}
	checkBooks(t, second.sim)
	second.sim.mu.Lock()
	defer second.sim.mu.Unlock()
	for _, table := range append([]string{"accounts", "orders"}, logTables[:]...) {
		col := "acct"
		if table == "accounts" {
			col = "addr"
		}
		var n int
		if err := second.sim.store.db.QueryRow(`SELECT count(*) FROM `+table+` WHERE `+col+` = ?`, idle.Address()).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s holds %d rows of the forgotten account (%v)", table, n, err)
		}
	}
}
