package sim

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"

	"github.com/shopspring/decimal"
)

// RunCommand is `tradedesk sim`: it parses the command's flags from args, serves the simulated
// exchange on --listen until ctx ends, and returns the process exit code (0 done, 1 failed, 2 a
// flag to fix, said on stderr).
func RunCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tradedesk sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8545", "address to serve on (`HOST:PORT`)")
	seed := fs.Uint64("seed", 1, "seed of every random choice (same seed, same markets)")
	faults := fs.String("faults", "", "share of requests that fail: \"0.1\", or \"5xx=0.05,timeout=0.02,garbage=0.02,lost=0.02,delay=10s\"")
	demo := fs.String("demo-balance", DefaultDemoBalance.String(), "USDC a new address receives (0: none)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: tradedesk sim --listen HOST:PORT [--seed N] [--faults SPEC]\n\nRuns the simulated exchange (POST /info, POST /exchange) until interrupted.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	f, err := ParseFaults(*faults)
	if err != nil {
		fmt.Fprintln(stderr, "tradedesk sim: --faults:", err)
		return 2
	}
	bal, err := decimal.NewFromString(*demo)
	if err != nil || bal.IsNegative() {
		fmt.Fprintf(stderr, "tradedesk sim: --demo-balance %q: want a non-negative number\n", *demo)
		return 2
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(stderr, "tradedesk sim:", err)
		return 1
	}
	if a, ok := ln.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
		fmt.Fprintf(stderr, "tradedesk sim: warning: %s is not a loopback address: anyone who can reach it can trade "+
			"on this exchange and fund accounts on it (its faucet funds any address); listen on 127.0.0.1:PORT unless you mean it\n", ln.Addr())
	}
	s := New(WithSeed(*seed), WithFaults(f), WithDemoBalance(bal))
	fmt.Fprintf(stdout, "tradedesk sim: serving http://%s/ (seed %d); Ctrl+C stops\n", ln.Addr(), *seed)
	if err := s.Serve(ctx, ln); err != nil {
		fmt.Fprintln(stderr, "tradedesk sim:", err)
		return 1
	}
	return 0
}
