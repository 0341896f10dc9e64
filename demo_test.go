package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// demoSnapshot is what the console's first screen reads from the demo, as JSON with the times of
// day masked: the wallet, its positions, orders, fills, funding and account, every ticker, the
// books and tapes of the seeded markets and BTC-PERP's recent one-minute candles. (Coarser
// candles are not compared: a 15-minute bar starts on the quarter hour, so which minutes it
// gathers depends on the time of day.)
func demoSnapshot(t *testing.T, c *api.Client, now time.Time) string {
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
	for _, kind := range []string{"mark", "ltp"} { // the last two hours of one-minute candles
		cs, err := c.Chart(ctx, api.ChartParams{InstrumentID: 1, ChartType: kind, Resolution: "1",
			From: now.Add(-2 * time.Hour).Unix(), To: now.Unix()})
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

// Two demos of one seed started at different times of day (other minutes in the hour, other
// seconds in the minute, other days) open the same wallet with the same market, positions,
// orders, fills and account, and stay the same as their markets step on. Guards a demo that
// follows the wall clock: a random key, or a simulator whose history (and so every random draw
// after it) depends on where in the hour the start falls.
func TestSeededDemoSameAtAnyStartTime(t *testing.T) {
	starts := []time.Time{
		time.Date(2026, 11, 22, 23, 52, 7, 250e6, time.UTC),
		time.Date(2026, 11, 23, 4, 11, 48, 900e6, time.UTC),
	}
	var snaps []string
	for _, at := range starts {
		clock := sim.NewTestClock(at)
		conn, err := startDemo(context.Background(), demoSpec{seed: 7, clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		conn.sim.Advance(3 * time.Second) // the first screen comes after a few market steps
		snaps = append(snaps, demoSnapshot(t, conn.client, clock.Now()))
		conn.close()
	}
	if snaps[0] != snaps[1] {
		a, b := strings.Split(snaps[0], "\n"), strings.Split(snaps[1], "\n")
		n := 0
		for i := 0; i < len(a) && i < len(b) && n < 15; i++ {
			if a[i] != b[i] {
				t.Errorf("line %d: %s\n        vs %s", i+1, a[i], b[i])
				n++
			}
		}
		t.Fatalf("a seeded demo differs by its start time (%d and %d lines)", len(a), len(b))
	}
	if n := strings.Count(snaps[0], `"volume"`); n < 2*120 {
		t.Fatalf("%d candles compared, want the two hours of both charts", n)
	}
	if !strings.Contains(snaps[0], `"ETH-PERP"`) {
		t.Fatalf("snapshot lacks the seeded positions:\n%s", snaps[0][:min(len(snaps[0]), 2000)])
	}
}
