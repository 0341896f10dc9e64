package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// snapshot writes down every user account: balances, positions, leverage, open orders, brokers,
// agents, and the ledger's deposits. Two equal snapshots mean nothing changed anywhere.
func (e *env) snapshot() string {
	e.sim.mu.Lock()
	defer e.sim.mu.Unlock()
	var lines []string
	for _, a := range e.sim.eng.users {
		l := fmt.Sprintf("%s spot=%v deriv=%v orders=%d brokers=%d", a.addr, a.spot, a.deriv, len(a.open), len(a.brokers))
		for id, p := range a.pos {
			l += fmt.Sprintf(" pos%d=%d/%s", id, p.size, p.lev)
		}
		for id, s := range a.lev {
			l += fmt.Sprintf(" lev%d=%s", id, s.lev)
		}
		for _, b := range a.brokers {
			l += " " + b.broker + "=" + b.maxFee.String()
		}
		lines = append(lines, l)
	}
	for addr, r := range e.sim.eng.ctl.agents {
		lines = append(lines, "agent "+addr+" for "+r.account)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + fmt.Sprintf("\nusers=%d ledger=%v", len(e.sim.eng.users), e.sim.eng.ledger)
}

// agentClient registers a fresh agent key for owner (valid for ttl) and returns a client that
// signs with the agent key only.
func (e *env) agentClient(t *testing.T, owner *api.Client, name string, ttl time.Duration) (*api.Client, *api.Signer) {
	t.Helper()
	key := signer(t, name)
	if _, err := owner.AddAgent(ctx(), key, "bot "+name, e.clock.Now().Add(ttl)); err != nil {
		t.Fatalf("add agent: %v", err)
	}
	ag, err := key.AsAgentFor(owner.Address())
	if err != nil {
		t.Fatal(err)
	}
	c := api.New(e.srv.URL, api.WithSigner(ag), api.WithClock(e.clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	return c, key
}

func want401(t *testing.T, what string, err error) {
	t.Helper()
	ae, ok := api.AsError(err)
	if !ok || ae.Status != http.StatusUnauthorized || ae.Message != "invalid order signer" {
		t.Fatalf("%s: %v, want HTTP 401 invalid order signer", what, err)
	}
}

// TestUnknownSignersRefused: a body changed after signing, a key the simulator never funded and
// an expired agent each get 401 {"error":"invalid order signer"}, and no account changes
// (guards the old behaviour of opening and funding every address a signature recovers to).
func TestUnknownSignersRefused(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	agent, _ := e.agentClient(t, alice, "alice-bot", time.Hour)
	before := e.snapshot()

	n := e.nowMs() + 1
	body := string(signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{
		Orders: []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")}, ExpiresAfter: n + 60000, Nonce: n}))
	tampered := strings.Replace(body, `"size":"0.1"`, `"size":"0.2"`, 1)
	if tampered == body {
		t.Fatal("body not tampered")
	}
	code, raw := e.postRaw(t, "/exchange", tampered)
	if code != http.StatusUnauthorized || raw != `{"error":"invalid order signer"}` {
		t.Fatalf("tampered body: %d %s", code, raw)
	}

	s, _ := api.SignerFromHex(keyHex("stranger"))
	stranger := api.New(e.srv.URL, api.WithSigner(s), api.WithClock(e.clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	_, err := stranger.PlaceOrders(ctx(), []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")})
	want401(t, "unfunded key", err)
	_, err = stranger.InternalTransfer(ctx(), collUSDC, "1", true)
	want401(t, "unfunded key's transfer", err)

	e.sim.Advance(time.Hour)
	_, err = agent.PlaceOrders(ctx(), []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")})
	want401(t, "expired agent", err)
	// Only the expired agent's record may go; nothing else differs.
	trim := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "agent ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if trim(before) != trim(e.snapshot()) {
		t.Fatalf("accounts changed:\nbefore %s\nafter  %s", before, e.snapshot())
	}
	// Reading never opens an account: the stranger's summary shows nothing, and it is still unknown.
	sum, err := stranger.AccountSummary(ctx(), "")
	if err != nil || !sum.Collateral["USDC"].Balance.IsZero() {
		t.Fatalf("stranger's summary %+v (%v)", sum.Collateral, err)
	}
	_, err = stranger.CancelAll(ctx())
	want401(t, "unfunded key after a read", err)
}

// TestAgentFlow: add an agent, trade with only the agent key (the orders are the account's),
// see its withdrawal refused (by the client before signing, and by the simulator when signed by
// hand), see it listed, revoke it, and see its next order refused with 401.
func TestAgentFlow(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	agent, key := e.agentClient(t, alice, "alice-bot", 24*time.Hour)

	r, err := agent.PlaceOrders(ctx(), []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")})
	if err != nil || r.Address != alice.Address() {
		t.Fatalf("agent order: %v, attributed to %s", err, r.Address)
	}
	if oo, _ := alice.OpenOrders(ctx(), "", api.PageParams{}); len(oo.Data) != 1 {
		t.Fatalf("alice's open orders %+v", oo.Data)
	}
	if _, err := agent.CancelAll(ctx()); err != nil {
		t.Fatalf("agent cancel-all: %v", err)
	}
	before := e.snapshot()
	if _, err := agent.DerivativeWithdraw(ctx(), collUSDC, "10", 1); err == nil || !strings.Contains(err.Error(), "account's own key") {
		t.Fatalf("agent withdrawal through the client: %v", err)
	}
	n := e.nowMs() + 5
	body, _ := key.EncodeRequest("Mainnet", api.ActionDerivativeWithdraw, &api.WithdrawData{CollateralID: collUSDC, Amount: "10", ChainID: 1, Nonce: n})
	code, raw := e.postRaw(t, "/exchange", string(body))
	if code != http.StatusForbidden || !strings.Contains(raw, "agents may only place and cancel orders") {
		t.Fatalf("agent withdrawal signed by hand: %d %s", code, raw)
	}
	if after := e.snapshot(); after != before {
		t.Fatalf("refused withdrawal changed accounts:\n%s\n%s", before, after)
	}

	agents, err := alice.Agents(ctx(), "")
	if err != nil || len(agents) != 1 || agents[0].Address != key.Address() || agents[0].Name != "bot alice-bot" ||
		!agents[0].ValidUntil.Equal(e.clock.Now().Add(24*time.Hour).Truncate(time.Millisecond)) || agents[0].User != alice.Address() {
		t.Fatalf("allAgents: %+v (%v)", agents, err)
	}
	if _, err := agent.RevokeAgent(ctx(), key.Address()); err == nil {
		t.Fatal("an agent revoked itself")
	}
	if _, err := alice.RevokeAgent(ctx(), key.Address()); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	_, err = agent.PlaceOrders(ctx(), []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")})
	want401(t, "revoked agent", err)
	if agents, _ := alice.Agents(ctx(), ""); len(agents) != 0 {
		t.Fatalf("revoked agent still listed: %+v", agents)
	}
}

// TestAddAgentChecks: a proof for another account, a proof by another key, an agent that is an
// account already and a past validUntil are refused, and nothing is registered.
func TestAddAgentChecks(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	e.open("bob")
	key := signer(t, "agent-x")
	add := func(nonceOff uint64, d func(*api.AddAgentData, uint64)) (int, string) {
		n := e.nowMs() + nonceOff
		proof, _ := key.SignAction("Mainnet", api.TxAddAgent, &api.AgentProofData{Signer: alice.Address(), Nonce: n})
		data := &api.AddAgentData{AgentName: "x", Agent: key.Address(), Signature: proof, ValidUntil: n + 3600000, Nonce: n}
		d(data, n)
		b, _ := signer(t, "alice").EncodeRequest("Mainnet", api.ActionAddAgent, data)
		return e.postRaw(t, "/exchange", string(b))
	}
	cases := []struct {
		name string
		mod  func(*api.AddAgentData, uint64)
		want string
	}{
		{"proof for bob", func(d *api.AddAgentData, n uint64) {
			d.Signature, _ = key.SignAction("Mainnet", api.TxAddAgent, &api.AgentProofData{Signer: nameAddr(t, "bob"), Nonce: n})
		}, "proof does not recover"},
		{"proof by another key", func(d *api.AddAgentData, n uint64) {
			d.Signature, _ = signer(t, "other").SignAction("Mainnet", api.TxAddAgent, &api.AgentProofData{Signer: alice.Address(), Nonce: n})
		}, "proof does not recover"},
		{"agent is an account", func(d *api.AddAgentData, n uint64) {
			d.Agent = nameAddr(t, "bob")
			d.Signature, _ = signer(t, "bob").SignAction("Mainnet", api.TxAddAgent, &api.AgentProofData{Signer: alice.Address(), Nonce: n})
		}, "is an account of its own"},
		{"past", func(d *api.AddAgentData, n uint64) { d.ValidUntil = n - 1000 }, "validUntil"},
		{"sub-account", func(d *api.AddAgentData, n uint64) { d.ForAccount = nameAddr(t, "bob") }, "no sub-accounts"},
	}
	before := e.snapshot()
	for i, c := range cases {
		code, raw := add(uint64(i+1), c.mod)
		if code != http.StatusBadRequest || !strings.Contains(raw, c.want) {
			t.Errorf("%s: %d %s", c.name, code, raw)
		}
	}
	if after := e.snapshot(); after != before {
		t.Fatalf("refused addAgent changed something:\n%s\n%s", before, after)
	}
}

// TestLeverageAction: leverage set with a number and with a string shows in instrument_leverage,
// positions and account_summary (the initial margin halves when the leverage doubles); a change
// that would leave the account under margin, or above the tier, is refused and changes nothing.
func TestLeverageAction(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	if _, err := alice.UpdateLeverage(ctx(), 1, 5); err != nil {
		t.Fatal(err)
	}
	lv, _ := alice.InstrumentLeverage(ctx(), "", "BTC-PERP")
	eqDec(t, "leverage after 5x", lv.Leverage, "5")
	// The Python SDK's spelling: the leverage as a string.
	n := e.nowMs() + 100
	body := signed(t, "alice", api.ActionUpdateLeverage, &api.UpdateLeverageData{InstrumentID: 1, Leverage: api.LeverageValue{N: 10, Quoted: true}, Nonce: n})
	if !strings.Contains(string(body), `"leverage":"10"`) {
		t.Fatalf("not the string spelling: %s", body)
	}
	if code, out := e.post(t, "/exchange", body); code != 200 {
		t.Fatalf("string leverage: %d %v", code, out)
	}
	lv, _ = alice.InstrumentLeverage(ctx(), "", "BTC-PERP")
	eqDec(t, "leverage after \"10\"", lv.Leverage, "10")

	place(t, bob, limit(1, api.SideSell, "97000", "1"))
	place(t, alice, limit(1, api.SideBuy, "97000", "1"))
	s1, _ := alice.AccountSummary(ctx(), "")
	eqDec(t, "initial margin at 10x (1 BTC at the mark 97250)", s1.InitialMargin, "9725")
	if _, err := alice.UpdateLeverage(ctx(), 1, 20); err != nil {
		t.Fatal(err)
	}
	s2, _ := alice.AccountSummary(ctx(), "")
	eqDec(t, "initial margin at 20x", s2.InitialMargin, "4862.5")
	if !s2.AvailableBalance.GreaterThan(s1.AvailableBalance) {
		t.Errorf("available %s did not grow from %s", s2.AvailableBalance, s1.AvailableBalance)
	}
	ps, _ := alice.Positions(ctx(), "")
	if len(ps) != 1 || !ps[0].Leverage.Equal(decimal.NewFromInt(20)) {
		t.Fatalf("positions %+v", ps)
	}

	// 1.5 BTC at 1x needs about 145875 USDC of margin; alice has about 100000.
	place(t, bob, limit(1, api.SideSell, "97000", "0.5"))
	place(t, alice, limit(1, api.SideBuy, "97000", "0.5"))
	before := e.snapshot()
	if _, err := alice.UpdateLeverage(ctx(), 1, 1); err == nil || !strings.Contains(err.Error(), "under margin") {
		t.Fatalf("1x on 145500 USD with 100000 USDC: %v", err)
	}
	if _, err := alice.UpdateLeverage(ctx(), 1, 51); err == nil || !strings.Contains(err.Error(), "1 to 50") {
		t.Fatalf("51x: %v", err)
	}
	if _, err := alice.UpdateLeverage(ctx(), 101, 2); err == nil || !strings.Contains(err.Error(), "spot") {
		t.Fatalf("spot leverage: %v", err)
	}
	if after := e.snapshot(); after != before {
		t.Fatalf("refused leverage changed something:\n%s\n%s", before, after)
	}
}

// TestBrokerApproval: approving shows in brokers_check with its rate, a new rate replaces it,
// revoking (rate 0) removes it, and a rate above 1% is refused.
func TestBrokerApproval(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	broker := "0x9908658A316D743159F001026F1ef08aa8F0b55B"
	rate := func() (decimal.Decimal, bool) {
		pg, err := alice.BrokersCheck(ctx(), "", "", api.PageParams{})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range pg.Data {
			if b.Broker == broker {
				return b.MaxFeeRate, true
			}
		}
		return decimal.Zero, false
	}
	if _, ok := rate(); ok {
		t.Fatal("approved before approving")
	}
	if _, err := alice.ApproveBrokerFee(ctx(), broker, "0.001"); err != nil {
		t.Fatal(err)
	}
	if r, ok := rate(); !ok || !r.Equal(dec("0.001")) {
		t.Fatalf("after approve: %s %v", r, ok)
	}
	if _, err := alice.ApproveBrokerFee(ctx(), broker, "0.0005"); err != nil {
		t.Fatal(err)
	}
	if r, _ := rate(); !r.Equal(dec("0.0005")) {
		t.Fatalf("after re-approve: %s", r)
	}
	if _, err := alice.ApproveBrokerFee(ctx(), broker, "0.02"); err == nil {
		t.Fatal("2% accepted")
	}
	if _, err := alice.ApproveBrokerFee(ctx(), broker, "0"); err != nil {
		t.Fatal(err)
	}
	if _, ok := rate(); ok {
		t.Fatal("still approved after revoke")
	}
	if _, err := alice.ApproveBrokerFee(ctx(), broker, "0"); err == nil || !strings.Contains(err.Error(), "no approval to revoke") {
		t.Fatalf("second revoke: %v", err)
	}
}

// TestFaucet: the faucet funds an address once, answers its balances, and serves only loopback.
func TestFaucet(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	addr := nameAddr(t, "fresh")
	code, raw := e.postRaw(t, "/faucet", `{"user":"`+strings.ToLower(addr)+`"}`)
	var out faucetReply
	if err := json.Unmarshal([]byte(raw), &out); code != 200 || err != nil || out.User != addr || len(out.Derivatives) != 1 || out.Derivatives[0].Balance != "100000" {
		t.Fatalf("faucet: %d %s", code, raw)
	}
	if code, raw := e.postRaw(t, "/faucet", `{"user":"`+addr+`"}`); code != http.StatusConflict || !strings.Contains(raw, "once") {
		t.Fatalf("second faucet: %d %s", code, raw)
	}
	c := api.New(e.srv.URL, api.WithSigner(signer(t, "fresh")), api.WithClock(e.clock.Now))
	if _, err := c.CancelAll(ctx()); err != nil {
		t.Fatalf("funded account refused: %v", err)
	}
	before := e.snapshot()
	req := httptest.NewRequest(http.MethodPost, "/faucet", strings.NewReader(`{"user":"`+nameAddr(t, "remote")+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.7:4242"
	w := httptest.NewRecorder()
	e.sim.ServeHTTP(w, req)
	if w.Code != http.StatusForbidden || e.snapshot() != before {
		t.Fatalf("remote faucet: %d %s", w.Code, w.Body)
	}
	if code, _ := e.postRaw(t, "/faucet", `{"user":"0x12"}`); code != http.StatusBadRequest {
		t.Fatalf("bad address: %d", code)
	}
}

// TestFundConservesMoney: Fund counts as a deposit, so the ledger balances.
func TestFundConservesMoney(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	if err := e.sim.Fund(nameAddr(t, "a"), dec("1234.5")); err != nil {
		t.Fatal(err)
	}
	if err := e.sim.Fund(nameAddr(t, "a"), dec("-1")); err == nil {
		t.Fatal("negative funding accepted")
	}
	sum, _ := e.client("a").AccountSummary(ctx(), "")
	eqDec(t, "derivatives after Fund", sum.Collateral["USDC"].Balance, "1234.5")
}
