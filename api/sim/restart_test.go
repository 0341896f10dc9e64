package sim

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestReplayAfterRestartRefused: a body acted on by one simulator is refused by the next one
// started after it (a restart remembers no nonce of the old process, but the start is the
// floor), while a body signed after the restart is acted on.
func TestReplayAfterRestartRefused(t *testing.T) {
	t.Parallel() // its own simulator, clock and state file: its waits (the file's syncs) overlap the others'
	first := newEnv(t, WithQuietMarkets(), WithStartNonceFloor())
	first.open("alice")
	n := first.nowMs() + 1
	body := signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{
		Orders: []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")}, ExpiresAfter: n + 60000, Nonce: n})
	if code, out := first.post(t, "/exchange", body); code != http.StatusOK {
		t.Fatalf("first simulator: %d %v", code, out)
	}

	// The restart: a new process a second later, the same account funded again.
	second := restartedEnv(t, first.clock.Now().Add(time.Second))
	second.open("alice")
	code, out := second.post(t, "/exchange", body)
	if code != http.StatusUnauthorized || !contains(out["error"].(string), "this simulator's start") {
		t.Fatalf("replay after the restart: %d %v; want 401 naming the start", code, out)
	}
	if oo, err := second.client("alice").OpenOrders(ctx(), nameAddr(t, "alice"), api.PageParams{}); err != nil || len(oo.Data) != 0 {
		t.Fatalf("the replay placed %d orders (%v)", len(oo.Data), err)
	}
	m := second.nowMs() + 1
	fresh := signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{
		Orders: []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")}, ExpiresAfter: m + 60000, Nonce: m})
	if code, out := second.post(t, "/exchange", fresh); code != http.StatusOK {
		t.Fatalf("a body signed after the restart: %d %v", code, out)
	}
}

// restartedEnv is a simulator started at the given time with the start floor, as `tradedesk
// sim` starts one.
func restartedEnv(t *testing.T, at time.Time) *env {
	t.Helper()
	clock := NewTestClock(at)
	s := New(WithSeed(7), WithClock(clock), WithQuietMarkets(), WithStartNonceFloor())
	e := &env{t: t, sim: s, clock: clock}
	e.srv = httptest.NewServer(s)
	t.Cleanup(e.srv.Close)
	return e
}
