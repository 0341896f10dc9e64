package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// arrivals is a server that records when each request reaches it, by path, and answers the first
// /info with a 429 (Retry-After: 1) when limit429 is set, the rest with an empty object.
type arrivals struct {
	mu       sync.Mutex
	at       []time.Time
	paths    []string
	info     atomic.Int64
	limit429 bool
}

func (a *arrivals) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	first := len(a.at) == 0
	a.at = append(a.at, time.Now())
	a.paths = append(a.paths, r.URL.Path)
	a.mu.Unlock()
	if strings.HasSuffix(r.URL.Path, "/info") {
		a.info.Add(1)
	}
	if first && a.limit429 {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	_, _ = w.Write([]byte(`{}`))
}

func signedClient(t *testing.T, url string, opts ...api.Option) *api.Client {
	t.Helper()
	s, err := api.SignerFromHex(strings.Repeat("7a", 32))
	if err != nil {
		t.Fatal(err)
	}
	return api.New(url, append([]api.Option{api.WithSigner(s), api.WithRetry(api.RetryPolicy{Attempts: 1})}, opts...)...)
}

func order() []api.OrderWire {
	return []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "90000", Size: "0.01",
		Tif: api.TifGTC, Cloid: "5f0c1a2b-3c4d-4e5f-8a6b-000000000001"}}
}

// TestA429CoolsTheWholeHost (#34): after one 429 with Retry-After: 1, no request to that host goes
// out before the second is over: not the next polls of the client that got it, not another
// client's, not a signed order (it waits, then goes).
func TestA429CoolsTheWholeHost(t *testing.T) {
	t.Parallel()
	srv := &arrivals{limit429: true}
	hs := httptest.NewServer(srv)
	api.ForgetBudgetAfter(t, hs)
	defer hs.Close()
	a, b := signedClient(t, hs.URL), signedClient(t, hs.URL)
	ctx := context.Background()
	if _, err := a.Mids(ctx, ""); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("the first call: %v, want the 429", err)
	}
	var wg sync.WaitGroup
	for _, c := range []*api.Client{a, b, a, b} {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = c.Mids(ctx, "") }()
	}
	wg.Add(1)
	go func() { defer wg.Done(); _, _ = b.PlaceOrders(ctx, order()) }()
	wg.Wait()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.at) != 6 {
		t.Fatalf("%d requests reached the server, want 6: %v", len(srv.at), srv.paths)
	}
	for i, at := range srv.at[1:] {
		if gap := at.Sub(srv.at[0]); gap < time.Second {
			t.Errorf("request %d (%s) went out %v after the 429, inside its Retry-After of 1s", i+2, srv.paths[i+1], gap)
		}
	}
}

// TestALongCoolDownIsNotWaitedFor: a Retry-After longer than the request's timeout is not slept
// through: the next request fails at once, not sent, with the time left, for the caller's backoff.
func TestALongCoolDownIsNotWaitedFor(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	api.ForgetBudgetAfter(t, hs)
	defer hs.Close()
	c := signedClient(t, hs.URL, api.WithTimeout(5*time.Second))
	_, _ = c.Mids(context.Background(), "")
	_, err := c.PlaceOrders(context.Background(), order())
	e, ok := api.AsError(err)
	if !ok || e.Status != http.StatusTooManyRequests || e.RetryAfter < 59*time.Minute || api.IsAmbiguous(err) || n.Load() != 1 {
		t.Fatalf("the order during an hour's cool-down: %v (requests %d); want a 429 not sent, not ambiguous, an hour left", err, n.Load())
	}
}

// TestTradingIsNotStarvedByPolls (#34): with thirty-two pollers spending a host's budget as fast as it
// refills, an order goes out at once from the capacity kept for trading, not after the polls
// waiting before it.
func TestTradingIsNotStarvedByPolls(t *testing.T) {
	t.Parallel()
	srv := &arrivals{}
	hs := httptest.NewServer(srv)
	api.ForgetBudgetAfter(t, hs)
	defer hs.Close()
	limits := api.WithRequestBudget(api.BudgetLimits{Capacity: 4, PerSecond: 10, Reserve: 2})
	poller, trader := signedClient(t, hs.URL, limits), signedClient(t, hs.URL)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				_, _ = poller.Mids(ctx, "")
			}
		}()
	}
	for srv.info.Load() < 8 { // the budget is spent down to the reserve, the pollers queue
		time.Sleep(10 * time.Millisecond)
	}
	before := srv.info.Load()
	_, _ = trader.PlaceOrders(context.Background(), order())
	polled := srv.info.Load() - before
	cancel()
	wg.Wait()
	if polled > 3 {
		t.Errorf("%d polls went out while the order waited, want it first (at most 3 already under way)", polled)
	}
	t.Logf("polls while the order waited: %d", polled)
}

// TestExchangeClientsShareTheBudget: a client made by the endpoint rule every front end connects
// by (ResolveEndpoint's Options) is metered by DefaultBudget: an order from a second such client
// goes out before the polls of the first, which spend the host's budget as fast as it refills.
func TestExchangeClientsShareTheBudget(t *testing.T) {
	t.Parallel()
	srv := &arrivals{}
	hs := httptest.NewServer(srv)
	api.ForgetBudgetAfter(t, hs)
	defer hs.Close()
	ep, err := api.ResolveEndpoint(api.Endpoint{URL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	poller, trader := signedClient(t, hs.URL, ep.Options()...), signedClient(t, hs.URL, ep.Options()...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				_, _ = poller.Mids(ctx, "")
			}
		}()
	}
	for srv.info.Load() < int64(api.DefaultBudget.Capacity) {
		time.Sleep(10 * time.Millisecond)
	}
	before := srv.info.Load()
	_, _ = trader.PlaceOrders(context.Background(), order())
	polled := srv.info.Load() - before
	cancel()
	wg.Wait()
	if polled > 3 {
		t.Errorf("%d polls went out while the order waited, want it first (at most 3 already under way)", polled)
	}
}
