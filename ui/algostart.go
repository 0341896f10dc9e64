package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// onAlgoMsg routes the algorithms' messages: a command line's algorithm command, and the Algos
// view's progress and journal reads (to every pane).
func (m *Model) onAlgoMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cmdline.AlgoMsg:
		return m.startAlgo(msg.Cmd), true
	case orderentry.AlgoMsg:
		return m.startAlgo(msg.Cmd), true
	case algos.ChoiceMsg:
		return m.restartAlgo(state.AlgoCommand{Kind: "algos", Choice: msg.Choice, ID: msg.ID}), true
	case algos.ProgressMsg:
		return tea.Batch(m.broadcast(msg), algos.Failed(msg.Row)), true
	case algos.HistoryMsg, algos.LeftMsg:
		return m.broadcast(msg), true
	case liveAlgoMsg:
		return m.onLiveAlgo(msg), true
	}
	return nil, false
}

// algoStart is what an algorithm command sends, once its preview is confirmed: it starts the
// algorithm with executor e and says what it started.
type algoStart func(ctx context.Context, e *exec.Executor) (string, error)

// startAlgo previews an algorithm command through the confirmation a market order takes; its
// Enter starts the algorithm on its own goroutine.
func (m *Model) startAlgo(c state.AlgoCommand) tea.Cmd {
	if c.Kind == "algos" {
		return m.restartAlgo(c)
	}
	inst, err := m.store.ResolveInstrument(c.Instrument)
	if err != nil {
		return common.Notice(common.LevelError, cmdline.NotSent+text.Clean(err.Error()))
	}
	var lines []string
	var start algoStart
	switch c.Kind {
	case "chase":
		lines, start, err = m.chasePlan(m.algos, c, inst)
	case "twap":
		lines, start, err = m.twapPlan(m.algos, c, inst)
	case "scale":
		lines, start, err = m.scalePlan(m.algos, c, inst)
	case "trail":
		lines, start, err = m.trailPlan(m.algos, c, inst)
	}
	if err != nil {
		return common.Notice(common.LevelError, cmdline.NotSent+text.Clean(err.Error()))
	}
	what := algoWhat(c, inst)
	var said string
	a := &action.Action{Kind: action.KindPlace, Title: "Start " + c.Kind, What: what, Confirm: true, Lane: action.LaneOrder,
		Who: journal.WhoCommandLine, Lines: append([]string{m.st.Bold.On(strings.ToUpper(what)), ""}, lines...)}
	a.Run = func(ctx context.Context, e *exec.Executor, _ exec.Ask) (action.Outcome, error) {
		s, err := start(ctx, e)
		said = s
		return action.Outcome{}, err
	}
	a.Read = func(d action.DoneMsg) (string, bool) {
		if d.Err != nil {
			return what + " not started: " + common.PlainError(d.Err), true
		}
		return said, false
	}
	return action.Request(a)
}

// algoWhat is the command in one line for the status line and the log.
func algoWhat(c state.AlgoCommand, inst state.Instrument) string {
	if c.Kind == "trail" {
		return "trail " + inst.Name + " " + c.Distance
	}
	return fmt.Sprintf("%s %s %s %s", c.Kind, c.Side, c.Size, inst.Name)
}

// quote is the instrument's best bid and ask as the store has them (zero when unknown), else its
// mid for both.
func (m *Model) quote(inst state.Instrument) (bid, ask decimal.Decimal) {
	if t, ok := m.store.Ticker(inst.Name); ok && t.BestBidPrice.IsPositive() && t.BestAskPrice.IsPositive() {
		return t.BestBidPrice, t.BestAskPrice
	}
	mid, _ := m.store.Mid(inst.Name)
	return mid, mid
}

// chasePlan is a chase's preview and start, run by runner r (the console's, or a shadow
// console's live session's).
func (m *Model) chasePlan(r *algos.Runner, c state.AlgoCommand, inst state.Instrument) ([]string, algoStart, error) {
	p := algo.ChaseParams{Instrument: inst.Name, Side: c.Side, Size: c.Size, Offset: c.Offset, MaxDistance: c.MaxDistance, Keep: c.Keep}
	bid, ask := m.quote(inst)
	from := map[string]decimal.Decimal{"buy": bid, "sell": ask}[c.Side]
	worst := "none: it follows the quote as far as it goes (add to 0.1% to bound it)"
	if c.MaxDistance != "" {
		lim, err := algo.LimitOf(c.MaxDistance, c.Side, from, inst.TickSize)
		if err != nil {
			return nil, nil, err
		}
		worst = inst.PriceText(lim) + " (" + c.MaxDistance + " from " + inst.PriceText(from) + ")"
	}
	lines := []string{
		"Sends        one post-only limit of " + inst.SizeText(c.Size) + " at the best " + map[string]string{"buy": "bid", "sell": "ask"}[c.Side] +
			fmt.Sprintf(" (%d ticks off), repriced toward the fill", c.Offset),
		"Now          " + inst.PriceText(from),
		"Worst price  " + worst,
		"Ends         " + endsText(c.For) + keepText(c.Keep),
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		var until time.Time
		if c.For > 0 {
			until = r.Now().Add(c.For)
			p.Until = until
		}
		if r.Remote() {
			return r.Hand(ctx, "chase", p, algoWhat(c, inst))
		}
		ch, err := algo.NewChase(ctx, r.Deps(e, &until), "", p)
		if err != nil {
			return "", err
		}
		r.Run(ch, algo.Progress{ID: ch.ID(), Kind: "chase", Instrument: inst.Name, Side: c.Side, Target: c.Size, State: journal.AlgoRunning}, until)
		return "chase " + ch.ID() + " started: " + algoWhat(c, inst), nil
	}
	return lines, start, nil
}

func endsText(d time.Duration) string {
	if d <= 0 {
		return "when filled"
	}
	return "when filled or after " + d.String()
}

func keepText(keep bool) string {
	if keep {
		return "; its last order is kept resting if unfilled"
	}
	return "; its working order is cancelled"
}

// twapPlan is a TWAP's preview and start, run by runner r (as chasePlan).
func (m *Model) twapPlan(r *algos.Runner, c state.AlgoCommand, inst state.Instrument) ([]string, algoStart, error) {
	slices, err := algo.SlicesOf(c.Duration, c.Slices, c.Every)
	if err != nil {
		return nil, nil, err
	}
	p := algo.TWAPParams{Instrument: inst.Name, Side: c.Side, Size: c.Size, Duration: c.Duration, Slices: slices, BandLo: c.BandLo, BandHi: c.BandHi, Randomize: c.Random}
	if p.BandHi.LessThan(p.BandLo) {
		p.BandLo, p.BandHi = p.BandHi, p.BandLo
	}
	bid, ask := m.quote(inst)
	band := inst.PriceText(p.BandLo) + " to " + inst.PriceText(p.BandHi)
	worst := map[string]decimal.Decimal{"buy": p.BandHi, "sell": p.BandLo}[c.Side]
	if p.BandLo.IsZero() {
		mid := bid.Add(ask).Div(decimal.NewFromInt(2))
		one := decimal.NewFromInt(1)
		lo, hi := mid.Mul(one.Sub(algo.DefaultBand)), mid.Mul(one.Add(algo.DefaultBand))
		band = "1% around the arrival price: about " + inst.PriceText(lo) + " to " + inst.PriceText(hi)
		worst = map[string]decimal.Decimal{"buy": hi, "sell": lo}[c.Side]
	}
	lines := []string{
		fmt.Sprintf("Sends        %d IOC limit slices of about %s, one every %s", slices,
			inst.SizeText(c.Size.Div(decimal.NewFromInt(int64(slices))).Round(inst.SizeDecimals())), (c.Duration / time.Duration(slices)).Round(time.Second)),
		"Band         " + band,
		"Worst price  " + inst.PriceText(worst) + " (the band's edge); a slice the band cannot fill rolls into the next",
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		if r.Remote() {
			return r.Hand(ctx, "twap", p, algoWhat(c, inst))
		}
		until := r.Now().Add(c.Duration)
		t, err := algo.NewTWAP(ctx, r.Deps(e, &until), "", p)
		if err != nil {
			return "", err
		}
		r.Run(t, algo.Progress{ID: t.ID(), Kind: "twap", Instrument: inst.Name, Side: c.Side, Target: c.Size, State: journal.AlgoRunning}, until)
		return "twap " + t.ID() + " started: " + algoWhat(c, inst), nil
	}
	return lines, start, nil
}

func (m *Model) scalePlan(r *algos.Runner, c state.AlgoCommand, inst state.Instrument) ([]string, algoStart, error) {
	p := algo.ScaleParams{Instrument: inst.Name, Side: c.Side, Size: c.Size, From: c.From, To: c.To, Count: c.Count, Distribution: c.Distribution}
	bid, ask := m.quote(inst)
	rungs, warns, err := algo.PlanScale(inst, p, bid, ask)
	if err != nil {
		return nil, nil, err
	}
	var cost decimal.Decimal
	for _, rung := range rungs {
		cost = cost.Add(rung.Price.Mul(rung.Size))
	}
	lines := []string{
		fmt.Sprintf("Sends        %d limit orders as one request, %s", len(rungs), c.Distribution),
		"Band         " + inst.PriceText(c.From) + " to " + inst.PriceText(c.To),
		"Worst case   all fill: " + inst.SizeText(c.Size) + " at " + inst.PriceText(cost.Div(c.Size)) + " avg, " + common.FmtNum(cost, 2) + " notional",
	}
	for i, rung := range rungs {
		if i == 3 && len(rungs) > 5 {
			lines = append(lines, fmt.Sprintf("  … %d more", len(rungs)-4))
			rung = rungs[len(rungs)-1]
			i = len(rungs) - 1
		} else if i > 3 && len(rungs) > 5 {
			continue
		}
		lines = append(lines, fmt.Sprintf("  rung %-3d %s @ %s", i+1, inst.SizeText(rung.Size), inst.PriceText(rung.Price)))
	}
	for _, w := range warns {
		lines = append(lines, m.st.Warn.On("! "+w))
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		if r.Remote() {
			return r.Hand(ctx, "scale", p, algoWhat(c, inst))
		}
		res, err := algo.PlaceScale(ctx, r.Deps(e, new(time.Time)), "", p, rungs)
		if res.ID != "" {
			row := algos.ScaleRow(p, res)
			row.Session = r.Session
			r.Feed.Begin()
			r.Feed.End(row)
		}
		if err != nil {
			return "", err
		}
		return "scale " + res.ID + ": " + res.Batch.Reason, nil
	}
	return lines, start, nil
}

func (m *Model) trailPlan(r *algos.Runner, c state.AlgoCommand, inst state.Instrument) ([]string, algoStart, error) {
	p := algo.TrailParams{Instrument: inst.Name, Distance: c.Distance}
	mid, _ := m.store.Mid(inst.Name)
	if t, ok := m.store.Ticker(inst.Name); ok && t.MarkPrice.IsPositive() {
		mid = t.MarkPrice
	}
	dist, err := algo.DistanceOf(c.Distance, mid, inst.TickSize)
	if err != nil {
		return nil, nil, err
	}
	lines := []string{
		"Sends        a reduce-only stop-loss on the whole position, " + c.Distance + " behind its best mark",
		"Now          mark about " + inst.PriceText(mid) + ", distance " + inst.PriceText(dist),
		"Moves        only toward profit, by cancel then place; it stays at the exchange if the console quits",
	}
	start := func(ctx context.Context, e *exec.Executor) (string, error) {
		if r.Remote() {
			return r.Hand(ctx, "trail", p, algoWhat(c, inst))
		}
		var until time.Time
		t, err := algo.NewTrail(ctx, r.Deps(e, &until), "", p)
		if err != nil {
			return "", err
		}
		r.Run(t, algo.Progress{ID: t.ID(), Kind: "trail", Instrument: inst.Name, State: journal.AlgoRunning}, until)
		return "trail " + t.ID() + " started on " + inst.Name, nil
	}
	return lines, start, nil
}

// restartAlgo applies `:algos CHOICE ID` (and the Algos view's keys): pause or resume one this
// console runs (the journal's pause, seen at its next look); cancel one it runs stops it; an
// earlier run's is resumed, cancelled or flattened by the restart rule (algos.Runner.Restart),
// flatten after the confirmation a market order gets. The Algos view shows what became of it.
func (m *Model) restartAlgo(c state.AlgoCommand) tea.Cmd {
	if m.c.ReadOnly != "" || m.algos.Journal() == nil {
		return common.Notice(common.LevelWarn, "read-only: :algos "+c.Choice+" not done")
	}
	r := m.runnerOf(c.ID)
	live := r.Runs(c.ID)
	switch {
	case c.Choice == "pause", c.Choice == "resume" && live:
		return r.Switch(c.ID, c.Choice)
	case c.Choice == "cancel" && live:
		r.Stop(c.ID, true)
		return tea.Batch(common.Notice(common.LevelInfo, "stopping "+text.Clean(c.ID)+"…"), m.algoPane.Watch())
	case c.Choice == "flatten" && live:
		return common.Notice(common.LevelError, "this console runs "+text.Clean(c.ID)+": flatten is for an algorithm an earlier run left; s stops it")
	case c.Choice == "flatten":
		return m.confirmFlatten(c.ID)
	}
	m.algos.Restart(c.ID, c.Choice)
	return tea.Batch(common.Notice(common.LevelInfo, ":algos "+c.Choice+" "+text.Clean(c.ID)+"…"), m.algoPane.Watch())
}

// confirmFlatten asks, as for a market order, before an earlier run's algorithm is flattened:
// its children cancelled and what it opened closed at market.
func (m *Model) confirmFlatten(id string) tea.Cmd {
	what := "flatten algorithm " + text.Clean(id)
	var row algos.Row
	a := &action.Action{Kind: action.KindPlace, Title: "Flatten an algorithm", What: what, Confirm: true, Lane: action.LaneOrder,
		Who: journal.WhoCommandLine, Lines: []string{m.st.Bold.On(strings.ToUpper(what)), "",
			"Cancels   its orders still open (what filled is kept until closed)",
			"Sends     a market order the other way for what it filled: the worst case is the book's depth"}}
	a.Run = func(ctx context.Context, _ *exec.Executor, _ exec.Ask) (action.Outcome, error) {
		m.algos.Feed.Begin()
		row = m.algos.RestartNow(ctx, id, algo.OnRestartFlatten)
		m.algos.Feed.End(row)
		if row.State == algo.StateFailed {
			return action.Outcome{}, errors.New(row.Detail)
		}
		return action.Outcome{}, nil
	}
	a.Read = func(d action.DoneMsg) (string, bool) {
		if d.Err != nil {
			return what + ": " + common.PlainError(d.Err), true
		}
		return what + ": " + text.Clean(row.Detail), false
	}
	return action.Request(a)
}
