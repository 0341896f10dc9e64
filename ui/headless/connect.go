package headless

import (
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
)

// opts holds every flag; each command registers the ones it takes.
type opts struct {
	conn     Connection
	config   string
	json     bool
	slippage string
	user     string
	expiry   time.Duration // --expiry-window (0: Env.ExpiryWindow, else the api's 60 s)

	// order
	instrument, side, size, notional, price, tif, trigger, tpsl, cloid string
	market, reduceOnly, postOnly, yes, dryRun                          bool
	// cancel
	oid string
	// transfer and withdraw
	collateral, amount, to, from string
	toDerivatives, toSpot        bool
	chain                        int64
	// fills, history
	page, limit int
	// export
	format, output string
	// agent, leverage, broker
	agentName, valid, out, agent, broker, maxFeeRate string
	leverage                                         int
	// order --tp/--sl, modify, batch, stream
	par parityOpts
	// chase, scale, algos
	algo algoOpts
	// alerts watch
	alert alertOpts
	// risk halt --why
	riskWhy string
	// guard
	guard guardOpts
	// close, reverse, flatten, breakeven
	pos posOpts
	// report, pnl, trades
	rep reportOpts
}

// runner carries one command's run.
type runner struct {
	env    Env
	cmd    *command
	o      opts
	args   []string
	client api.Exchange
	signer *api.Signer
	// explicit holds the flags given on the command line (the rest may be config defaults).
	explicit map[string]bool
	// jsonDone says the command printed its own JSON (a failure adds none).
	jsonDone bool
	// watching is why a command that signs refuses when an account to watch was named and a key
	// exported (watchRefusal; "" otherwise).
	watching string
	// network names where the commands trade, for the journal's file: mainnet, testnet, or a
	// custom URL's host.
	network string
	// progress is the raw stderr, for the export's progress line (its \r rewrites the line; the
	// cleaned stderr would escape it). Only tradedesk's own counts are written to it.
	progress io.Writer
}

// connect builds the client from Env.Client or the connection flags, loading the key when one is
// given (api.ResolveEndpoint and keyfile.LoadSigner: the rules the console connects by too). An
// account named without a keystore (--address, --account alone, the config file's account) is
// read-only even with a key exported; an --address given with a keystore must be the keystore's.
func (r *runner) connect() error {
	c := r.o.conn
	if r.env.Client != nil {
		return r.givenClient()
	}
	ep, err := api.ResolveEndpoint(api.Endpoint{URL: c.URL, Network: c.Network, Insecure: c.Insecure, ActionType: c.ActionType})
	if err != nil {
		return usageError{err.Error()}
	}
	r.network = ep.Name
	opts := ep.Options()
	window, err := r.expiryWindow()
	if err != nil {
		return err
	}
	if window > 0 {
		opts = append(opts, api.WithExpiryWindow(window))
	}
	if r.env.HTTPClient != nil {
		opts = append(opts, api.WithHTTPClient(r.env.HTTPClient))
	}
	var signer *api.Signer
	if r.cmd.groups&(gKey|gAgent) != 0 {
		// A command that takes no key (tickers, instruments) loads none, and asks no passphrase.
		cred := r.credentials(ep.Name)
		if cred.EnvKeyIgnored() {
			r.watching = r.watchRefusal()
		}
		if signer, err = r.loadSigner(cred); err != nil {
			return err
		}
	}
	switch {
	case signer != nil:
		primeNonces(signer)
		r.signer = signer
		opts = append(opts, api.WithSigner(signer))
	case r.cmd.trades:
		return r.needsKey()
	case c.Address != "":
		opts = append(opts, api.WithAddress(c.Address))
	}
	client := api.New(ep.Base, opts...)
	if err := client.Err(); err != nil {
		return usageError{err.Error()}
	}
	r.client = client
	return nil
}

// givenClient takes the program's client (Env.Client): the connection flags are its, so the
// command line may not set them; the network is named by the defaults' endpoint ("client" when
// they name none).
func (r *runner) givenClient() error {
	c := r.o.conn
	if c.URL != r.env.Defaults.URL || c.Network != r.env.Defaults.Network || c.Keystore != r.env.Defaults.Keystore || c.AgentKeystore != r.env.Defaults.AgentKeystore {
		return usagef("--url, --network, --keystore and --agent-keystore are set by the program here; drop them")
	}
	r.client, r.network = r.env.Client, "client"
	if ep, err := api.ResolveEndpoint(api.Endpoint{URL: c.URL, Network: c.Network, Insecure: c.Insecure}); err == nil {
		r.network = ep.Name
	}
	return nil
}

// needsKey says which keys a trading command takes, when it was given none.
func (r *runner) needsKey() error {
	if r.watching != "" {
		return usagef("%s signs nothing: %s", r.cmd.name, r.watching)
	}
	if r.cmd.groups&gAgent != 0 {
		return usagef("%s needs a key: --keystore FILE, TRADEDESK_PRIVATE_KEY, or --agent-keystore FILE --account 0xACCOUNT (an address alone is read-only)", r.cmd.name)
	}
	return usagef("%s needs the account's own key: --keystore FILE or TRADEDESK_PRIVATE_KEY (an agent key cannot sign it)", r.cmd.name)
}

// credentials are the command's key and account for keyfile.LoadSigner. An account given on the
// command line is checked against a key; the config file's account only when no keystore is
// given, where it is watched (keyfile.Credentials.Watching: an exported key is not loaded).
func (r *runner) credentials(network string) keyfile.Credentials {
	c := r.o.conn
	address := ""
	if r.explicit["address"] || r.explicit["account"] || c.AgentKeystore != "" || c.Keystore == "" {
		address = c.Address
	}
	return keyfile.Credentials{Keystore: c.Keystore, AgentKeystore: c.AgentKeystore, Address: address, Network: network,
		Getenv: r.env.Getenv, Passphrase: r.env.Passphrase, Warn: r.env.Stderr}
}

// watchRefusal is why a trading command signs nothing when an account to watch was named and a
// key exported: the account wins, and the way out names what to drop.
func (r *runner) watchRefusal() string {
	switch {
	case r.explicit["address"]:
		return "--address opens read-only, but TRADEDESK_PRIVATE_KEY is set: unset it to watch, or drop --address to trade"
	case r.explicit["account"]:
		return "--account without --agent-keystore opens read-only, but TRADEDESK_PRIVATE_KEY is set: drop --account to trade with that key, or add --agent-keystore FILE to trade as an agent"
	}
	return "the config file's account opens read-only, but TRADEDESK_PRIVATE_KEY is set: remove account from the config file, or give --keystore FILE, to trade"
}

// loadSigner loads the key with keyfile.LoadSigner; an --address that is not the key's is a usage
// error. Read-only commands load the key too when it is given, to know the account.
func (r *runner) loadSigner(cred keyfile.Credentials) (*api.Signer, error) {
	s, err := keyfile.LoadSigner(cred)
	var wrong *keyfile.WrongAccountError
	if errors.As(err, &wrong) || (err != nil && cred.AgentKeystore != "" && !strings.Contains(err.Error(), "passphrase")) {
		return nil, usageError{err.Error()}
	}
	return s, err
}

// lastNonce is the highest nonce any command in this process signed with. Each command loads its
// own signer, whose nonce source starts from the clock; two commands run in the same millisecond
// (a script, a test) would reuse a nonce, which the exchange refuses. Priming every new signer
// with it keeps nonces increasing across commands.
var lastNonce atomic.Uint64

func primeNonces(s *api.Signer) {
	if last := lastNonce.Load(); last > 0 {
		s.Nonces().Next(time.UnixMilli(int64(last)))
	}
}

// recordNonces remembers the signer's last nonce for the next command.
func recordNonces(s *api.Signer) {
	if s == nil {
		return
	}
	n := s.Nonces().Last()
	for {
		last := lastNonce.Load()
		if n <= last || lastNonce.CompareAndSwap(last, n) {
			return
		}
	}
}

// account is the account read commands show: --user, else the client's.
func (r *runner) account() (string, error) {
	if r.o.user != "" {
		a, err := api.ChecksumAddress(r.o.user)
		if err != nil {
			return "", usagef("--user: %v", err)
		}
		return a, nil
	}
	if a := r.client.Address(); a != "" {
		return a, nil
	}
	return "", usagef("no account: give --user ADDR or --address ADDR, or a key (--keystore FILE or TRADEDESK_PRIVATE_KEY)")
}

// maxExpiryWindow is the furthest expiresAfter may lie after the nonce (the spec: one day).
const maxExpiryWindow = 24 * time.Hour

// expiryWindow is the window the command signs with: --expiry-window, else Env.ExpiryWindow
// (0: the api's default). Under a second a request may expire before it arrives; over a day the
// exchange refuses it.
func (r *runner) expiryWindow() (time.Duration, error) {
	w := r.o.expiry
	if !r.explicit["expiry-window"] {
		return r.env.ExpiryWindow, nil
	}
	if w < time.Second || w > maxExpiryWindow {
		return 0, usagef("--expiry-window %s: want 1s to 24h, how long an order or cancel stays valid after it is signed (for example 10s)", w)
	}
	return w, nil
}
