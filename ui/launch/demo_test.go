package launch

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui"
)

// The demo opens seeded (two positions, resting orders) over real HTTP; --empty opens a bare
// wallet. Guards a seed that is skipped, and --empty ignored.
func TestDemoSeededOrEmpty(t *testing.T) {
	for _, empty := range []bool{false, true} {
		conn, err := StartDemo(context.Background(), Demo{Seed: 5, Empty: empty})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ps, err := conn.Client.Positions(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		oo, err := conn.Client.OpenOrders(ctx, "", api.PageParams{})
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		conn.Close()
		if want := map[bool]int{false: 2, true: 0}[empty]; len(ps) != want || (len(oo.Data) == 0) != empty {
			t.Errorf("empty=%v: %d positions (want %d), %d open orders", empty, len(ps), want, len(oo.Data))
		}
	}
}

func TestDemoConnects(t *testing.T) {
	conn, err := StartDemo(context.Background(), Demo{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Mode != ui.ModeDemo || !conn.Client.CanTrade() {
		t.Fatalf("demo mode %v can trade %v", conn.Mode, conn.Client.CanTrade())
	}
	// The console previews the fees the embedded simulator charges (#23).
	if maker, taker := sim.FeeRates(); conn.Fees == nil || !conn.Fees.Maker.Equal(maker) || !conn.Fees.Taker.Equal(taker) {
		t.Errorf("demo fee rates %+v, want the simulator's %s/%s", conn.Fees, maker, taker)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := conn.Client.AccountSummary(ctx, conn.Client.Address())
	if err != nil {
		t.Fatal(err)
	}
	if !a.TotalAccountEquity.IsPositive() {
		t.Errorf("the demo wallet is not funded: %+v", a)
	}
}

// demoSnapshot is what the console's first screen reads from the demo started at start, as JSON
// with the times of day masked: the wallet, its positions, orders, fills, funding, transfers and
// account, every ticker (24-hour change and volume included), the books and tapes of the seeded
// markets and BTC-PERP's one-minute candles of the two hours before the start's minute. Not
// compared, as they follow the clock: the candles of the minutes since the start (a bar starts on
// the clock's minute, so which of the first trades it gathers depends on the start's second),
// and coarser candles (a 15-minute bar starts on the quarter hour, so which minutes it gathers
// depends on the time of day).
func demoSnapshot(t *testing.T, c *api.Client, start time.Time) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	snap := map[string]any{"address": c.Address()}
	get := func(name string, v any, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		snap[name] = v
	}
	ps, err := c.Positions(ctx, "")
	get("positions", ps, err)
	oo, err := c.OpenOrders(ctx, "", api.PageParams{})
	get("orders", oo, err)
	fs, err := c.Fills(ctx, "", api.PageParams{})
	get("fills", fs, err)
	fh, err := c.FundingHistory(ctx, "", api.PageParams{})
	get("funding", fh, err)
	as, err := c.AccountSummary(ctx, "")
	get("account", as, err)
	ts, err := c.Ticker(ctx, "")
	get("tickers", ts, err)
	xs, err := c.TransferHistory(ctx, "", 50)
	get("transfers", xs, err)
	for _, kind := range []string{"mark", "ltp"} { // the two hours of one-minute candles before the start's minute
		cs, err := c.Chart(ctx, api.ChartParams{InstrumentID: 1, ChartType: kind, Resolution: "1",
			From: start.Add(-2 * time.Hour).Unix(), To: start.Add(-time.Minute).Unix()})
		get("BTC-PERP 1m "+kind, cs, err)
	}
	for _, sym := range []string{"BTC-PERP", "ETH-PERP", "SOL-PERP"} {
		b, err := c.OrderBook(ctx, sym, 20)
		get("book "+sym, b, err)
		tr, err := c.Trades(ctx, sym, 50)
		get("tape "+sym, tr, err)
	}
	raw, err := json.MarshalIndent(snap, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return maskTimes(string(raw))
}

// clockText is a time of day as the records carry it: RFC 3339 or Unix milliseconds of this
// century; transaction hashes are masked too, as a hash covers the time it was made.
var clockText = regexp.MustCompile(`\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)|\b1[6-9]\d{11}\b|0x[0-9a-f]{64}`)

func maskTimes(s string) string { return clockText.ReplaceAllString(s, "<time>") }

// Demos of one seed started at different times of day (other minutes in the hour, other seconds
// in the minute, one whose first seconds cross into the next minute, other days) open the same
// wallet with the same market, positions, orders, fills, transfers and account, and the same
// tickers (24-hour change and volume), and stay the same as their markets step on. Guards a
// demo that follows the wall clock: a random key, a simulator whose history (and so every
// random draw after it) depends on where in the hour the start falls, and 24-hour figures read
// from clock-aligned minutes (their window then steps at a moment that depends on the start's
// second: a demo started at :58 showed other changes two seconds later than one started at :07).
func TestSeededDemoSameAtAnyStartTime(t *testing.T) {
	starts := []time.Time{
		time.Date(2026, 11, 22, 23, 52, 7, 250e6, time.UTC),
		time.Date(2026, 11, 23, 4, 11, 48, 900e6, time.UTC),
		time.Date(2026, 11, 23, 0, 44, 58, 500e6, time.UTC), // the first steps cross into 00:45
		time.Date(2026, 11, 23, 0, 37, 50, 0, time.UTC),
	}
	var snaps []string
	for _, at := range starts {
		clock := sim.NewTestClock(at)
		conn, err := StartDemo(context.Background(), Demo{Seed: 7, Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		conn.Sim.Advance(3 * time.Second) // the first screen comes after a few market steps
		snaps = append(snaps, demoSnapshot(t, conn.Client, at))
		conn.Close()
	}
	for k := 1; k < len(snaps); k++ {
		if snaps[0] == snaps[k] {
			continue
		}
		a, b := strings.Split(snaps[0], "\n"), strings.Split(snaps[k], "\n")
		n := 0
		for i := 0; i < len(a) && i < len(b) && n < 15; i++ {
			if a[i] != b[i] {
				t.Errorf("line %d: %s\n        vs %s", i+1, a[i], b[i])
				n++
			}
		}
		t.Fatalf("a seeded demo started at %s differs from one started at %s (%d and %d lines)",
			starts[k].Format("15:04:05.000"), starts[0].Format("15:04:05.000"), len(a), len(b))
	}
	if n := strings.Count(snaps[0], `"change_24h"`) - strings.Count(snaps[0], `"change_24h": "0"`); n < 5 {
		t.Fatalf("%d tickers with a 24-hour change compared, want most of them", n)
	}
	if n := strings.Count(snaps[0], `"volume"`); n < 2*120 {
		t.Fatalf("%d candles compared, want the two hours of both charts", n)
	}
	if !strings.Contains(snaps[0], `"ETH-PERP"`) {
		t.Fatalf("snapshot lacks the seeded positions:\n%s", snaps[0][:min(len(snaps[0]), 2000)])
	}
}

// TestTheDemoHasAVault (issue #42): the embedded demo's exchange has DemoVault, so the Vaults
// view has somewhere to deposit: a deposit of 10 lands in the wallet's vault_balances.
func TestTheDemoHasAVault(t *testing.T) {
	conn, err := StartDemo(t.Context(), Demo{Seed: 4, Empty: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Client.DepositToVault(t.Context(), DemoVault, "10"); err != nil {
		t.Fatal(err)
	}
	s, err := conn.Client.AccountSummary(t.Context(), conn.Client.Address())
	if err != nil || s.VaultBalances[DemoVault].WithdrawableShares.String() != "10" {
		t.Fatalf("vault_balances %v %v", s.VaultBalances, err)
	}
}
