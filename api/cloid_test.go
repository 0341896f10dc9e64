package api_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
	"github.com/tradedesk/tradedesk/api/sim"
)

// cloidN is a distinct UUID-shaped client id for order n of a test.
func cloidN(n int) string { return fmt.Sprintf("0f8fad5b-d9cb-469f-a165-%012d", n) }

// newCloidSim serves a quiet simulator over loopback HTTP and returns a client trading on it.
func newCloidSim(t *testing.T) *api.Client {
	t.Helper()
	clock := sim.NewTestClock(time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC))
	s := sim.New(sim.WithSeed(7), sim.WithClock(clock), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(hex.EncodeToString(secp.Keccak256([]byte("cloid lookup"))))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	return api.New(srv.URL, api.WithSigner(signer), api.WithClock(clock.Now))
}

// restBids places n small resting bids far below the market, with cloids cloidN(from..from+n-1),
// in requests of up to 100 orders (the exchange's limit).
func restBids(t *testing.T, c *api.Client, from, n int) {
	t.Helper()
	for done := 0; done < n; done += 100 {
		orders := make([]api.OrderWire, min(100, n-done))
		for i := range orders {
			orders[i] = api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
				Price: "50000", Size: "0.001", Tif: api.TifGTC, Cloid: cloidN(from + done + i)}
		}
		r, err := c.PlaceOrders(context.Background(), orders)
		if err != nil {
			t.Fatal(err)
		}
		if ids, err := r.OrderIDs(); err != nil || len(ids) != len(orders) {
			t.Fatalf("placed %d of %d orders: %v", len(ids), len(orders), err)
		}
	}
}

// onFirstPage reports whether cloid is on page 1 of the open orders or of the order history.
func onFirstPage(t *testing.T, c *api.Client, cloid string) (open, hist bool) {
	t.Helper()
	ctx := context.Background()
	o, err := c.OpenOrders(ctx, "", api.PageParams{Page: 1, Limit: api.DefaultPageSize})
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.OrderHistory(ctx, "", api.PageParams{Page: 1, Limit: api.DefaultPageSize})
	if err != nil {
		t.Fatal(err)
	}
	has := func(list []api.OrderRecord) bool {
		for _, r := range list {
			if r.Cloid == cloid {
				return true
			}
		}
		return false
	}
	return has(o.Data), has(h.Data)
}

// TestFindCloidOnLaterPages covers the cases where the console's lookup and the headless one used
// to disagree: an order beyond the first page of open orders, and one beyond the first page of
// history. Guards against reading only page 1 (the headless lookup's old scope).
func TestFindCloidOnLaterPages(t *testing.T) {
	t.Parallel()
	c := newCloidSim(t)
	ctx := context.Background()
	restBids(t, c, 0, 250)
	deep := cloidN(0)
	if open, _ := onFirstPage(t, c, deep); open {
		t.Fatalf("precondition: %s is on page 1 of the open orders, the test would not reach page 2", deep)
	}
	found, err := api.FindCloid(ctx, c, c.Address(), deep)
	if err != nil || found == nil || found.Cloid != deep || found.State != api.StateOpen {
		t.Fatalf("open order beyond page 1: %+v, %v", found, err)
	}

	if _, err := c.CancelAll(ctx); err != nil {
		t.Fatal(err)
	}
	restBids(t, c, 1000, 150) // newer history pushes the cancelled orders down
	if open, hist := onFirstPage(t, c, deep); open || hist {
		t.Fatalf("precondition: cancelled %s is still on a first page (open %v, history %v)", deep, open, hist)
	}
	found, err = api.FindCloid(ctx, c, c.Address(), deep)
	if err != nil || found == nil || found.Cloid != deep || found.State == api.StateOpen {
		t.Fatalf("cancelled order beyond history page 1: %+v, %v", found, err)
	}
}

// TestFindCloidExactMatch: a cloid is free text to the exchange, so another case is another order.
// Guards against the headless lookup's old strings.EqualFold.
func TestFindCloidExactMatch(t *testing.T) {
	c := newCloidSim(t)
	restBids(t, c, 0, 1)
	upper := strings.ToUpper(cloidN(0))
	if found, err := api.FindCloid(context.Background(), c, c.Address(), upper); err != nil || found != nil {
		t.Fatalf("%s matched %+v (err %v); only %s was placed", upper, found, err, cloidN(0))
	}
	if found, err := api.FindCloid(context.Background(), c, c.Address(), cloidN(0)); err != nil || found == nil {
		t.Fatalf("the exact cloid was not found: %v", err)
	}
}

// TestFindCloidAbsentAndBounded: a cloid never placed is not found (nil, no error), and history is
// read no deeper than LookupHistoryPages pages. Guards against a dropped page bound and against an
// empty cloid matching orders placed without one.
func TestFindCloidAbsentAndBounded(t *testing.T) {
	t.Parallel()
	c := newCloidSim(t)
	ctx := context.Background()
	restBids(t, c, 0, 1)
	if _, err := c.CancelAll(ctx); err != nil {
		t.Fatal(err)
	}
	oldest := cloidN(0)
	for batch := range api.LookupHistoryPages {
		restBids(t, c, 1000*(batch+1), api.DefaultPageSize)
		if _, err := c.CancelAll(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if found, err := api.FindCloid(ctx, c, c.Address(), oldest); err != nil || found != nil {
		t.Fatalf("an order deeper than %d history pages was found: %+v, %v", api.LookupHistoryPages, found, err)
	}
	if found, err := api.FindCloid(ctx, c, c.Address(), cloidN(999)); err != nil || found != nil {
		t.Fatalf("a cloid never placed: %+v, %v", found, err)
	}
	if _, err := api.FindCloid(ctx, c, c.Address(), ""); err == nil {
		t.Fatal("an empty cloid must be an error, not a match")
	}
}

// TestCheckCloid: any text the exchange takes passes; the boundary is MaxCloidLen bytes exactly.
func TestCheckCloid(t *testing.T) {
	for _, ok := range []string{"ts-order-1769690420567", "0f8fad5b-d9cb-469f-a165-70867728950e", "bar-cloid-1",
		strings.Repeat("x", api.MaxCloidLen), "0x" + strings.Repeat("a", 31)} {
		if err := api.CheckCloid(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"":                                     "empty",
		strings.Repeat("x", api.MaxCloidLen+1): "129 bytes long",
		"a\tb":                                 "control character (U+0009)",
		"a\u0085b":                             "control character (U+0085)",
		"\xff":                                 "not valid UTF-8",
		strings.Repeat("7", 32):                "shape of a private key",
	} {
		if err := api.CheckCloid(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
}
