package headless

import (
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// opts holds every flag; each command registers the ones it takes.
type opts struct {
	conn     Connection
	config   string
	json     bool
	slippage string
	user     string

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
	// agent, leverage, broker (control.go)
	agentName, valid, out, agent, broker, maxFeeRate string
	leverage                                         int
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
	// progress is the raw stderr, for the export's progress line (its \r rewrites the line; the
	// cleaned stderr would escape it). Only tradedesk's own counts are written to it.
	progress io.Writer
}

// connect builds the client from Env.Client or the connection flags, loading the key when one is
// given (api.ResolveEndpoint and api.LoadSigner: the rules the console connects by too). The
// config file's read-only account does not override a key's; an --address given with a key must
// be the key's.
func (r *runner) connect() error {
	c := r.o.conn
	if r.env.Client != nil {
		if c.URL != r.env.Defaults.URL || c.Network != r.env.Defaults.Network || c.Keystore != r.env.Defaults.Keystore || c.AgentKeystore != r.env.Defaults.AgentKeystore {
			return usagef("--url, --network, --keystore and --agent-keystore are set by the program here; drop them")
		}
		r.client = r.env.Client
		return nil
	}
	ep, err := api.ResolveEndpoint(api.Endpoint{URL: c.URL, Network: c.Network, Insecure: c.Insecure, ActionType: c.ActionType})
	if err != nil {
		return usageError{err.Error()}
	}
	opts := ep.Options()
	if r.env.HTTPClient != nil {
		opts = append(opts, api.WithHTTPClient(r.env.HTTPClient))
	}
	var signer *api.Signer
	if r.cmd.groups&(gKey|gAgent) != 0 {
		// A command that takes no key (tickers, instruments) loads none, and asks no passphrase.
		if signer, err = r.loadSigner(ep.Name); err != nil {
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

// needsKey says which keys a trading command takes, when it was given none.
func (r *runner) needsKey() error {
	if r.cmd.groups&gAgent != 0 {
		return usagef("%s needs a key: --keystore FILE, TRADEDESK_PRIVATE_KEY, or --agent-keystore FILE --account 0xACCOUNT (an address alone is read-only)", r.cmd.name)
	}
	return usagef("%s needs the account's own key: --keystore FILE or TRADEDESK_PRIVATE_KEY (an agent key cannot sign it)", r.cmd.name)
}

// loadSigner loads the key with api.LoadSigner; an --address that is not the key's is a usage
// error. Read-only commands load the key too when it is given, to know the account.
func (r *runner) loadSigner(network string) (*api.Signer, error) {
	address := ""
	if r.explicit["address"] || r.explicit["account"] || r.o.conn.AgentKeystore != "" {
		address = r.o.conn.Address
	}
	s, err := api.LoadSigner(api.Credentials{Keystore: r.o.conn.Keystore, AgentKeystore: r.o.conn.AgentKeystore, Address: address, Network: network,
		Getenv: r.env.Getenv, Passphrase: r.env.Passphrase, Warn: r.env.Stderr})
	var wrong *api.WrongAccountError
	if errors.As(err, &wrong) || (err != nil && r.o.conn.AgentKeystore != "" && !strings.Contains(err.Error(), "passphrase")) {
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
