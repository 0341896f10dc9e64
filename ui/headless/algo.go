package headless

import (
	"context"
	"encoding/json"
	"fmt"
	treport "github.com/tradedesk/tradedesk/state/report"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
)

// algoOpts are the flags of chase, twap, scale and algos.
type algoOpts struct {
	offset, maxDistance, refresh, onRestart, forDur string
	aggressive, keep                                bool
	from, to, distribution                          string
	count                                           int
	duration, band                                  string
	slices                                          int
	randomize                                       bool
	distance, every                                 string
	guard                                           bool
}

func trailFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "instrument name or id of the position, e.g. BTC-PERP")
	fs.text(&o.algo.distance, "distance", "D", "how far behind the best mark: a price (500), a percent (1.5%) or ticks (40t)")
	fs.text(&o.algo.every, "every", "DUR", "move the stop at most once this often (default 5s)")
	guardFlag(fs, o)
	onRestartFlag(fs, o)
}

func twapFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "instrument name or id, e.g. BTC-PERP")
	fs.text(&o.side, "side", "SIDE", "buy or sell")
	fs.text(&o.size, "size", "N", "size to fill, in the instrument's lots")
	fs.text(&o.algo.duration, "duration", "DUR", "how long to spread it over, e.g. 30m")
	fs.IntVar(&o.algo.slices, "slices", 0, "number of slices (default: one a minute)")
	fs.text(&o.algo.every, "every", "DUR", "a slice this often instead of --slices, e.g. 2m")
	fs.text(&o.algo.band, "band", "LO-HI", "hard price band of every slice (default: 1% around the arrival price)")
	fs.BoolVar(&o.algo.randomize, "randomize", false, "vary the slices' sizes (by up to a third)")
	guardFlag(fs, o)
	onRestartFlag(fs, o)
}

// guardFlag is --guard of the algorithm commands.
func guardFlag(fs *flagSet, o *opts) {
	fs.BoolVar(&o.algo.guard, "guard", false, "hand the algorithm to the account's running guard and return at once with its id")
}

func onRestartFlag(fs *flagSet, o *opts) {
	fs.text(&o.algo.onRestart, "on-restart", "CHOICE", "what to do with an algorithm an earlier run left running: "+strings.Join(algo.OnRestartChoices, ", "))
}

func chaseFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "instrument name or id, e.g. BTC-PERP")
	fs.text(&o.side, "side", "SIDE", "buy or sell")
	fs.text(&o.size, "size", "N", "size to fill, in the instrument's lots")
	fs.text(&o.algo.offset, "offset", "Nt", "hold the order N ticks off the quote (stalk), e.g. 2t")
	fs.text(&o.algo.maxDistance, "max-distance", "D", "never chase further than this from the start: a percent (0.1%) or a price")
	fs.text(&o.algo.forDur, "for", "DUR", "stop after this long, e.g. 5m (default: until filled)")
	fs.text(&o.algo.refresh, "refresh", "Nt", "follow the quote only once it moved N ticks (default 1t)")
	fs.BoolVar(&o.algo.aggressive, "aggressive", false, "rest one tick inside the spread when there is room")
	fs.BoolVar(&o.algo.keep, "keep", false, "leave the last order resting when the chase stops unfilled")
	guardFlag(fs, o)
	onRestartFlag(fs, o)
}

func scaleFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "instrument name or id, e.g. BTC-PERP")
	fs.text(&o.side, "side", "SIDE", "buy or sell")
	fs.text(&o.size, "size", "N", "total size, in the instrument's lots")
	fs.text(&o.algo.from, "from", "PX", "first rung's price")
	fs.text(&o.algo.to, "to", "PX", "last rung's price")
	fs.IntVar(&o.algo.count, "count", 10, "number of rungs, 1 to 100")
	SetFlagRange(fs.FlagSet, "count", "1 to 100")
	fs.text(&o.algo.distribution, "distribution", "D", "sizes over the rungs: flat (default), inc, dec or geo")
	fs.BoolVar(&o.yes, "yes", false, "send the rungs (without it the plan is printed and nothing is sent)")
	guardFlag(fs, o)
	onRestartFlag(fs, o)
}

func init() {
	register(&command{name: "chase", trades: true, groups: gAgentTrade, flags: chaseFlags, run: runChase,
		usage: "--instrument SYM --side buy|sell --size N [--offset 2t] [--max-distance 0.1%|PX] [--for 5m] [--refresh 3t] [--aggressive] [--keep] [--on-restart resume|cancel|flatten] [--guard] [--json]",
		summary: "Work a post-only order at the best bid (buy) or ask (sell), repriced toward the fill, until the size is filled; " +
			"prints a progress line per step (NDJSON with --json), the last one the summary. Ctrl+C stops it and says what filled."})
	register(&command{name: "twap", trades: true, groups: gAgentTrade, flags: twapFlags, run: runTWAP,
		usage: "--instrument SYM --side buy|sell --size N --duration 30m [--slices 12] [--band LO-HI] [--randomize] [--on-restart resume|cancel|flatten] [--guard] [--json]",
		summary: "Spread a size over a duration in slices, each an IOC limit priced by walking the book inside a price band; a slice the band cannot fill " +
			"rolls into the next, a stale book pauses it. Progress lines as chase's; Ctrl+C stops it and says what filled."})
	register(&command{name: "trail", trades: true, groups: gAgentTrade, flags: trailFlags, run: runTrail,
		usage: "--instrument SYM --distance 1.5%|Nt|PX [--every 5s] [--on-restart resume|cancel|flatten] [--guard] [--json]",
		summary: "Keep a reduce-only stop the distance behind the position's best mark, moved only toward profit, until it fires; " +
			"refused when the stop would lie beyond the liquidation price. Ctrl+C stops following and leaves the stop at the exchange."})
	register(&command{name: "scale", trades: true, groups: gAgentTrade, flags: scaleFlags, run: runScale,
		usage:   "--instrument SYM --side buy|sell --size N --from PX --to PX [--count 10] [--distribution flat|inc|dec|geo] [--yes] [--guard] [--json]",
		summary: "Place N limit orders between two prices as one request, sharing a client id prefix (cancel them as one with `tradedesk algos --cancel ID`)."})
	register(&command{name: "algos", groups: gAgentTrade, flags: algosFlags, run: runAlgos,
		usage:   "[--cancel ID] [--on-restart resume|cancel|flatten] [--json]",
		summary: "List the journal's algorithms and their state; --cancel ID cancels an algorithm's open orders; --on-restart settles those an earlier run left running."})
}

// algoDeps opens the journal and the executor, settles what an earlier run left open, and gives
// the algorithms' dependencies; close closes the journal.
func (r *runner) algoDeps(ctx context.Context, report func(algo.Progress)) (*algo.Deps, func(), error) {
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return nil, nil, err
	}
	d := &algo.Deps{Exec: e, Journal: e.Journal(), Market: &algo.StreamMarket{Ex: r.client, Now: r.env.Now}, Read: r.client, Account: r.client.Address(), Now: r.env.Now, Report: report,
		MinReprice: r.env.AlgoReprice, Ended: treport.Keeper(r.client, e.Journal(), r.env.Now)}
	if report != nil { // an algorithm runs here: it reads the stream while it is up
		closeStream := r.algoStream(d)
		closeJournal := done
		done = func() { closeStream(); closeJournal() }
	}
	return d, done, nil
}

// algoStream opens the exchange's stream for the algorithms of d (their quotes, their children's
// records and fills, their children's stores: algo.Tape), as the console hands them its own;
// polling stays the fallback.
// It returns what closes it (nothing to close for an exchange with no stream).
func (r *runner) algoStream(d *algo.Deps) func() {
	c, ok := r.client.(*api.Client)
	u, err := "", error(nil)
	if ok {
		u, err = api.StreamURL(c.BaseURL())
	}
	if !ok || err != nil || d.Account == "" {
		return func() {}
	}
	st := api.NewStream(u)
	ctx, cancel := context.WithCancel(context.Background())
	var refused atomic.Bool
	d.Tape = algo.NewTape(func() api.StreamStatus {
		if refused.Load() {
			return api.StreamStatus{} // a topic refused: the algorithms poll
		}
		return st.Status()
	})
	go func() {
		for _, t := range algo.Topics(d.Account) {
			if _, err := st.Subscribe(ctx, t); err != nil {
				refused.Store(true)
				return
			}
		}
	}()
	go d.Tape.Follow(ctx, st)
	tapeMarket(d)
	return func() { cancel(); st.Close() }
}

// tapeMarket hands d's tape to its market (an algo.StreamMarket, or the guard's gate around one),
// so that a child's store takes the prices, the account, the positions and the kept leverage from
// the stream, as the console's do.
func tapeMarket(d *algo.Deps) {
	m := d.Market
	if g, ok := m.(gatedMarket); ok {
		m = g.m
	}
	if sm, ok := m.(*algo.StreamMarket); ok {
		sm.Tape = d.Tape
	}
}

// leftRunning settles the algorithms an earlier run left running, by --on-restart (else the
// config's [on_restart] choice for the kind), before anything new is sent: resumed ones run to
// their end here. When neither says what to do with one, it refuses, naming each with what it
// did so far (algo.Survey), and nothing is settled.
func (r *runner) leftRunning(ctx context.Context, d *algo.Deps) error {
	run, err := algo.Running(ctx, d)
	if err != nil || len(run) == 0 {
		return err
	}
	choices := make([]string, len(run))
	var names []string
	for i, a := range run {
		if choices[i] = r.o.algo.onRestart; choices[i] == "" {
			choices[i] = r.o.conn.onRestart(a.Kind)
		}
		if choices[i] == "" {
			p, _ := algo.Survey(ctx, d, a)
			names = append(names, a.Kind+" "+a.ID+" ("+surveyWords(p)+")")
		}
	}
	if len(names) > 0 {
		return usagef("%d algorithm(s) left running by an earlier run: %s; give --on-restart %s (or set [on_restart] in the config)",
			len(names), text.Clean(strings.Join(names, "; ")), strings.Join(algo.OnRestartChoices, "|"))
	}
	for i, a := range run {
		choice := choices[i]
		rn, p, err := algo.Restart(ctx, d, a, choice)
		if err != nil {
			return fmt.Errorf("%s %s: %w", a.Kind, text.Clean(a.ID), err)
		}
		if rn != nil {
			fmt.Fprintf(r.env.Stderr, "resuming %s %s\n", a.Kind, text.Clean(a.ID))
			if p, err = rn.Run(ctx); err != nil {
				return err
			}
		}
		if err := r.printProgress(p, true); err != nil {
			return err
		}
	}
	return nil
}

// surveyWords is what a left algorithm did so far, in a few words.
func surveyWords(p algo.Progress) string {
	if p.Target.IsZero() && p.Detail != "" {
		return p.Detail
	}
	s := fmt.Sprintf("%s filled %s of %s", p.Side, p.Filled, p.Target)
	if p.Filled.IsPositive() {
		s += fmt.Sprintf(" at %s avg", p.AvgPrice.Round(8))
	}
	if p.Working != "" && p.WorkingPrice != nil {
		s += fmt.Sprintf(", working %s at %s", p.WorkingSize, p.WorkingPrice)
	}
	return s
}

// errNoInstrument is the usage error of a command that needs --instrument, run without it.
var errNoInstrument = usagef("--instrument is required (a name like BTC-PERP or an id)")

// orderFlags reads what an algorithm that places orders needs: --instrument (there), --side and
// --size.
func (r *runner) orderFlags() (side string, size decimal.Decimal, err error) {
	if strings.TrimSpace(r.o.instrument) == "" {
		return "", decimal.Zero, errNoInstrument
	}
	if side, err = sideFlag(r.o.side); err != nil {
		return "", decimal.Zero, err
	}
	size, err = sizeFlag(r.o.size)
	return side, size, err
}

// durationFlag reads an optional positive duration (0 when not given); example is one the error
// suggests.
func durationFlag(name, s, example string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, usagef("--%s %q: give a positive duration such as %s", name, s, example)
	}
	return d, nil
}

// ticksFlag reads "2t" (or "2") as a number of ticks.
func ticksFlag(name, s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSuffix(s, "t"))
	if err != nil || n < 0 {
		return 0, usagef("--%s %q: give a number of ticks such as 2t", name, s)
	}
	return n, nil
}

// sizeFlag reads a positive size.
func sizeFlag(s string) (decimal.Decimal, error) {
	v, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil || !v.IsPositive() {
		return v, usagef("--size %q: give a positive size such as 0.01", s)
	}
	return v, nil
}

// sideFlag reads buy or sell.
func sideFlag(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "buy", "b", "long":
		return "buy", nil
	case "sell", "s", "short":
		return "sell", nil
	}
	return "", usagef("--side %q: give buy or sell", s)
}

// printProgress writes one progress line: NDJSON with --json, else words.
func (r *runner) printProgress(p algo.Progress, final bool) error {
	if r.o.json {
		r.jsonDone = true
		line := progressJSON{Progress: p, Final: final}
		if final && p.Filled.IsPositive() {
			bp := slippageBp(p)
			line.SlippageBp = &bp
		}
		raw, _ := json.Marshal(line)
		_, err := fmt.Fprintf(r.env.Stdout, "%s\n", raw)
		return err
	}
	_, err := fmt.Fprintln(r.env.Stdout, progressWords(p, final))
	return err
}

// progressJSON is one NDJSON line; the last one (final) is the summary.
type progressJSON struct {
	algo.Progress
	Final      bool             `json:"final"`
	SlippageBp *decimal.Decimal `json:"slippage_bp,omitempty"`
}

// slippageBp is the average fill against the arrival price in basis points, positive when worse
// (algo.Progress.SlippageBp: the console's Algos view shows the same figure).
func slippageBp(p algo.Progress) decimal.Decimal { return p.SlippageBp() }

func progressWords(p algo.Progress, final bool) string {
	s := fmt.Sprintf("%s %s %s %s: filled %s of %s", p.Kind, p.ID, p.Side, text.Clean(p.Instrument), p.Filled, p.Target)
	if p.Filled.IsPositive() {
		s += fmt.Sprintf(" at %s avg", p.AvgPrice.Round(8))
	}
	if final {
		if p.Filled.IsPositive() {
			s += fmt.Sprintf(" (%s bp from the arrival %s), fee %s", slippageBp(p), p.Arrival.Round(8), p.Fee)
		}
		s += ", " + p.State
	} else if p.Working != "" && p.WorkingPrice != nil {
		s += fmt.Sprintf("; working %s at %s (%s)", p.WorkingSize, p.WorkingPrice, p.Working)
	}
	if p.Reprices > 0 {
		s += fmt.Sprintf("; %d reprices", p.Reprices)
	}
	if p.Slices > 0 {
		s += fmt.Sprintf("; %d slices", p.Slices)
	}
	if p.Detail != "" {
		s += ": " + text.Clean(p.Detail)
	}
	return s
}
