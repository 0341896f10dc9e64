package keyfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

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
	return c.Watching() && getenv(api.EnvPrivateKey) != ""
}

// LoadSigner loads the trading key, the one rule every front end loads it by: an agent keystore
// (acting for Address), else the keystore (its passphrase from TRADEDESK_PASSPHRASE or asked),
// else TRADEDESK_PRIVATE_KEY unless an Address alone is given (Watching: read-only); nil when
// none is given. A given Address must be the keystore's account (else a *WrongAccountError), and
// a key from the environment on mainnet gets a warning: the environment can leak to other
// processes. Once a key is loaded the process writes no core dump (disableCoreDumps).
func LoadSigner(c Credentials) (*api.Signer, error) {
	s, err := c.load()
	if s != nil && err == nil {
		if derr := disableCoreDumps(); derr != nil && c.Warn != nil {
			fmt.Fprintf(c.Warn, "tradedesk: warning: could not turn core dumps off (%v): a crash could write the key to disk\n", derr)
		}
	}
	return s, err
}

func (c Credentials) load() (*api.Signer, error) {
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
		if c.Address != "" && !api.SameAddress(c.Address, s.Address()) {
			return nil, &WrongAccountError{Address: c.Address, Key: s.Address(), Source: "the keystore's"}
		}
		return s, nil
	}
	hexKey := getenv(api.EnvPrivateKey)
	if c.Watching() || hexKey == "" {
		return nil, nil
	}
	s, err := api.SignerFromHex(hexKey)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", api.EnvPrivateKey, err)
	}
	if strings.EqualFold(c.Network, api.Mainnet.Name) && c.Warn != nil {
		fmt.Fprintf(c.Warn, "tradedesk: warning: trading MAINNET with a key from $%s; an encrypted --keystore is safer (the environment can leak to other processes)\n", api.EnvPrivateKey)
	}
	return s, nil
}

// loadAgent loads an agent wallet's key to act for c.Address. No account key may be given with
// it: a console holding both would not be the cold-key set-up the agent is for.
func (c Credentials) loadAgent(getenv func(string) string) (*api.Signer, error) {
	switch {
	case c.Keystore != "":
		return nil, errors.New("give --keystore (the account's key) or --agent-keystore (an agent's), not both")
	case getenv(api.EnvPrivateKey) != "":
		return nil, fmt.Errorf("$%s is set and --agent-keystore given: unset %s to trade as the agent (the account's key stays out of the console)", api.EnvPrivateKey, api.EnvPrivateKey)
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
func (c Credentials) fromKeystore(getenv func(string) string) (*api.Signer, error) {
	data, err := readFile(c.Keystore)
	if err != nil {
		return nil, err
	}
	pass := getenv(api.EnvPassphrase)
	if pass == "" {
		ask := c.Passphrase
		if ask == nil {
			ask = api.AskPassphrase
		}
		if pass, err = ask("passphrase for " + text.Brief(filepath.Base(c.Keystore)) + ": "); err != nil {
			return nil, err
		}
	}
	return Decrypt(data, pass)
}
