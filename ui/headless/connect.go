package headless

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
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
	fs.BoolVar(&o.conn.Insecure, "insecure", o.conn.Insecure, "allow a plain http:// URL that is not loopback")
	fs.BoolVar(&o.json, "json", false, "print the raw records as JSON")
	fs.StringVar(&o.slippage, "slippage", "", "market order worst-price bound, as a fraction (0.01) or percent (1%); default 1%")
	if r.cmd.flags != nil {
		r.cmd.flags(fs, o)
	}
	return fs
}

// connect builds the client from Env.Client or the connection flags, loading the key when the
// command trades.
func (r *runner) connect() error {
	c := r.o.conn
	if r.env.Client != nil {
		if c.URL != r.env.Defaults.URL || c.Network != r.env.Defaults.Network || c.Keystore != r.env.Defaults.Keystore {
			return usagef("--url, --network and --keystore are set by the program here; drop them")
		}
		r.client = r.env.Client
		return nil
	}
	base, netOpt, err := resolveURL(c)
	if err != nil {
		return err
	}
	opts := []api.Option{}
	if netOpt != nil {
		opts = append(opts, api.WithNetwork(*netOpt))
	}
	if r.env.HTTPClient != nil {
		opts = append(opts, api.WithHTTPClient(r.env.HTTPClient))
	}
	signer, err := r.loadSigner()
	if err != nil {
		return err
	}
	if signer != nil {
		primeNonces(signer)
		r.signer = signer
		opts = append(opts, api.WithSigner(signer))
	} else if r.cmd.trades {
		return usagef("%s needs a key: --keystore FILE or TRADEDESK_PRIVATE_KEY (--address is read-only)", r.cmd.name)
	}
	if signer != nil && !r.explicit["address"] {
		c.Address = "" // the config's read-only account does not override the key's
	}
	if c.Address != "" && (signer == nil || !r.cmd.trades) {
		if signer != nil && !api.SameAddress(c.Address, signer.Address()) {
			return usagef("--address %s is not the key's address %s; drop one of them", c.Address, signer.Address())
		}
		opts = append(opts, api.WithAddress(c.Address))
	}
	client := api.New(base, opts...)
	if err := client.Err(); err != nil {
		return usageError{err.Error()}
	}
	r.client = client
	return nil
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

// resolveURL picks the base URL: --url, else --network's URL. A plain http:// URL is refused
// unless it points at this machine or --insecure is given. A --url that is a known network's URL
// signs for that network.
func resolveURL(c Connection) (string, *api.Network, error) {
	if c.URL != "" && c.Network != "" {
		return "", nil, usagef("give --url or --network, not both")
	}
	if c.URL == "" && c.Network == "" {
		return "", nil, usagef("no exchange: give --url URL or --network mainnet|testnet")
	}
	if c.Network != "" {
		n, err := api.LookupNetwork(c.Network)
		if err != nil {
			return "", nil, usageError{err.Error()}
		}
		return n.URL, &n, nil
	}
	if err := checkURL(c.URL, c.Insecure); err != nil {
		return "", nil, err
	}
	for _, n := range api.Networks() {
		if strings.TrimRight(n.URL, "/") == strings.TrimRight(c.URL, "/") {
			n := n
			return c.URL, &n, nil
		}
	}
	return c.URL, nil, nil
}

// checkURL accepts https, and http only for loopback hosts unless insecure.
func checkURL(raw string, insecure bool) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return usagef("--url %q is not an absolute URL like https://api.example.com/", oneLine(raw))
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if insecure || isLoopback(u.Hostname()) {
			return nil
		}
		return usagef("--url %s is plain http to another machine: use https, or add --insecure if you really mean it", u.Redacted())
	}
	return usagef("--url %q: want an http or https URL", oneLine(raw))
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loadSigner loads the key from --keystore, else from TRADEDESK_PRIVATE_KEY; nil when neither is
// given. Read-only commands load it too when it is given, to know the account.
func (r *runner) loadSigner() (*api.Signer, error) {
	if ks := r.o.conn.Keystore; ks != "" {
		pass, err := r.passphrase(ks)
		if err != nil {
			return nil, err
		}
		s, err := api.SignerFromKeystore(ks, pass)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	if hexKey := r.env.Getenv(api.EnvPrivateKey); hexKey != "" {
		s, err := api.SignerFromHex(hexKey)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", api.EnvPrivateKey, err)
		}
		return s, nil
	}
	return nil, nil
}

func (r *runner) passphrase(file string) (string, error) {
	if p := r.env.Getenv(api.EnvPassphrase); p != "" {
		return p, nil
	}
	prompt := "Passphrase for " + file + ": "
	if r.env.Passphrase != nil {
		return r.env.Passphrase(prompt)
	}
	return api.PassphraseSource(prompt)()
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
