package sim

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// An order that would trade with the account's own resting order cancels the resting one.
func TestSelfTradePrevention(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	resting := oid(t, place(t, alice, limit(1, api.SideSell, "97300", "0.1")))
	buy := oid(t, place(t, alice, limit(1, api.SideBuy, "97400", "0.1")))
	if o := findOrder(t, alice, resting); o.State != api.StateCancelled {
		t.Errorf("resting order %s, want cancelled", o.State)
	}
	if o := findOrder(t, alice, buy); o.State != api.StateOpen {
		t.Errorf("new order %s, want open", o.State)
	}
	f, err := alice.Fills(ctx(), "", api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	if f.TotalCount != 0 || len(f.Data) != 0 {
		t.Errorf("self trade: %d fills", f.TotalCount)
	}
	if ps := positions(t, alice); len(ps) != 0 {
		t.Errorf("self trade opened %+v", ps)
	}
}

// A resting reduce-only order whose position has gone is cancelled instead of opening one.
func TestRestingReduceOnlyLosesItsPosition(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob, carol := e.client("alice"), e.client("bob"), e.client("carol")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.1"))
	ro := limit(1, api.SideSell, "97500", "0.1")
	ro.ReduceOnly = true
	roID := oid(t, place(t, bob, ro))
	place(t, carol, limit(1, api.SideBuy, "97200", "0.1"))
	close := limit(1, api.SideSell, "97200", "0.1")
	close.Tif = api.TifIOC
	place(t, bob, close) // bob is flat now
	id := oid(t, place(t, alice, limit(1, api.SideBuy, "97500", "0.1")))
	if o := findOrder(t, bob, roID); o.State != api.StateCancelled {
		t.Errorf("reduce-only order %s, want cancelled", o.State)
	}
	if o := findOrder(t, alice, id); o.State != api.StateOpen {
		t.Errorf("buyer %s, want open (nothing to buy)", o.State)
	}
	if ps := positions(t, bob); len(ps) != 0 {
		t.Errorf("bob opened a position: %+v", ps)
	}
}

// Cancelling an untriggered order removes its trigger.
func TestCancelTriggerOrder(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	w := limit(1, api.SideBuy, "99000", "0.1")
	w.TriggerPx = "98000"
	id := oid(t, place(t, alice, w))
	if _, err := alice.CancelByOid(ctx(), []api.CancelOid{{Oid: id, InstrumentID: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("98500")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, alice, id); o.State != api.StateCancelled {
		t.Errorf("cancelled trigger order became %s", o.State)
	}
	if len(history(t, alice)) != 1 {
		t.Error("a cancelled trigger fired")
	}
}

// Signatures are checked against the configured source.
func TestSource(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithSource("Testnet"))
	mainnet := e.client("alice")
	// A Mainnet signature recovers to some other address on a Testnet simulator: an unknown
	// signer, refused with the real exchange's 401.
	_, err := mainnet.CancelAll(ctx())
	if ae, ok := api.AsError(err); !ok || ae.Status != 401 || ae.Message != "invalid order signer" {
		t.Errorf("mainnet signature on testnet: %v", err)
	}
	s, _ := api.SignerFromHex(keyHex("alice"))
	testnet := api.New(e.srv.URL, api.WithSigner(s), api.WithClock(e.clock.Now), api.WithSource("Testnet"))
	r, err := testnet.CancelAll(ctx())
	if err != nil || r.Address != testnet.Address() {
		t.Errorf("testnet client: %v, address %s", err, r.Address)
	}
}

func TestFundingInterval(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithFundingInterval(10*time.Minute), WithDemoBalance(dec("0")))
	alice, bob := e.client("alice"), e.client("bob")
	for _, c := range []*api.Client{alice, bob} {
		if err := e.sim.Deposit(c.Address(), 1, dec("10000"), true); err != nil {
			t.Fatal(err)
		}
	}
	place(t, alice, limit(2, api.SideSell, "3412.5", "1"))
	place(t, bob, limit(2, api.SideBuy, "3412.5", "1"))
	e.sim.Advance(30 * time.Minute) // 12:40 → 13:10: paid at 12:50, 13:00 and 13:10
	p, err := bob.Fills(ctx(), "", api.PageParams{})
	if err != nil || p.TotalCount != 1 {
		t.Fatal(err)
	}
	raw := e.infoRaw(t, `{"method":"funding_history","params":{"user":%q}}`, bob.Address())
	if !contains(raw, `"total_count":3`) {
		t.Errorf("funding every 10 minutes: %s", raw)
	}
}

// A position stop (grouping "position") closes the whole position, whatever size it was sent with.
func TestPositionGroupedStop(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(2, api.SideSell, "3412.5", "3"))
	place(t, bob, limit(2, api.SideBuy, "3412.5", "1"))
	sl := api.OrderWire{InstrumentID: 2, Side: api.SideSell, PositionSide: "BOTH", Price: "3000", Size: "1", Tif: api.TifIOC,
		ReduceOnly: true, IsMarket: true, TriggerPx: "3300", Tpsl: api.TpslStopLoss, Grouping: "position"}
	place(t, bob, sl)
	place(t, bob, limit(2, api.SideBuy, "3412.5", "2")) // the position grows after the stop was set
	place(t, alice, limit(2, api.SideBuy, "3290", "5"))
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("3295")); err != nil {
		t.Fatal(err)
	}
	if ps := positions(t, bob); len(ps) != 0 {
		t.Errorf("position stop left %+v", ps)
	}
}

// Non-USDC collateral in the derivative account counts at its weighted price.
func TestCollateralWeight(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithDemoBalance(dec("0")))
	bob := e.client("bob")
	if err := e.sim.Deposit(bob.Address(), collWETH, dec("1"), true); err != nil {
		t.Fatal(err)
	}
	s := summary(t, bob)
	eqDec(t, "available from 1 WETH at 3412.5 × 0.9", s.AvailableBalance, "3071.25")
	eqDec(t, "withdrawable WETH", s.Collateral["WETH"].WithdrawableBalance, "1")
	place(t, bob, limit(2, api.SideBuy, "3400", "5")) // needs 1706.25 + fees of margin
	s = summary(t, bob)
	if !s.Collateral["WETH"].WithdrawableBalance.LessThan(dec("0.5")) {
		t.Errorf("WETH backing an order is still withdrawable: %s", s.Collateral["WETH"].WithdrawableBalance)
	}
}

// An account may hold at most maxOpenOrders open and trigger orders, reduce-only ones included.
func TestOpenOrderCap(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97000", "0.1"))
	place(t, bob, limit(1, api.SideBuy, "97000", "0.1")) // bob is long 0.1
	e.sim.mu.Lock()
	a := e.sim.eng.accounts[bob.Address()]
	for i := 0; i < maxOpenOrders; i++ {
		w := limit(1, api.SideSell, "99000", "0.001")
		w.ReduceOnly, w.TriggerPx, w.Tpsl = true, "99000", api.TpslTakeProfit
		if _, err := e.sim.eng.place(a, &w); err != nil {
			e.sim.mu.Unlock()
			t.Fatalf("order %d: %v", i+1, err)
		}
	}
	e.sim.mu.Unlock()
	msg := placeErr(t, bob, limit(1, api.SideBuy, "96000", "0.001"))
	if !contains(msg, "1000 open and trigger orders") {
		t.Fatalf("past the cap: %s", msg)
	}
	if _, err := bob.CancelAll(ctx()); err != nil {
		t.Fatal(err)
	}
	place(t, bob, limit(1, api.SideBuy, "96000", "0.001"))
}
