package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// connection is what the console talks to, and what to stop when it quits.
type connection struct {
	client *api.Client
	// mode is what the client can do: LIVE only when it holds a key (never taken from a flag).
	mode     ui.Mode
	network  string
	readOnly string
	close    func()
	// agentUntil is when the agent key expires (zero: not an agent, or not known).
	agentUntil time.Time
	// fees are the exchange's fee rates when known: the embedded simulator's (nil: the defaults).
	fees *state.Fees
	// sim is the embedded simulator of the demo (nil otherwise), for tests that move its clock.
	sim *sim.Sim
	// mirror is the embedded mirror of a shadow session (nil otherwise).
	mirror *sim.Mirror
	// live is a shadow session's live client, on the live exchange with the trader's key (nil:
	// none); liveNetwork names that exchange's network.
	live        *api.Client
	liveNetwork string
}

// keyEnv is where the console's key may come from besides its flags: the environment's key and
// passphrase as run took them out of the environment (api.TakeSecretEnv; nil: os.Getenv), and
// whether the address is the config file's account rather than a flag's, and which flag named
// it, --address or --account (for the reason a watch gives).
type keyEnv struct {
	getenv            func(string) string
	accountFromConfig bool
	addressFlag       string
}

// connect builds the exchange client: the embedded demo when no URL or network is given, else a
// real exchange with a key (keystore or environment) or read-only with an address. The endpoint
// and key rules are api.ResolveEndpoint's and api.LoadSigner's, shared with the headless commands:
// an address without a keystore never loads a key, not even an exported one.
func connect(ctx context.Context, o options, stderr io.Writer, env keyEnv) (*connection, error) {
	if o.URL == "" && o.Network == "" {
		if o.Keystore != "" || o.Address != "" || o.AgentKeystore != "" {
			return nil, headless.Usage(errors.New("--keystore, --agent-keystore and --address need an exchange: add --network mainnet|testnet or --url URL"))
		}
		if err := sim.CheckMarkets(o.Markets); err != nil {
			return nil, headless.Usage(fmt.Errorf("--markets: %w", err))
		}
		return startDemo(ctx, demoSpec{seed: o.Seed, empty: o.Empty, markets: o.Markets})
	}
	if o.Shadow {
		return startShadow(ctx, o, stderr, env)
	}
	if o.Markets != 0 {
		return nil, headless.Usage(errors.New("--markets adds synthetic markets to the demo: drop it, or run tradedesk sim --markets N and connect with --url"))
	}
	ep, err := api.ResolveEndpoint(api.Endpoint{URL: o.URL, Network: o.Network, Insecure: o.Insecure, ActionType: o.ActionType})
	if err != nil {
		return nil, headless.Usage(err) // --network moon, a plain http URL: flags to fix, as the commands say
	}
	cred := api.Credentials{Keystore: o.Keystore, AgentKeystore: o.AgentKeystore, Address: o.Address, Network: ep.Name, Getenv: env.getenv, Warn: stderr}
	signer, err := api.LoadSigner(cred)
	if err != nil {
		return nil, err
	}
	opts := append([]api.Option{api.WithHTTPClient(api.PollingHTTPClient())}, ep.Options()...)
	c := &connection{network: ep.Name, close: func() {}}
	switch {
	case signer != nil:
		opts = append(opts, api.WithSigner(signer))
	case o.Address != "":
		opts = append(opts, api.WithAddress(o.Address))
		c.readOnly = watchReason(cred, env)
	default:
		c.readOnly = "no account given: markets only; use --keystore to trade or --address to watch"
	}
	c.client = api.New(ep.Base, opts...)
	if err := c.client.Err(); err != nil {
		return nil, err
	}
	c.mode = ui.ModeReadOnly
	if c.client.CanTrade() {
		c.mode = ui.ModeLive
	}
	if c.client.IsAgent() {
		if c.agentUntil, err = agentExpiry(ctx, c.client, signer.Address()); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// watchReason says why a console watching an address is read-only, and, when a key is exported
// but not used, how to trade with it instead.
func watchReason(cred api.Credentials, env keyEnv) string {
	switch {
	case !cred.EnvKeyIgnored():
		return "watching an address without its key; add --keystore FILE to trade"
	case env.accountFromConfig:
		return "watching the config file's account without a key: $" + api.EnvPrivateKey + " is set but not used; remove account from the config file to trade with it"
	case env.addressFlag == "--account":
		return "watching --account without --agent-keystore: $" + api.EnvPrivateKey + " is set but not used; drop --account to trade with it, or add --agent-keystore FILE to trade as its agent"
	}
	return "watching --address without a key: $" + api.EnvPrivateKey + " is set but not used; drop --address to trade with it"
}

// agentExpiry looks the agent up in the account's allAgents (profile.CheckAgent, as the headless
// commands do): an agent the exchange does not list stops the start with what to do; one about to
// expire is logged (the top bar shows it); an exchange that cannot say leaves the expiry unknown
// (zero).
func agentExpiry(ctx context.Context, c *api.Client, agent string) (time.Time, error) {
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	check, lookupErr, err := profile.CheckAgent(lctx, c, c.Address(), agent, time.Now())
	if lookupErr != nil {
		slog.Warn("agent expiry unknown", "err", lookupErr)
	}
	if check.Warning != "" {
		slog.Warn(check.Warning)
	}
	return check.Until, err
}
