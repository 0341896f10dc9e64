package sim

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/shopspring/decimal"
)

// RunCommand is `tradedesk sim`: it parses the command's flags from args, serves the simulated
// exchange on --listen until ctx ends, and returns the process exit code (0 done, 1 failed, 2 a
// flag to fix, said on stderr).
func RunCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := NewCommand(stdout, stderr)
	c.Flags.SetOutput(stderr)
	c.Flags.Usage = func() {
		fmt.Fprintln(stderr, "Usage: tradedesk sim --listen HOST:PORT [--fund 0xADDR[=AMOUNT]]... [--seed N] [--faults SPEC]\n"+
			"                     [--markets N] [--keep-fills N] [--keep-history N] [--data DIR]\n"+
			"       tradedesk sim --mirror mainnet|testnet|URL --listen HOST:PORT [--fund 0xADDR[=AMOUNT]]... [--latency D]\n\n"+CommandHelp+"\n\nFlags:")
		c.Flags.PrintDefaults()
	}
	if err := c.Flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return c.Run(ctx)
}

// CommandHelp says what `tradedesk sim` does, for its help.
const CommandHelp = "Runs the simulated exchange (POST /info, POST /exchange) until interrupted. It acts only for accounts\n" +
	"it knows: open them with --fund, or from this machine with POST /faucet {\"user\":\"0x...\"} (once per\n" +
	"address). Any other signer, and a request changed after signing, gets HTTP 401 invalid order signer.\n" +
	"Without --data it keeps its state in memory only: a restart starts afresh. With --data DIR it keeps\n" +
	"accounts, balances, positions, open orders (on the book after a restart), order history, fills,\n" +
	"funding, transfer and account-value records, agents, broker approvals, the faucet's memory, the house\n" +
	"accounts and the markets' prices in the SQLite database DIR/sim.db, each action committed before it is\n" +
	"answered (kill -9 loses nothing answered). Either way it refuses every nonce\n" +
	"before its start (and, with --data, every one up to the highest it ever accepted), so a body signed\n" +
	"before a restart is never acted on again. SIGTERM stops it like Ctrl+C (status 0).\n\n" +
	"Tests and scripts move a market, from this machine, with POST /control {\"instrument\":\"BTC-PERP\",\n" +
	"\"index\":\"98000\"} (the makers requote around it, the mark follows) and {\"instrument\":...,\"pause\":true}\n" +
	"(its random walk stops; false lets it go on).\n\n" +
	"The exchange's own accounts (fees, insurance fund, makers, takers, liquidator) are listed with their\n" +
	"addresses and balances by POST /info {\"method\":\"exchange_accounts\"}, with the sums over every account\n" +
	"(held = deposited - withdrawn). The insurance fund takes liquidation fees and seized collateral and pays\n" +
	"what a bankrupt account cannot, so it may go below zero; while it is, the user positions most in profit\n" +
	"opposite the liquidator's are auto-deleveraged at the mark until it is back at zero (fill_type 2, the\n" +
	"profit cut by what the fund needed).\n\n" +
	"For scale: --markets 500 adds 500 synthetic perpetuals (SYN1-PERP..., a few MB of candles in all),\n" +
	"--keep-fills 10000 and --keep-history 10000 keep that many fills and closed orders an account (default\n" +
	"2000 and 1000, the oldest dropped first)."

// Command is `tradedesk sim`: its flags, declared on a flag set a command line front end may
// adopt, and its run once they are parsed.
type Command struct {
	// Flags are the command's flags; Run reads them.
	Flags          *flag.FlagSet
	stdout, stderr io.Writer
	listen, faults *string
	data           *string
	demo           *string
	seed           *uint64
	markets        *int
	keepFills      *int
	keepOrders     *int
	funds          fundFlags
	mirror         *string
	latency        *time.Duration
}

// NewCommand declares the sim command's flags; its messages go to stdout and stderr.
func NewCommand(stdout, stderr io.Writer) *Command {
	fs := flag.NewFlagSet("tradedesk sim", flag.ContinueOnError)
	c := &Command{Flags: fs, stdout: stdout, stderr: stderr}
	c.listen = fs.String("listen", "127.0.0.1:8545", "address to serve on (`HOST:PORT`)")
	c.data = fs.String("data", "", "keep accounts, balances, positions, open orders, order history, fills, funding and transfer records, agents and the faucet's memory in `DIR` (the SQLite database sim.db, written before each answer) across restarts")
	c.seed = fs.Uint64("seed", 1, "seed of every random choice (same seed, same markets)")
	c.faults = fs.String("faults", "", "share of requests that fail: \"0.1\", or \"5xx=0.05,timeout=0.02,garbage=0.02,lost=0.02,delay=10s\"")
	c.demo = fs.String("demo-balance", DefaultDemoBalance.String(), "USDC the faucet (and --fund without =AMOUNT) credits to spot and to derivatives each")
	c.markets = fs.Int("markets", 0, fmt.Sprintf("synthetic perpetuals to add, SYN1-PERP to SYN`N`-PERP (0 to %d)", MaxMarkets))
	c.keepFills = fs.Int("keep-fills", DefaultKeepFills, fmt.Sprintf("fills each account keeps, the newest (`N`: 1 to %d)", MaxKeep))
	c.keepOrders = fs.Int("keep-history", DefaultKeepOrders, fmt.Sprintf("closed orders each account's order history keeps besides the open ones (`N`: 1 to %d)", MaxKeep))
	c.mirror = fs.String("mirror", "", "paper-trade on a live exchange's market: `mainnet`, testnet or its API URL (instruments, fees, book, trades, marks and funding from it; nothing is ever sent to its /exchange)")
	c.latency = fs.Duration("latency", -1, "with --mirror, the wait before a paper action reaches the book (default: the measured round trip to the live exchange)")
	fs.Var(&c.funds, "fund", "open and fund an account: `0xADDR[=AMOUNT]` USDC to spot and to derivatives each (repeatable)")
	return c
}

// Run serves the simulated exchange as the parsed flags say until ctx ends, and returns the exit
// code (0 done, 1 failed, 2 a flag to fix, said on stderr).
func (c *Command) Run(ctx context.Context) int {
	stdout, stderr := c.stdout, c.stderr
	f, err := ParseFaults(*c.faults)
	if err != nil {
		fmt.Fprintln(stderr, "tradedesk sim: --faults:", err)
		return 2
	}
	bal, err := decimal.NewFromString(*c.demo)
	if err != nil || bal.IsNegative() {
		fmt.Fprintf(stderr, "tradedesk sim: --demo-balance %q: want a non-negative number\n", *c.demo)
		return 2
	}
	opts, err := c.scale()
	if err != nil {
		fmt.Fprintln(stderr, "tradedesk sim:", err)
		return 2
	}
	ln, err := net.Listen("tcp", *c.listen)
	if err != nil {
		fmt.Fprintln(stderr, "tradedesk sim:", err)
		return 1
	}
	if a, ok := ln.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
		fmt.Fprintf(stderr, "tradedesk sim: warning: %s is not a loopback address: anyone who can reach it can trade "+
			"the accounts whose keys they hold and read every account (the faucet answers loopback callers only); listen on 127.0.0.1:PORT unless you mean it\n", ln.Addr())
	}
	// SIGTERM (a service manager, kill) stops it as cleanly as Ctrl+C: status 0.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *c.mirror != "" {
		return c.runMirror(ctx, ln, bal)
	}
	s, code := c.open(opts, f, bal)
	if code != 0 {
		ln.Close()
		return code
	}
	extra := ""
	if *c.markets > 0 {
		extra = fmt.Sprintf(", %d synthetic markets", *c.markets)
	}
	fmt.Fprintf(stdout, "tradedesk sim: serving http://%s/ (seed %d%s); Ctrl+C or SIGTERM stops\n", ln.Addr(), *c.seed, extra)
	defer s.Close()
	if err := s.Serve(ctx, ln); err != nil {
		fmt.Fprintln(stderr, "tradedesk sim:", err)
		return 1
	}
	return 0
}

// StateFileName is the SQLite database `tradedesk sim --data DIR` keeps its state in, inside DIR.
const StateFileName = "sim.db"

// oldStateFileName is the JSON state file of earlier versions, which this one does not read.
const oldStateFileName = "sim-state.json"

// open builds the simulator the flags describe: its state from --data DIR when given, and the
// --fund accounts opened (those the state already knows are not funded again). A non-zero code
// says it failed, on stderr.
func (c *Command) open(opts []Option, f Faults, bal decimal.Decimal) (*Sim, int) {
	if *c.data != "" {
		if err := os.MkdirAll(*c.data, 0o700); err != nil {
			fmt.Fprintln(c.stderr, "tradedesk sim: --data:", err)
			return nil, 1
		}
		if _, err := os.Stat(filepath.Join(*c.data, oldStateFileName)); err == nil {
			fmt.Fprintf(c.stderr, "tradedesk sim: --data: %s holds %s, the state file of an earlier version, which this one does not read "+
				"(it keeps its state in %s now): move that file away to start afresh in this directory, or give another --data\n",
				*c.data, oldStateFileName, StateFileName)
			return nil, 1
		}
		opts = append(opts, WithStateFile(filepath.Join(*c.data, StateFileName)))
	}
	s := New(append(opts, WithSeed(*c.seed), WithFaults(f), WithDemoBalance(bal), WithStartNonceFloor())...)
	if err := s.StateError(); err != nil {
		fmt.Fprintln(c.stderr, "tradedesk sim: --data:", err)
		return nil, 1
	}
	for _, fu := range c.funds {
		if *c.data != "" && s.Known(fu.addr) {
			fmt.Fprintf(c.stdout, "tradedesk sim: %s kept from the state database (not funded again)\n", fu.addr)
			continue
		}
		amt := bal
		if fu.amount != nil {
			amt = *fu.amount
		}
		if err := s.Fund(fu.addr, amt); err != nil {
			fmt.Fprintln(c.stderr, "tradedesk sim: --fund:", err)
			return nil, 2
		}
		fmt.Fprintf(c.stdout, "tradedesk sim: funded %s with %s USDC (spot and derivatives each)\n", fu.addr, amt)
	}
	return s, 0
}

// scale reads --markets, --keep-fills and --keep-history into options, or says which to fix.
func (c *Command) scale() ([]Option, error) {
	if err := CheckMarkets(*c.markets); err != nil {
		return nil, fmt.Errorf("--markets: %w", err)
	}
	if err := CheckKeep("fills", *c.keepFills); err != nil {
		return nil, fmt.Errorf("--keep-fills: %w", err)
	}
	if err := CheckKeep("closed orders", *c.keepOrders); err != nil {
		return nil, fmt.Errorf("--keep-history: %w", err)
	}
	return []Option{WithMarkets(*c.markets), WithKeepFills(*c.keepFills), WithKeepOrders(*c.keepOrders)}, nil
}

// fundFlag is one --fund 0xADDR[=AMOUNT].
type fundFlag struct {
	addr   string
	amount *decimal.Decimal
}

// fundFlags collects the repeatable --fund flag.
type fundFlags []fundFlag

func (f *fundFlags) String() string { return fmt.Sprintf("%d accounts", len(*f)) }

// Set parses 0xADDR or 0xADDR=AMOUNT.
func (f *fundFlags) Set(v string) error {
	addr, amt, has := strings.Cut(v, "=")
	a, err := canonical(strings.TrimSpace(addr))
	if err != nil {
		return err
	}
	fl := fundFlag{addr: a}
	if has {
		d, err := decimal.NewFromString(strings.TrimSpace(amt))
		if err != nil || d.IsNegative() || strings.ContainsAny(amt, "eE") {
			return fmt.Errorf("amount %q: want a plain non-negative number such as 25000", trunc(amt, 30))
		}
		fl.amount = &d
	}
	*f = append(*f, fl)
	return nil
}
