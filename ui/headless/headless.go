// Package headless runs tradedesk's commands for scripts: order, cancel, cancel-all, transfer,
// withdraw, account, positions, orders, fills, history, tickers, instruments, collateral, export,
// agent (add, list, revoke), leverage and broker (approve, revoke). Each prints a readable table (or the raw records with --json) and exits 0 on success;
// on failure it prints one line saying why on stderr and exits non-zero (2 for a usage mistake, 1
// for anything else). Orders go through state.CheckOrder before anything is signed, transfers and
// withdrawals through state/funds. The private key never appears in any output.
package headless

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// Exit statuses.
const (
	ExitOK      = 0
	ExitFailure = 1 // the command ran and failed: rejected, network failure, exchange error
	ExitUsage   = 2 // bad flags or arguments: nothing was sent
)

// Connection is where the commands connect and as whom; main can fill it from its config file and
// the command line's flags override it.
type Connection struct {
	URL      string // exchange base URL
	Network  string // mainnet or testnet (when URL is empty)
	Keystore string // V3 keystore file holding the trading key
	Address  string // read-only account, or the account an agent keystore acts for
	// AgentKeystore is a V3 keystore file holding an agent wallet's key (acting for Address).
	AgentKeystore string
	Insecure      bool // allow a plain http:// URL that is not loopback
	// ActionType is how requests name their action: "number", "name" or "" (auto).
	ActionType string
}

// Env is what the commands get from the process: output streams, the environment, and optionally
// a client main already built (then the connection flags are refused: main owns the connection).
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	Stdin  io.Reader
	// Getenv reads an environment variable (nil: os.Getenv). TRADEDESK_PRIVATE_KEY and
	// TRADEDESK_PASSPHRASE are read through it.
	Getenv func(string) string
	// Passphrase asks for the keystore passphrase when TRADEDESK_PASSPHRASE is empty (nil: a
	// no-echo prompt on the terminal).
	Passphrase func(prompt string) (string, error)
	// Confirm asks the trader to confirm a movement of money by typing yes, and reports whether
	// they did (nil: a prompt on the terminal when stdin is one; otherwise --yes is needed).
	Confirm func(prompt string) (bool, error)
	// Client, when set, is used as is.
	Client api.Exchange
	// Defaults are connection settings from the config file; flags override them.
	Defaults Connection
	// HTTPClient is used for the exchange when the commands build the client (nil: the api default).
	HTTPClient *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

func (e *Env) fill() {
	if e.Stdout == nil {
		e.Stdout = os.Stdout
	}
	if e.Stderr == nil {
		e.Stderr = os.Stderr
	}
	if e.Stdin == nil {
		e.Stdin = os.Stdin
	}
	if e.Getenv == nil {
		e.Getenv = os.Getenv
	}
	if e.Now == nil {
		e.Now = time.Now
	}
}

// command is one headless command.
type command struct {
	name    string
	usage   string // the flags after the name
	summary string
	flags   func(fs *flag.FlagSet, o *opts)
	run     func(ctx context.Context, r *runner) error
	trades  bool // needs a key
	sub     bool // takes a subcommand as its first argument (agent add, broker approve)
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// IsCommand reports whether name is a headless command (main dispatches those to Run).
func IsCommand(name string) bool {
	_, ok := commands[name]
	return ok
}

// Commands lists the command names, sorted.
func Commands() []string {
	return slices.Sorted(maps.Keys(commands))
}

// usageError is a mistake in the command line: nothing was sent.
type usageError struct{ msg string }

// Error implements error.
func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// Run runs one command: args[0] is the command name, the rest its flags (the global flags
// --url, --network, --keystore, --address, --json, --insecure and --slippage included). It returns
// the exit status.
func Run(ctx context.Context, args []string, env Env) int {
	env.fill()
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "tradedesk: no command; one of: "+strings.Join(Commands(), ", "))
		return ExitUsage
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "tradedesk: unknown command %s; one of: %s\n", text.Quote(args[0]), strings.Join(Commands(), ", "))
		return ExitUsage
	}
	// Everything printed passes the one sanitiser: tables and messages quote server text, and
	// errors may repeat what was typed into a flag (a key pasted into the wrong one).
	r := &runner{env: env, cmd: cmd, progress: env.Stderr}
	r.env.Stdout, r.env.Stderr = text.NewWriter(env.Stdout, false), text.NewWriter(env.Stderr, true)
	fs := r.flagSet()
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		r.printUsage(fs, env.Stdout)
		return ExitOK
	}
	if err != nil {
		return r.fail(usageError{err.Error()})
	}
	if len(pos) > 0 && cmd.name != "export" && (!cmd.sub || len(pos) > 1) {
		if cmd.sub {
			pos = pos[1:]
		}
		return r.fail(usagef("unexpected argument %s; flags start with --", text.Quote(pos[0])))
	}
	r.args = pos
	r.explicit = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { r.explicit[f.Name] = true })
	r.overrideDefaults()
	if err := r.connect(); err != nil {
		return r.fail(err)
	}
	if err := r.checkAgent(ctx); err != nil {
		return r.fail(err)
	}
	var drops api.Drops
	err = cmd.run(api.WithDrops(ctx, &drops), r)
	recordNonces(r.signer)
	if err != nil {
		return r.fail(err)
	}
	if n := drops.Count(); n > 0 {
		// One bad row does not cost the answer (#16), and a script is told what it did not get.
		rows := "rows"
		if n == 1 {
			rows = "row"
		}
		fmt.Fprintf(r.env.Stderr, "tradedesk %s: warning: %d bad %s dropped, the first: %s\n", r.cmd.name, n, rows, oneLine(drops.First()))
	}
	return ExitOK
}

// parseInterspersed parses flags that may come before or after positional arguments, which it
// returns ("--" ends the flags).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// fail prints err as one line on stderr and returns its exit status.
func (r *runner) fail(err error) int {
	fmt.Fprintf(r.env.Stderr, "tradedesk %s: %s\n", r.cmd.name, oneLine(err.Error()))
	var u usageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	return ExitFailure
}

// oneLine folds a message onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\r", "")
	return strings.ReplaceAll(s, "\n", "; ")
}

func (r *runner) printUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: tradedesk %s %s\n%s\n\nflags:\n", r.cmd.name, r.cmd.usage, r.cmd.summary)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
