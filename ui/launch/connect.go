package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/cli"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// Connection is what the console talks to, and what to stop when it quits.
type Connection struct {
	// Client is the exchange client the console reads and trades with.
	Client *api.Client
	// Mode is what the client can do: LIVE only when it holds a key (never taken from a flag).
	Mode ui.Mode
	// Network names the exchange's network ("demo", "testnet", shadow-NAME...): the journal's,
	// the command history's and the exports' directory go by it.
	Network string
	// ReadOnly is why the console cannot trade, for the status line ("": it can, or it has no key).
	ReadOnly string
	// Close stops what the connection started (the embedded simulator or mirror).
	Close func()
	// AgentUntil is when the agent key expires (zero: not an agent, or not known).
	AgentUntil time.Time
	// Fees are the exchange's fee rates when known: the embedded simulator's (nil: the defaults).
	Fees *state.Fees
	// Sim is the embedded simulator of the demo (nil otherwise), for tests that move its clock.
	Sim *sim.Sim
	// Mirror is the embedded mirror of a shadow session (nil otherwise).
	Mirror *sim.Mirror
	// Live is a shadow session's live client, on the live exchange with the trader's key (nil:
	// none).
	Live *api.Client
	// LiveNetwork names the network of Live's exchange.
	LiveNetwork string
}

// KeyEnv is where the console's key may come from besides its flags.
type KeyEnv struct {
	// Getenv is the environment's key and passphrase as main took them out of the environment
	// (api.TakeSecretEnv; nil: os.Getenv).
	Getenv func(string) string
	// AccountFromConfig says the address is the config file's account rather than a flag's.
	AccountFromConfig bool
	// AddressFlag is the flag that named the address, --address or --account (for the reason a
	// watch gives).
	AddressFlag string
}

// Connect builds the exchange client: the embedded demo when no URL or network is given, else a
// real exchange with a key (keystore or environment) or read-only with an address. The endpoint
// and key rules are api.ResolveEndpoint's and keyfile.LoadSigner's, shared with the headless commands:
// an address without a keystore never loads a key, not even an exported one.
func Connect(ctx context.Context, o cli.ConsoleOptions, stderr io.Writer, env KeyEnv) (*Connection, error) {
	if o.URL == "" && o.Network == "" {
		if o.Keystore != "" || o.Address != "" || o.AgentKeystore != "" {
			return nil, headless.Usage(errors.New("--keystore, --agent-keystore and --address need an exchange: add --network mainnet|testnet or --url URL"))
		}
		if err := sim.CheckMarkets(o.Markets); err != nil {
			return nil, headless.Usage(fmt.Errorf("--markets: %w", err))
		}
		return StartDemo(ctx, Demo{Seed: o.Seed, Empty: o.Empty, Markets: o.Markets})
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
	cred := keyfile.Credentials{Keystore: o.Keystore, AgentKeystore: o.AgentKeystore, Address: o.Address, Network: ep.Name, Getenv: env.Getenv, Warn: stderr}
	signer, err := keyfile.LoadSigner(cred)
	if err != nil {
		return nil, err
	}
	opts := append([]api.Option{api.WithHTTPClient(api.PollingHTTPClient())}, ep.Options()...)
	c := &Connection{Network: ep.Name, Close: func() {}}
	switch {
	case signer != nil:
		opts = append(opts, api.WithSigner(signer))
	case o.Address != "":
		opts = append(opts, api.WithAddress(o.Address))
		c.ReadOnly = watchReason(cred, env)
	default:
		c.ReadOnly = "no account given: markets only; use --keystore to trade or --address to watch"
	}
	c.Client = api.New(ep.Base, opts...)
	if err := c.Client.Err(); err != nil {
		return nil, err
	}
	c.Mode = ui.ModeReadOnly
	if c.Client.CanTrade() {
		c.Mode = ui.ModeLive
	}
	if c.Client.IsAgent() {
		if c.AgentUntil, err = agentExpiry(ctx, c.Client, signer.Address()); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// watchReason says why a console watching an address is read-only, and, when a key is exported
// but not used, how to trade with it instead.
func watchReason(cred keyfile.Credentials, env KeyEnv) string {
	switch {
	case !cred.EnvKeyIgnored():
		return "watching an address without its key; add --keystore FILE to trade"
	case env.AccountFromConfig:
		return "watching the config file's account without a key: $" + api.EnvPrivateKey + " is set but not used; remove account from the config file to trade with it"
	case env.AddressFlag == "--account":
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
