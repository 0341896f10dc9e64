package headless

import (
	"errors"
	"flag"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// opts holds every flag; each command registers the ones it takes.
type opts struct {
	conn     Connection
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
	// progress is the raw stderr, for the export's progress line (its \r rewrites the line; the
	// cleaned stderr would escape it). Only tradedesk's own counts are written to it.
	progress io.Writer
}

// overrideDefaults lets a connection flag on the command line replace the config file's choice:
// --url drops the config's network and --network its URL.
func (r *runner) overrideDefaults() {
	c := &r.o.conn
	if r.explicit["url"] && !r.explicit["network"] {
		c.Network = ""
	}
	if r.explicit["network"] && !r.explicit["url"] {
		c.URL = ""
	}
}

// flagSet declares the global flags and the command's own.
func (r *runner) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("tradedesk "+r.cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := &r.o
	o.conn = r.env.Defaults
	fs.StringVar(&o.conn.URL, "url", o.conn.URL, "exchange API base `URL` (plain http:// only for loopback unless --insecure)")
	fs.StringVar(&o.conn.Network, "network", o.conn.Network, "exchange network: mainnet or testnet")
	fs.StringVar(&o.conn.Keystore, "keystore", o.conn.Keystore, "V3 keystore `FILE` with the key (passphrase from $TRADEDESK_PASSPHRASE or asked)")
	fs.StringVar(&o.conn.Address, "address", o.conn.Address, "account `0x...` to read (no key)")
	fs.StringVar(&o.conn.Address, "account", o.conn.Address, "the account `0x...` an --agent-keystore acts for (or, alone, to read)")
	fs.StringVar(&o.conn.AgentKeystore, "agent-keystore", o.conn.AgentKeystore, "V3 keystore `FILE` with an agent wallet's key: trades (orders and cancels only) for --account")
	fs.BoolVar(&o.conn.Insecure, "insecure", o.conn.Insecure, "allow a plain http:// URL that is not loopback")
	fs.StringVar(&o.conn.ActionType, "action-type", o.conn.ActionType, "how requests name their action: number (the official SDKs' form; default on mainnet and testnet) or name (the spec's; default on a custom --url)")
	fs.BoolVar(&o.json, "json", false, "print the raw records as JSON")
	fs.StringVar(&o.slippage, "slippage", "", "market order worst-price bound, as a fraction (0.01) or percent (1%); default 1%")
	if r.cmd.flags != nil {
		r.cmd.flags(fs, o)
	}
	return fs
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
	signer, err := r.loadSigner(ep.Name)
	if err != nil {
		return err
	}
	switch {
	case signer != nil:
		primeNonces(signer)
		r.signer = signer
		opts = append(opts, api.WithSigner(signer))
	case r.cmd.trades:
		return usagef("%s needs a key: --keystore FILE, TRADEDESK_PRIVATE_KEY, or --agent-keystore FILE --account 0xACCOUNT (--address alone is read-only)", r.cmd.name)
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
