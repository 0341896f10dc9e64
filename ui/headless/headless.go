// Package headless runs tradedesk's commands for scripts: order, cancel, cancel-all, transfer,
// withdraw, account, positions, orders, fills, history, tickers, instruments, collateral, export,
// agent (add, list, revoke), leverage and broker (approve, revoke). Each is a cobra command that
// declares only the flags it takes (the shared ones through one helper per group, such as AddConnectionFlags). Each
// prints a readable table (or the raw records with --json) and exits 0 on success; on failure it
// prints one line saying why on stderr and exits with a status of the exit table (ExitTable), which
// --json output names by the same outcome word. Orders go through state.CheckOrder before anything
// is signed, transfers and withdrawals through state/funds. The private key never appears in any
// output.
package headless

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/state/risk"
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
	// Guard is the config file's [guard] (profile.Guard; nil: state.DefaultGuard()): the
	// commands check orders against it as the console does. No flag sets it.
	Guard *state.Guard
	// Risk is the config file's [risk] limits (profile.Risk): every executor the commands open
	// enforces them. No flag sets or overrides them.
	Risk *risk.Limits
	// Alerting is the config file's [[alert]] rules, on_alert and alert_webhook (nil: none).
	Alerting *Alerting
	// OnRestart is the config file's [on_restart] choice per kind of algorithm (profile.OnRestart):
	// what a start does with one an earlier run left running when --on-restart is not given.
	OnRestart *profile.OnRestart
	// DeadMan is the config file's [dead_man] table (profile.DeadMan): the guard arms its switch
	// with it unless --dead-man is given.
	DeadMan *profile.DeadMan
	// Profile is the config profile (--profile NAME, profile.File.Select) the settings come
	// from ("": the top level); its journal is its own.
	Profile string
}

// guard is the guard orders are checked against: the config's, else state.DefaultGuard().
func (c Connection) guard() state.Guard {
	if c.Guard != nil {
		return *c.Guard
	}
	return state.DefaultGuard()
}

// limits are the config's [risk] limits (nil when there are none).
func (c Connection) limits() risk.Limits {
	if c.Risk == nil {
		return nil
	}
	return *c.Risk
}

// ProfileConnection is the config file's connection and guard (profile.Load reads the file):
// the commands' defaults, which their flags override. A bad value anywhere in the file ([poll],
// [depth] too) is refused as the console refuses it.
func ProfileConnection(f profile.File) (Connection, error) {
	if err := f.Check(); err != nil {
		return Connection{}, err
	}
	g, err := f.Guard.Guard()
	if err != nil {
		return Connection{}, err
	}
	c := FileConnection(f)
	c.Guard = &g
	limits, err := f.Risk.Limits()
	if err != nil {
		return Connection{}, err
	}
	c.Risk = &limits
	rules, err := f.AlertRules()
	if err != nil {
		return Connection{}, err
	}
	c.Alerting = &Alerting{Rules: rules, Command: f.OnAlert, Webhook: f.AlertWebhook}
	if _, err := f.OnRestart.Choices(); err != nil {
		return Connection{}, err
	}
	c.OnRestart = &f.OnRestart
	if _, err := f.DeadMan.Span(); err != nil {
		return Connection{}, err
	}
	c.DeadMan = &f.DeadMan
	return c, nil
}

// onRestart is the config's [on_restart] choice for an algorithm of kind ("" when none).
func (c Connection) onRestart(kind string) string {
	if c.OnRestart == nil {
		return ""
	}
	m, _ := c.OnRestart.Choices() // checked when the config was read
	return m[kind]
}

// FileConnection is the config file's connection settings, unchecked and without its guard.
func FileConnection(f profile.File) Connection {
	return Connection{URL: f.URL, Network: f.Network, Keystore: f.Keystore, AgentKeystore: f.AgentKeystore,
		Address: f.Account, ActionType: f.ActionType}
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
	// Defaults are connection settings from the config file; flags override them. Used when
	// LoadDefaults is nil.
	Defaults Connection
	// LoadDefaults, when set, reads the config file (path: the --config flag, "" for the default
	// file) and returns the connection settings of its profile (--profile, "": the top level);
	// an error is a usage error.
	LoadDefaults func(path, profile string) (Connection, error)
	// HTTPClient is used for the exchange when the commands build the client (nil: the api default).
	HTTPClient *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// StateDir is where completion keeps the last list of instruments and the journal keeps its
	// files ("": $XDG_STATE_HOME/tradedesk).
	StateDir string
	// ExpiryWindow is how long after its nonce an order or cancel stays valid (0: the api's
	// default, 60 s). After it the exchange must not act, so a lost order not found then was
	// never placed: a shorter window settles a lost answer sooner.
	ExpiryWindow time.Duration
	// Skew and LookupGrace say how a lost answer is looked up (exec.Config's; 0: its defaults,
	// 2 s and 5 s). The simulator on loopback runs on this clock: a test sets them short, as it
	// does ExpiryWindow, to settle a lost answer sooner.
	Skew, LookupGrace time.Duration
	// LookupWait is the first pause between two lookups of a lost answer, doubled up to exec's
	// 4 s (exec.Config's; 0: its 250 ms). A test whose lookups must fail sets it short.
	LookupWait time.Duration
	// GuardEvery, when set, is how often the guard checks that it reaches the exchange (while its
	// dead-man's switch is armed) and reads the journal's alerts again (0: every 2 s and every
	// 5 s). A test that waits on either sets it short.
	GuardEvery time.Duration
	// AlgoReprice is the least time between two reprices of one algorithm run here, by a command
	// or the guard (algo.Deps.MinReprice; 0: its 1 s). A test that waits on reprices sets it
	// short.
	AlgoReprice time.Duration
	// Completion gives the flags their shell completions (fixed choices, instrument names from
	// the exchange): set for a run of the completion scripts' hidden command (Completing). Cobra
	// keeps flag completions in a process-wide table that never lets go of a command tree, so
	// every other run leaves it unset: a process that runs many command lines (a test) would
	// otherwise keep every tree it built.
	Completion bool
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

// command is one headless command (or one subcommand: name "agent add").
type command struct {
	name    string
	usage   string // the arguments and flags after the name, for the usage line
	summary string
	groups  group                      // the shared flags it takes
	flags   func(fs *flagSet, o *opts) // its own flags
	run     func(ctx context.Context, r *runner) error
	trades  bool // needs a key
	args    bool // takes positional arguments (export fills|history)
	// complete offers the positional arguments (nil: none).
	complete []string
	// local: it talks to this machine only (guard status): no exchange, no key.
	local bool
}

// commands are the registered commands, in registration order; subcommands are named "parent sub".
var commands []*command

func register(c *command) { commands = append(commands, c) }

// parents are the commands that only group subcommands, with their summaries.
var parents = map[string]string{}

// usageError is a mistake in the command line: nothing was sent.
type usageError struct{ msg string }

// Error implements error.
func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// NewCommands builds the headless commands as cobra commands, to add to a root command. Each
// run reads env (filled with the process's streams where empty).
func NewCommands(env Env) []*cobra.Command {
	env.fill()
	var out []*cobra.Command
	groups := map[string]*cobra.Command{}
	for _, c := range commands {
		cc := newCobra(c, &env)
		top, sub, ok := strings.Cut(c.name, " ")
		if !ok {
			// A command may also group subcommands (guard: guard status).
			groups[top] = cc
			out = append(out, cc)
			continue
		}
		cc.Use = sub + strings.TrimPrefix(cc.Use, c.name)
		p := groups[top]
		if p == nil {
			p = groupCommand(top, &env)
			groups[top] = p
			out = append(out, p)
		}
		p.AddCommand(cc)
	}
	return out
}

// groupCommand is a command that only groups subcommands (agent, broker): run alone or with an
// unknown subcommand it is a usage error.
func groupCommand(name string, env *Env) *cobra.Command {
	return &cobra.Command{
		Use: name + " COMMAND", Short: parents[name], Long: parents[name],
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var subs []string
			for _, s := range cmd.Commands() {
				if s.IsAvailableCommand() {
					subs = append(subs, s.Name())
				}
			}
			msg := fmt.Sprintf("%s needs a subcommand: %s", name, strings.Join(subs, ", "))
			if len(args) > 0 {
				msg = fmt.Sprintf("%s %s: unknown subcommand; one of %s", name, text.Quote(args[0]), strings.Join(subs, ", "))
			}
			fmt.Fprintf(text.NewWriter(env.Stderr, true), "tradedesk %s: %s\n", name, msg)
			return &ExitError{Code: ExitUsage, Err: usageError{msg}, Reported: true}
		},
	}
}

// newCobra makes the cobra command of c: its own flags and its groups of shared ones, bound to a
// fresh opts for this tree.
func newCobra(c *command, env *Env) *cobra.Command {
	o := &opts{}
	cc := &cobra.Command{
		Use:   strings.TrimSpace(c.name + " " + c.usage),
		Short: firstSentence(c.summary),
		Long:  c.summary,
		Args:  cobra.ArbitraryArgs,
		// The usage line already lists the flags in their places.
		DisableFlagsInUseLine: true,
		ValidArgs:             c.complete,
	}
	fs := &flagSet{FlagSet: cc.Flags(), groups: c.groups}
	addShared(fs, o)
	markShared(fs.FlagSet)
	if c.flags != nil {
		c.flags(fs, o)
	}
	cc.RunE = func(cmd *cobra.Command, args []string) error {
		return runCommand(cmd.Context(), c, cmd, o, args, *env)
	}
	if env.Completion {
		registerCompletions(cc, c, o, env)
	}
	return cc
}

// firstSentence is s up to its first full stop, for the command lists.
func firstSentence(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// runCommand runs one parsed command: the connection from the config defaults and the flags, the
// agent check, then the command itself. Its error, already reported, carries the exit status.
func runCommand(ctx context.Context, c *command, cmd *cobra.Command, o *opts, args []string, env Env) error {
	// Everything printed passes the one sanitiser: tables and messages quote server text, and
	// errors may repeat what was typed into a flag (a key pasted into the wrong one).
	r := &runner{env: env, cmd: c, o: *o, progress: env.Stderr}
	r.env.Stdout, r.env.Stderr = text.NewWriter(env.Stdout, false), text.NewWriter(env.Stderr, true)
	r.explicit = map[string]bool{}
	cmd.Flags().Visit(func(f *pflag.Flag) { r.explicit[f.Name] = true })
	if len(args) > 0 && !c.args {
		return r.fail(usagef("unexpected argument %s; flags start with --", text.Quote(args[0])))
	}
	r.args = args
	if err := r.withDefaults(); err != nil {
		return r.fail(err)
	}
	if !c.local {
		if err := r.connect(); err != nil {
			return r.fail(err)
		}
		if err := r.checkAgent(ctx); err != nil {
			return r.fail(err)
		}
	}
	var drops api.Drops
	err := c.run(api.WithDrops(ctx, &drops), r)
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
	return nil
}

// oneLine folds a message onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\r", "")
	return strings.ReplaceAll(s, "\n", "; ")
}
