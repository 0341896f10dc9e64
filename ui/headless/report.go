package headless

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/report"
)

// reportOpts are the flags of report, pnl and trades.
type reportOpts struct {
	since string
	csv   bool
	daily int
}

func sinceFlags(fs *flagSet, o *opts) {
	fs.StringVar(&o.rep.since, "since", "7d", "from `AGE` ago: 7d, 12h, 90m, or all")
}

func reportFlags(fs *flagSet, o *opts) {
	sinceFlags(fs, o)
	fs.BoolVar(&o.rep.csv, "csv", false, "write CSV (header row, exact decimals)")
}

func pnlFlags(fs *flagSet, o *opts) {
	fs.IntVar(&o.rep.daily, "daily", 30, "how many UTC days, up to today")
}

func init() {
	register(&command{name: "report", groups: gRead, flags: reportFlags, run: runReport,
		usage:   "[--since 7d] [--json|--csv] [--user ADDR]",
		summary: "Show each order's and algorithm's execution report card from its fills: average fill, slippage against the arrival mid and the preview (an algorithm's against its interval's market VWAP, and its participation), fees, maker share, time to fill, the console's latency."})
	register(&command{name: "pnl", groups: gRead, flags: pnlFlags, run: runPnl,
		usage:   "[--daily 30] [--json] [--user ADDR]",
		summary: "Show realised PnL, fees and funding per UTC day, from the fills and funding payments."})
	register(&command{name: "trades", groups: gRead, flags: sinceFlags, run: runTrades,
		usage:   "[--since 7d] [--json] [--user ADDR]",
		summary: "Show round trips: fills grouped by position (open, adds, closes) with average in and out, realised PnL, fees, funding and duration."})
}

// parseSince reads --since: a number of days (7d), a Go duration (12h, 90m) or "all" (zero).
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "all" {
		return time.Time{}, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d > 0 {
			return now.AddDate(0, 0, -d), nil
		}
	} else if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, usagef("--since %s: give an age such as 7d, 12h or 90m, or all", text.Quote(s))
}

// journaled is what the journal of the client's account holds for the report: each order's
// arrival and route, and the algorithms (none without a journal: a fresh one, another account's
// --user, no state directory), and the journal itself while the report runs (nil: none). The
// file is not created by reading.
type journaled struct {
	j        *journal.Journal
	arrivals map[string]journal.Arrival
	routes   map[string]journal.Route
	algos    []journal.Algo
}

func (r *runner) journaled(ctx context.Context, user string) journaled {
	var out journaled
	path, err := r.journalPath()
	if err != nil || !strings.EqualFold(user, r.client.Address()) {
		return out
	}
	if _, err := os.Stat(path); err != nil {
		return out
	}
	j, err := journal.Open(path)
	if err != nil {
		return out
	}
	out.j = j
	out.arrivals, _ = j.Arrivals(ctx)
	out.routes, _ = j.Routes(ctx)
	out.algos, _ = j.Algos(ctx, false)
	return out
}

// reportCards are the cards of every order filled since, and of every journaled algorithm with
// fills, algorithms first: each algorithm measured against its market's trades in its interval
// (report.MeasureAlgo), each order with the route the console recorded for it.
func (r *runner) reportCards(ctx context.Context, st *state.Store, user string, since time.Time) ([]reportRow, error) {
	fills, err := report.Fills(ctx, r.client, user, since)
	if err != nil {
		return nil, err
	}
	jd := r.journaled(ctx, user)
	if jd.j != nil {
		defer jd.j.Close()
	}
	ticks := func(name string) (decimal.Decimal, bool) {
		in, ok := st.Instrument(name)
		return in.TickSize, ok
	}
	var rows []reportRow
	for _, a := range jd.algos {
		c, ok := report.Algo(a.ID, fills, jd.arrivals, ticks)
		if !ok {
			continue
		}
		tick, _ := ticks(c.Instrument)
		report.MeasureAlgo(ctx, r.client, jd.j, a, &c, r.now(), tick)
		rows = append(rows, reportRow{Kind: a.Kind, Card: c})
	}
	for _, c := range report.Orders(fills, jd.arrivals, ticks) {
		c.SetRoute(jd.routes[c.Cloid])
		rows = append(rows, reportRow{Kind: "order", Card: c})
	}
	return rows, nil
}

// reportRow is one card: of an order, or of an algorithm (its kind: chase, twap...).
type reportRow struct {
	Kind string `json:"kind"`
	report.Card
}

func runReport(ctx context.Context, r *runner) error {
	if r.o.json && r.o.rep.csv {
		return usagef("--json and --csv: give one")
	}
	user, err := r.account()
	if err != nil {
		return err
	}
	since, err := parseSince(r.o.rep.since, r.now())
	if err != nil {
		return err
	}
	st, err := r.market(ctx)
	if err != nil {
		return err
	}
	rows, err := r.reportCards(ctx, st, user, since)
	if err != nil {
		return err
	}
	switch {
	case r.o.json:
		return writeJSON(r.env.Stdout, nonNil(rows))
	case r.o.rep.csv:
		return writeReportCSV(r.env.Stdout, rows)
	}
	return reportTable(st, rows).write(r.env.Stdout)
}

func runTrades(ctx context.Context, r *runner) error {
	user, err := r.account()
	if err != nil {
		return err
	}
	since, err := parseSince(r.o.rep.since, r.now())
	if err != nil {
		return err
	}
	fills, err := report.Fills(ctx, r.client, user, since)
	if err != nil {
		return err
	}
	funding, err := report.Funding(ctx, r.client, user, since)
	if err != nil {
		return err
	}
	trips := report.Trips(fills, funding)
	if r.o.json {
		return writeJSON(r.env.Stdout, nonNil(trips))
	}
	st, err := r.market(ctx)
	if err != nil {
		return err
	}
	return tripsTable(st, trips, r.now()).write(r.env.Stdout)
}

func runPnl(ctx context.Context, r *runner) error {
	n := r.o.rep.daily
	if n < 1 || n > 3660 {
		return usagef("--daily %d: give a number of days from 1 to 3660", n)
	}
	user, err := r.account()
	if err != nil {
		return err
	}
	now := r.now()
	since := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, 1-n)
	fills, err := report.Fills(ctx, r.client, user, since)
	if err != nil {
		return err
	}
	funding, err := report.Funding(ctx, r.client, user, since)
	if err != nil {
		return err
	}
	days := report.Daily(fills, funding, n, now)
	if r.o.json {
		return writeJSON(r.env.Stdout, days)
	}
	return dailyTable(days).write(r.env.Stdout)
}
