package sim

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// MirrorURL is the API base URL of --mirror's value: a network's name (mainnet, testnet) or an
// http(s) URL.
func MirrorURL(v string) (string, error) {
	v = strings.TrimSpace(v)
	if n, err := api.LookupNetwork(v); err == nil {
		return n.URL, nil
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		return v, nil
	}
	return "", fmt.Errorf("%q: want mainnet, testnet or the live exchange's http(s):// API URL", trunc(v, 60))
}

// runMirror is `tradedesk sim --mirror`: the simulator fed the live market, on ln, until ctx ends.
func (c *Command) runMirror(ctx context.Context, ln net.Listener, bal decimal.Decimal) int {
	defer ln.Close()
	if *c.data != "" || *c.markets != 0 || *c.faults != "" {
		fmt.Fprintln(c.stderr, "tradedesk sim: --mirror trades the live market in memory: drop --data, --markets and --faults")
		return 2
	}
	url, err := MirrorURL(*c.mirror)
	if err != nil {
		fmt.Fprintln(c.stderr, "tradedesk sim: --mirror", err)
		return 2
	}
	mr, err := NewMirror(ctx, MirrorConfig{Upstream: url, Latency: *c.latency},
		WithSeed(*c.seed), WithDemoBalance(bal), WithStartNonceFloor(), WithKeepFills(*c.keepFills), WithKeepOrders(*c.keepOrders))
	if err != nil {
		fmt.Fprintln(c.stderr, "tradedesk sim: --mirror:", err)
		return 1
	}
	for _, fu := range c.funds {
		amt := bal
		if fu.amount != nil {
			amt = *fu.amount
		}
		if err := mr.Sim.Fund(fu.addr, amt); err != nil {
			fmt.Fprintln(c.stderr, "tradedesk sim: --fund:", err)
			return 2
		}
		fmt.Fprintf(c.stdout, "tradedesk sim: paper account %s funded with %s USDC (spot and derivatives each)\n", fu.addr, amt)
	}
	maker, taker := mr.Sim.FeeRates()
	fmt.Fprintf(c.stdout, "tradedesk sim: mirroring %s (%d markets, fees maker %s taker %s, latency %s): PAPER TRADING ONLY, "+
		"nothing is ever sent to its /exchange (the mirror holds no key)\n", url, len(mr.mkts), maker, taker, mr.Latency())
	fmt.Fprintf(c.stdout, "tradedesk sim: serving http://%s/ ; Ctrl+C or SIGTERM stops\n", ln.Addr())
	if err := mr.Serve(ctx, ln); err != nil {
		fmt.Fprintln(c.stderr, "tradedesk sim:", err)
		return 1
	}
	return 0
}
