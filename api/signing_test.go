package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestBeforeSignSeesTheRequestAndCanStopIt: the WithBeforeSign function gets the nonce, the
// expiry and the exact action data before anything is signed, and its error stops the action.
func TestBeforeSignSeesTheRequestAndCanStopIt(t *testing.T) {
	c := newCloidSim(t)
	var seen []api.Signing
	ctx := api.WithBeforeSign(context.Background(), func(s api.Signing) error { seen = append(seen, s); return nil })
	restBidsCtx(t, ctx, c, cloidN(1))
	if len(seen) != 1 || seen[0].Action != api.ActionPlaceOrder || seen[0].Nonce == 0 || seen[0].ExpiresAfter <= seen[0].Nonce {
		t.Fatalf("before sign saw %+v", seen)
	}
	var d api.PlaceOrderData
	if err := json.Unmarshal(seen[0].Data, &d); err != nil || len(d.Orders) != 1 || d.Orders[0].Cloid != cloidN(1) || d.Nonce != seen[0].Nonce {
		t.Fatalf("the data is not the request: %s (%v)", seen[0].Data, err)
	}

	stop := errors.New("journal is full")
	ctx = api.WithBeforeSign(context.Background(), func(api.Signing) error { return stop })
	_, err := c.PlaceOrders(ctx, []api.OrderWire{bid(cloidN(2))})
	if !errors.Is(err, stop) || api.IsAmbiguous(err) {
		t.Fatalf("a refused signing must stop the send plainly: %v", err)
	}
	if found, err := api.FindCloid(context.Background(), c, c.Address(), cloidN(2)); err != nil || found != nil {
		t.Fatalf("the stopped order reached the exchange: %+v %v", found, err)
	}
}

func bid(cloid string) api.OrderWire {
	return api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
		Price: "50000", Size: "0.001", Tif: api.TifGTC, Cloid: cloid}
}

func restBidsCtx(t *testing.T, ctx context.Context, c *api.Client, cloid string) {
	t.Helper()
	if _, err := c.PlaceOrders(ctx, []api.OrderWire{bid(cloid)}); err != nil {
		t.Fatal(err)
	}
}

// TestSignedComesAfterBeforeSign (issue #41): the WithSigned function is called once an action
// is signed, after its WithBeforeSign, and not for an action that was stopped before signing.
// Guards: the latency route's "signed" stamp taken before the journal's commit, or for nothing.
func TestSignedComesAfterBeforeSign(t *testing.T) {
	c := newCloidSim(t)
	var seen []string
	ctx := api.WithBeforeSign(context.Background(), func(api.Signing) error { seen = append(seen, "before"); return nil })
	ctx = api.WithSigned(ctx, func() { seen = append(seen, "signed") })
	restBidsCtx(t, ctx, c, cloidN(3))
	if len(seen) != 2 || seen[0] != "before" || seen[1] != "signed" {
		t.Fatalf("saw %v, want before then signed", seen)
	}
	seen = nil
	ctx = api.WithBeforeSign(context.Background(), func(api.Signing) error { return errors.New("stop") })
	ctx = api.WithSigned(ctx, func() { seen = append(seen, "signed") })
	if _, err := c.PlaceOrders(ctx, []api.OrderWire{bid(cloidN(4))}); err == nil || len(seen) != 0 {
		t.Fatalf("a stopped action: %v, saw %v", err, seen)
	}
}
