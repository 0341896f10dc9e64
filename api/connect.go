package api

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// Endpoint is where a front end is asked to connect: --url or --network, and --insecure.
type Endpoint struct {
	URL      string
	Network  string
	Insecure bool // allow plain http:// to a host that is not loopback
	// ActionType is how action.type is written: "" or "auto" (the number on mainnet and
	// testnet, the spec's name elsewhere), "number" or "name".
	ActionType string
}

// Resolved is a checked Endpoint: the base URL, the network its actions are signed for (nil for an
// exchange that is neither mainnet nor testnet) and a name for it (the network's, or the host's).
type Resolved struct {
	Base       string
	Network    *Network
	Name       string
	ActionType ActionTypeForm
}

// Options are the client options the resolved endpoint asks for.
func (r Resolved) Options() []Option {
	opts := []Option{WithActionType(r.ActionType), WithRequestBudget(DefaultBudget)}
	if r.Network != nil {
		opts = append(opts, WithNetwork(*r.Network))
	}
	return opts
}

// ErrNoExchange is returned by ResolveEndpoint when neither a URL nor a network is given.
var ErrNoExchange = errors.New("no exchange: give --url URL or --network mainnet|testnet")

// ResolveEndpoint checks an endpoint, the one rule every front end connects by: exactly one of
// URL and network; a URL must be https, or plain http only to this machine unless Insecure (signed
// orders must not cross a network unencrypted); a URL that is a known network's URL signs for
// that network.
func ResolveEndpoint(e Endpoint) (Resolved, error) {
	form, err := ParseActionTypeForm(e.ActionType)
	if err != nil {
		return Resolved{}, err
	}
	r, err := resolveBase(e)
	r.ActionType = form
	return r, err
}

func resolveBase(e Endpoint) (Resolved, error) {
	switch {
	case e.URL != "" && e.Network != "":
		return Resolved{}, errors.New("give --url or --network, not both (the config file's url or network counts)")
	case e.URL == "" && e.Network == "":
		return Resolved{}, ErrNoExchange
	case e.Network != "":
		n, err := LookupNetwork(e.Network)
		if err != nil {
			return Resolved{}, err
		}
		return Resolved{Base: n.URL, Network: &n, Name: n.Name}, nil
	}
	u, err := CheckURL(e.URL, e.Insecure)
	if err != nil {
		return Resolved{}, err
	}
	for _, n := range Networks() {
		if strings.TrimRight(n.URL, "/") == strings.TrimRight(e.URL, "/") {
			return Resolved{Base: e.URL, Network: &n, Name: n.Name}, nil
		}
	}
	return Resolved{Base: e.URL, Name: u.Host}, nil
}

// CheckURL accepts an absolute https URL, and plain http only to a loopback host unless insecure.
func CheckURL(raw string, insecure bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("--url %s: want an absolute http:// or https:// URL like https://api.example.com/", text.Quote(raw))
	}
	if u.Scheme == "https" || insecure || isLoopbackHost(u.Hostname()) {
		return u, nil
	}
	return nil, fmt.Errorf("--url %s is plain http to a host that is not loopback: signed orders would cross the network unencrypted; use https, or pass --insecure if you mean it", text.Quote(u.Redacted()))
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Credentials say where a front end's key and account come from.
type Credentials struct {
	// Keystore is a V3 keystore file holding the key ("" for none).
	Keystore string
	// AgentKeystore is a V3 keystore file holding an agent wallet's key ("" for none). The agent
	// acts for Address, which is then required: the account that registered the agent.
	AgentKeystore string
	// Address is the account asked for; with a key it must be the key's account ("" for none).
	Address string
	// Network names the network, for the warning about a mainnet key from the environment.
	Network string
	// Getenv reads TRADEDESK_PRIVATE_KEY and TRADEDESK_PASSPHRASE (nil: os.Getenv). An empty
	// variable counts as unset.
	Getenv func(string) string
	// Passphrase asks for the keystore passphrase when TRADEDESK_PASSPHRASE is empty (nil: a
	// prompt on the terminal without echo).
	Passphrase func(prompt string) (string, error)
	// Warn receives the warning about a mainnet key from the environment (nil: not shown).
	Warn io.Writer
}

// WrongAccountError is LoadSigner's error when the account asked for is not the key's.
type WrongAccountError struct {
	Address string // the account asked for
	Key     string // the key's account
	Source  string // where the key came from: "the keystore's"
}

// Error says which account the flag and the key name and how to fix it.
func (e *WrongAccountError) Error() string {
	return fmt.Sprintf("--address %s is not %s address %s; drop one of them", text.Quote(e.Address), e.Source, e.Key)
}

// Watching reports whether c names an account to watch: an address with neither a keystore nor
// an agent keystore. Such credentials never load a key, not even $TRADEDESK_PRIVATE_KEY: an
// address opens read-only whatever the shell exports.
func (c Credentials) Watching() bool {
	return c.Address != "" && c.Keystore == "" && c.AgentKeystore == ""
}

// EnvKeyIgnored reports whether $TRADEDESK_PRIVATE_KEY is set but left unloaded because c is
// Watching, so that a front end says why it is read-only, or refuses a trade with the way out.
func (c Credentials) EnvKeyIgnored() bool {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return c.Watching() && getenv(EnvPrivateKey) != ""
}

// LoadSigner loads the trading key, the one rule every front end loads it by: an agent keystore
// (acting for Address), else the keystore (its passphrase from TRADEDESK_PASSPHRASE or asked),
// else TRADEDESK_PRIVATE_KEY unless an Address alone is given (Watching: read-only); nil when
// none is given. A given Address must be the keystore's account (else a *WrongAccountError), and
// a key from the environment on mainnet gets a warning: the environment can leak to other
// processes. Once a key is loaded the process writes no core dump (disableCoreDumps).
func LoadSigner(c Credentials) (*Signer, error) {
	s, err := c.load()
	if s != nil && err == nil {
		if derr := disableCoreDumps(); derr != nil && c.Warn != nil {
			fmt.Fprintf(c.Warn, "tradedesk: warning: could not turn core dumps off (%v): a crash could write the key to disk\n", derr)
		}
	}
	return s, err
}

func (c Credentials) load() (*Signer, error) {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if c.AgentKeystore != "" {
		return c.loadAgent(getenv)
	}
	if c.Keystore != "" {
		s, err := c.fromKeystore(getenv)
		if err != nil {
			return nil, err
		}
		if c.Address != "" && !SameAddress(c.Address, s.Address()) {
			return nil, &WrongAccountError{Address: c.Address, Key: s.Address(), Source: "the keystore's"}
		}
		return s, nil
	}
	hexKey := getenv(EnvPrivateKey)
	if c.Watching() || hexKey == "" {
		return nil, nil
	}
	s, err := SignerFromHex(hexKey)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvPrivateKey, err)
	}
	if strings.EqualFold(c.Network, Mainnet.Name) && c.Warn != nil {
		fmt.Fprintf(c.Warn, "tradedesk: warning: trading MAINNET with a key from $%s; an encrypted --keystore is safer (the environment can leak to other processes)\n", EnvPrivateKey)
	}
	return s, nil
}

// loadAgent loads an agent wallet's key to act for c.Address. No account key may be given with
// it: a console holding both would not be the cold-key set-up the agent is for.
func (c Credentials) loadAgent(getenv func(string) string) (*Signer, error) {
	switch {
	case c.Keystore != "":
		return nil, errors.New("give --keystore (the account's key) or --agent-keystore (an agent's), not both")
	case getenv(EnvPrivateKey) != "":
		return nil, fmt.Errorf("$%s is set and --agent-keystore given: unset %s to trade as the agent (the account's key stays out of the console)", EnvPrivateKey, EnvPrivateKey)
	case c.Address == "":
		return nil, errors.New("--agent-keystore needs --account 0xACCOUNT: the account that registered the agent")
	}
	agent, err := Credentials{Keystore: c.AgentKeystore, Passphrase: c.Passphrase}.fromKeystore(getenv)
	if err != nil {
		return nil, err
	}
	return agent.AsAgentFor(c.Address)
}

// fromKeystore decrypts the keystore with the passphrase from the environment or asked.
// The file is read before the passphrase is asked for (a missing file is said at once), and the
// prompt names it in brief (text.Brief): a key pasted as the file name is not echoed.
func (c Credentials) fromKeystore(getenv func(string) string) (*Signer, error) {
	data, err := readKeystore(c.Keystore)
	if err != nil {
		return nil, err
	}
	pass := getenv(EnvPassphrase)
	if pass == "" {
		ask := c.Passphrase
		if ask == nil {
			ask = promptTTY
		}
		if pass, err = ask("passphrase for " + text.Brief(filepath.Base(c.Keystore)) + ": "); err != nil {
			return nil, err
		}
	}
	return SignerFromKeystoreJSON(data, pass)
}
