// Package sim is tradedesk's simulated exchange: an http.Handler that speaks the Exchange Trading
// API (POST /exchange for signed actions, POST /info for queries) over a real matching engine,
// accounts with margin and liquidation, and markets that move on their own.
//
// Make one with New and functional options, serve it like any handler, and drive its markets with
// Run (real time) or Advance (a test clock):
//
//	clock := sim.NewTestClock(time.UnixMilli(1769690420000))
//	s := sim.New(sim.WithSeed(1), sim.WithClock(clock))
//	srv := httptest.NewServer(s)
//	s.Advance(time.Minute) // moves the clock and runs the market loop deterministically
//
// For the demo or `tradedesk sim`, Serve runs the HTTP server and the market loop together:
//
//	s := sim.New(sim.WithSeed(seed), sim.WithFaults(f))
//	err := s.Serve(ctx, listener)
//
// With the same seed, clock and requests the simulator gives the same answers.
package sim
