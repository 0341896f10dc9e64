package launch

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui"
)

// Demo is what the embedded demo starts from.
type Demo struct {
	// Seed seeds the market and the wallet's key (0: a random one, and a random wallet).
	Seed int64
	// Markets is how many synthetic markets to add (--markets).
	Markets int
	// Empty opens a bare wallet instead of a seeded one.
	Empty bool
	// Clock is the simulator's and the client's clock (nil: the system's; tests give their own).
	Clock sim.Clock
}

// StartDemo starts the embedded simulator and its market loop on a free loopback port, opens the
// demo wallet (funded in process before the first request; unless empty, funded and seeded with
// positions and resting orders by trades on the simulator, sim.SeedDemo), and returns a client trading it
// over real HTTP. With a seed, the wallet's key comes from it (sim.DemoSigner), so the same seed
// opens the same wallet and the same market whatever the time it starts at; without one, the key
// is random and exists only in memory.
func StartDemo(ctx context.Context, d Demo) (*Connection, error) {
	signer, err := demoSigner(d.Seed)
	if err != nil {
		return nil, err
	}
	if d.Seed == 0 {
		d.Seed = time.Now().UnixNano()
	}
	opts := []sim.Option{sim.WithSeed(uint64(d.Seed)), sim.WithMarkets(d.Markets)}
	copts := []api.Option{api.WithSigner(signer), api.WithHTTPClient(api.PollingHTTPClient())}
	if d.Clock != nil {
		opts = append(opts, sim.WithClock(d.Clock))
		copts = append(copts, api.WithClock(d.Clock.Now))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo: cannot listen on loopback: %w", err)
	}
	s := sim.New(opts...)
	err = openDemoWallet(s, signer.Address(), d.Empty)
	if err == nil {
		err = s.AddVault(DemoVault) // the Vaults view has a vault to deposit into
	}
	if err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("demo: %w", err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = s.Serve(runCtx, ln)
	}()
	stop := func() { cancel(); <-served }
	client := api.New("http://"+ln.Addr().String()+"/", copts...)
	maker, taker := sim.FeeRates()
	return &Connection{Client: client, Mode: ui.ModeDemo, Network: "demo", Close: stop, Fees: &state.Fees{Maker: maker, Taker: taker},
		Sim: s}, nil
}

// DemoVault is the embedded demo's vault (issue #42's Vaults view): t in the view, then this
// address and an amount.
const DemoVault = "0x7a11700000000000000000000000000000000001"

// demoSigner is the demo wallet's signer: derived from the seed when one is given, else random.
func demoSigner(seed int64) (*api.Signer, error) {
	if seed == 0 {
		return api.NewRandomSigner()
	}
	return sim.DemoSigner(uint64(seed))
}

// openDemoWallet funds the demo wallet in process (the simulator acts only for accounts it
// knows): a bare wallet now (sim.Fund), a seeded one (sim.SeedDemo) before its first trade, so
// its deposits come first in its history.
func openDemoWallet(s *sim.Sim, addr string, empty bool) error {
	if empty {
		return s.Fund(addr, s.DemoBalance())
	}
	return s.SeedDemo(addr)
}
