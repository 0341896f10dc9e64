package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/components/statusbar"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// startShadow is `tradedesk --shadow`: the live exchange of --network/--url mirrored in process
// (sim.Mirror: its market, its terms, nothing sent to its /exchange), served on loopback, and a
// paper wallet with a random in-memory key trading it over real HTTP: funded with
// --shadow-balance, or a copy of --address's balances and positions read from the live /info.
func startShadow(ctx context.Context, o options) (*connection, error) {
	if o.Keystore != "" || o.AgentKeystore != "" {
		return nil, headless.Usage(errors.New("--shadow trades a paper wallet and takes no key: drop --keystore/--agent-keystore (--address copies an account's balances and positions)"))
	}
	bal, err := decimal.NewFromString(strings.TrimSpace(o.ShadowBalance))
	if err != nil || bal.IsNegative() {
		return nil, headless.Usage(fmt.Errorf("--shadow-balance %q: want a non-negative number of USDC such as 25000", o.ShadowBalance))
	}
	ep, err := api.ResolveEndpoint(api.Endpoint{URL: o.URL, Network: o.Network, Insecure: o.Insecure, ActionType: o.ActionType})
	if err != nil {
		return nil, headless.Usage(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	mr, err := sim.NewMirror(mctx, sim.MirrorConfig{Upstream: ep.Base, Latency: -1, User: o.Address})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("shadow: %w", err)
	}
	signer, err := api.NewRandomSigner()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := openShadowWallet(ctx, mr, ep, signer.Address(), o.Address, bal); err != nil {
		cancel()
		return nil, fmt.Errorf("shadow: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		return nil, fmt.Errorf("shadow: cannot listen on loopback: %w", err)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = mr.Serve(mctx, ln)
	}()
	base := "http://" + ln.Addr().String() + "/"
	client := api.New(base, api.WithSigner(signer), api.WithHTTPClient(api.PollingHTTPClient()))
	maker, taker := mr.Sim.FeeRates()
	return &connection{client: client, mode: shadowMode(client, base, mr), network: statusbar.ShadowNetwork(ep.Name),
		close: func() { cancel(); <-served }, fees: &state.Fees{Maker: maker, Taker: taker}, mirror: mr}, nil
}

// shadowMode is the mode of a client on a mirror: SHADOW only when the client's transport is the
// mirror's loopback address (what is wired in, not what a flag asked), else read-only.
func shadowMode(c *api.Client, mirrorBase string, mr *sim.Mirror) ui.Mode {
	if mr != nil && c.CanTrade() && strings.TrimSuffix(c.BaseURL(), "/") == strings.TrimSuffix(mirrorBase, "/") {
		return ui.ModeShadow
	}
	return ui.ModeReadOnly
}

// openShadowWallet opens the paper wallet: a copy of the live account at address (its balances
// and positions, read over /info) or bal USDC.
func openShadowWallet(ctx context.Context, mr *sim.Mirror, ep api.Resolved, paper, address string, bal decimal.Decimal) error {
	if address == "" {
		return mr.Sim.Fund(paper, bal)
	}
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	live := api.New(ep.Base, ep.Options()...)
	sum, err := live.AccountSummary(rctx, address)
	if err != nil {
		return fmt.Errorf("reading %s's balances from the live exchange: %w", address, err)
	}
	pos, err := live.Positions(rctx, address)
	if err != nil {
		return fmt.Errorf("reading %s's positions from the live exchange: %w", address, err)
	}
	return mr.Sim.CopyAccount(paper, sum, pos)
}
