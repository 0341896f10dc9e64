package sim_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
	"github.com/tradedesk/tradedesk/api/sim"
)

// A test makes a simulator with a seed and a clock of its own, serves it, and trades on it with
// the api client. WithQuietMarkets keeps prices still so numbers are exact.
func ExampleNew() {
	clock := sim.NewTestClock(time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC))
	s := sim.New(sim.WithSeed(1), sim.WithClock(clock), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	defer srv.Close()

	key := hex.EncodeToString(secp.Keccak256([]byte("example")))
	signer, _ := api.SignerFromHex(key)
	// The simulator acts only for accounts it knows: fund this one (tradedesk sim --fund does the same).
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		fmt.Println(err)
		return
	}
	c := api.New(srv.URL, api.WithSigner(signer), api.WithClock(clock.Now))
	ctx := context.Background()
	r, err := c.PlaceOrders(ctx, []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
		Price: "97000", Size: "0.1", Tif: api.TifGTC}})
	if err != nil {
		fmt.Println(err)
		return
	}
	ids, _ := r.OrderIDs()
	book, _ := c.OrderBook(ctx, "BTC-PERP", 1)
	fmt.Println("order", ids[0], "rests at", book.Bids[0].Price, "size", book.Bids[0].Size)

	s.Advance(time.Minute) // a quiet market only ticks its clock
	sum, _ := c.AccountSummary(ctx, "")
	fmt.Println("available", sum.AvailableBalance)
	// Output:
	// order 1000001 rests at 97000 size 0.1
	// available 99027.5
}
