// Package cli is tradedesk's command line: one cobra command tree for the console (no command),
// the simulator (sim), the headless commands for scripts (ui/headless), version, help, shell
// completion and the man page. Every command declares only the flags it takes; the shared ones
// are declared once (headless.AddConnectionFlags and the headless flag groups). Every command
// exits with a status of one table (headless.ExitTable), printed by --help and the README.
//
// It does not use charmbracelet/fang, Charm's styling over cobra: fang needs lipgloss v2, a second
// major version beside the v1 every pane is drawn with (two colour-profile detections, two
// style sets, a larger binary), for help text that scripts read as plain text anyway.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// ConsoleOptions are the console's flags (no command given).
type ConsoleOptions struct {
	headless.Connection
	Config, Theme, LogFile string
	// CPUProfile is --cpuprofile FILE (--profile names a config profile: Connection.Profile).
	CPUProfile             string
	Stats, NoStream, Empty bool
	Seed                   int64
	Markets                int // demo: synthetic markets to add (sim.WithMarkets)
	// Shadow is --shadow: a paper wallet on an embedded mirror of the --network/--url exchange,
	// funded with ShadowBalance USDC, or a copy of --address's balances and positions.
	Shadow        bool
	ShadowBalance string
	// AddressFlag is the flag that named Connection.Address, "--account" or "--address" ("":
	// neither), so a read-only console names the flag the trader typed.
	AddressFlag string
}

// Sim is the simulator's command: its flags (a Go flag set the tree adopts) and its run.
type Sim struct {
	Flags *flag.FlagSet
	Help  string
	Run   func(ctx context.Context) int
}

// Program is what the command line runs: the console and the simulator (which main owns) and
// the headless commands' environment.
type Program struct {
	Stdout, Stderr io.Writer
	// Console opens the console with its flags; an error ends it with status 1.
	Console func(ctx context.Context, o ConsoleOptions) error
	// Sim is `tradedesk sim` (its Flags nil: no sim command).
	Sim Sim
	// Env is the headless commands' environment (its Stdout and Stderr: Program's).
	Env headless.Env
}

// Run runs one command line and returns the process's exit status.
func Run(ctx context.Context, args []string, p Program) int {
	p.Env.Completion = headless.Completing(args)
	root := NewRoot(&p)
	return headless.Execute(ctx, root, args, p.Stderr)
}

// NewRoot builds the whole command tree.
func NewRoot(p *Program) *cobra.Command {
	p.Env.Stdout, p.Env.Stderr = p.Stdout, p.Stderr
	var o ConsoleOptions
	root := &cobra.Command{
		Use:     "tradedesk",
		Short:   "A keyboard-first terminal console for trading perpetual futures and spot",
		Long:    rootHelp() + "\n\n" + exitHelp(),
		Version: ReadBuild().Short(),
		// No arguments: a word that is not a command is an unknown command.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if p.Console == nil {
				return cmd.Help()
			}
			for _, f := range []string{"account", "address"} {
				if cmd.Flags().Changed(f) {
					o.AddressFlag = "--" + f
				}
			}
			if err := p.Console(cmd.Context(), o); err != nil {
				fmt.Fprintln(text.NewWriter(p.Stderr, true), "tradedesk:", oneLine(err))
				code := headless.ExitRefused // it cannot start
				if headless.IsUsage(err) {
					code = headless.ExitUsage // a flag to fix (--theme pink)
				}
				return &headless.ExitError{Code: code, Err: err, Reported: true}
			}
			return nil
		},
	}
	root.SetOut(p.Stdout)
	root.SetErr(p.Stderr)
	root.SetVersionTemplate("tradedesk {{.Version}}\n")
	addConsoleFlags(root, &o, p.Env.Completion)
	if p.Sim.Flags != nil {
		root.AddCommand(simCommand(p.Sim))
	}
	root.AddCommand(headless.NewCommands(p.Env)...)
	root.AddCommand(versionCommand(p.Stdout), manCommand(root, p.Stdout), exitCodesCommand(p.Stdout))
	root.SetHelpCommand(helpCommand(p.Stderr))
	groupCommands(root)
	splitFlagHelp(root)
	pointToExitCodes(root)
	return root
}

// addConsoleFlags declares the console's flags: the connection (shared with the commands), then
// its own; with completion, their shell completions (headless.Env.Completion says why only then).
func addConsoleFlags(root *cobra.Command, o *ConsoleOptions, completion bool) {
	fs := root.Flags()
	headless.AddConnectionFlags(fs, &o.Connection, true)
	fs.StringVar(&o.Config, "config", "", "config `FILE` (default $XDG_CONFIG_HOME/tradedesk/config.toml)")
	headless.TextVar(fs, &o.Theme, "theme", "THEME", "", "colour theme: dark, light or colorblind (NO_COLOR drops colour)")
	fs.StringVar(&o.LogFile, "log", "", "write a structured log to `FILE` (keys and signatures never logged)")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the session to `FILE` (and its live heap at the end to FILE.heap)")
	fs.BoolVar(&o.Stats, "stats", false, "show frame time and messages per second in the status line")
	fs.BoolVar(&o.NoStream, "no-stream", false, "do not use the exchange's WebSocket stream: poll only")
	fs.Int64Var(&o.Seed, "seed", 0, "demo simulator seed (0: random)")
	fs.BoolVar(&o.Empty, "empty", false, "start the demo with a bare wallet (no positions or orders)")
	fs.BoolVar(&o.Shadow, "shadow", false, "paper-trade the --network/--url exchange's live market on an embedded mirror (nothing is sent to its /exchange); with --address, start from a read-only copy of that account")
	fs.StringVar(&o.ShadowBalance, "shadow-balance", "100000", "with --shadow, the paper wallet's USDC (spot and derivatives each)")
	fs.IntVar(&o.Markets, "markets", 0, "demo: add `N` synthetic perpetuals, SYN1-PERP on (0 to 2000; as tradedesk sim --markets)")
	headless.SetFlagRange(fs, "markets", "0 to 2000")
	if !completion {
		return
	}
	_ = root.RegisterFlagCompletionFunc("theme", cobra.FixedCompletions([]string{"dark", "light", "colorblind"}, cobra.ShellCompDirectiveNoFileComp))
	_ = root.RegisterFlagCompletionFunc("network", cobra.FixedCompletions([]string{"mainnet", "testnet"}, cobra.ShellCompDirectiveNoFileComp))
	_ = root.RegisterFlagCompletionFunc("action-type", cobra.FixedCompletions([]string{"number", "name"}, cobra.ShellCompDirectiveNoFileComp))
}

func rootHelp() string {
	return `tradedesk: a keyboard-first terminal console for trading perpetual futures and spot.

With no command it opens the console (no flags: a live demo on the embedded simulated exchange);
tradedesk sim runs the simulated exchange alone; the other commands are for scripts: they print a
table, or the raw records with --json.

Keys come from --keystore or $TRADEDESK_PRIVATE_KEY; never from the config file. Safest for a
trading program: an agent wallet, which can place and cancel orders but never move money out:
  tradedesk agent add --name desk --valid 30d --out agent.json --keystore account.json --network mainnet
  tradedesk --agent-keystore agent.json --account 0xACCOUNT --network mainnet`
}

// exitHelp is the exit table, for the help and the man page.
func exitHelp() string {
	return "Exit status (every command; --json output names it by the same word):\n" + headless.ExitTableText() +
		"The console exits 0 when quit, 1 when it cannot start, 2 for a usage error;\n" +
		"tradedesk sim 0 when stopped, 1 when it cannot listen, 2 for a flag to fix."
}

// simCommand adopts the simulator's flags.
func simCommand(s Sim) *cobra.Command {
	c := &cobra.Command{
		Use:   "sim --listen HOST:PORT [--fund 0xADDR[=AMOUNT]]... [--seed N] [--faults SPEC]",
		Short: "Run the simulated exchange alone, for bots, SDKs and tests",
		Long:  s.Help,
		Args:  cobra.NoArgs,
		// The usage line already lists the flags in their places.
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if code := s.Run(cmd.Context()); code != 0 {
				return &headless.ExitError{Code: code, Err: errors.New("sim failed"), Reported: true}
			}
			return nil
		},
	}
	c.Flags().AddGoFlagSet(s.Flags)
	return c
}

// oneLine folds an error onto one line.
func oneLine(err error) string {
	return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
}
