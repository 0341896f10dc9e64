package report

import (
	"context"
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/record"
)

// TapeLimit is how many of an instrument's latest trades the report reads to measure an
// algorithm against the market (the exchange keeps a short tape).
const TapeLimit = 200

// Market is an algorithm's interval measured against the market's own trades.
type Market struct {
	From   time.Time       `json:"from"`
	To     time.Time       `json:"to"`
	Trades int             `json:"trades"`
	Volume decimal.Decimal `json:"volume"` // the size the market traded in the interval
	VWAP   decimal.Decimal `json:"vwap"`   // the volume-weighted average of those trades
	// Covered is false when the trades read do not reach back to From: the tape is short, and
	// VWAP and Volume are of the part of the interval it covers; Participation is then not known.
	Covered bool `json:"covered"`
	// Participation is the algorithm's filled size over the market's volume in the interval, 0..1
	// (its own fills are among the market's trades).
	Participation decimal.Decimal `json:"participation"`
	// VsVWAP is the algorithm's average fill against the interval's VWAP, against the trader.
	VsVWAP Slip `json:"vs_vwap"`
}

// Interval is the time an algorithm ran: from its start to its end, or to now while it runs.
func Interval(a record.Algo, now time.Time) (from, to time.Time) {
	if a.State == record.AlgoRunning {
		return a.Created, now
	}
	return a.Created, a.Updated
}

// AgainstMarket measures the card of an algorithm that ran from..to against trades (the
// instrument's tape, any order; whole says it is every trade the market has made, as a tape
// shorter than asked for is): the interval's VWAP, the market's volume, the algorithm's
// participation and its slippage against the VWAP. It returns false when no trade fell in it.
func (c *Card) AgainstMarket(trades []api.Trade, whole bool, from, to time.Time, tick decimal.Decimal) bool {
	m := Market{From: from, To: to}
	cost := decimal.Zero
	covered := whole
	for _, t := range trades {
		at := t.Time.Time
		if at.Before(from) {
			covered = true // the tape reaches back past the start
			continue
		}
		if at.After(to) || (t.Instrument != "" && c.Instrument != "" && t.Instrument != c.Instrument) {
			continue
		}
		m.Trades++
		m.Volume = m.Volume.Add(t.Size)
		cost = cost.Add(t.Size.Mul(t.Price))
	}
	if m.Trades == 0 || !m.Volume.IsPositive() {
		return false
	}
	m.VWAP = cost.Div(m.Volume)
	m.Covered = covered
	c.measure(m, tick)
	return true
}

// measure gives the card market m: its participation (when m covers the interval) and its
// slippage against m's VWAP.
func (c *Card) measure(m Market, tick decimal.Decimal) {
	m.Participation = decimal.Zero
	if m.Covered {
		m.Participation = decimal.Min(c.Size.Div(m.Volume), decimal.NewFromInt(1))
	}
	m.VsVWAP = c.slip(m.VWAP, tick)
	c.Market = &m
}

// Tape reads an instrument's latest trades.
type Tape interface {
	Trades(ctx context.Context, symbol string, limit int) ([]api.Trade, error)
}

// Markets is where the markets of ended algorithms are kept, and the algorithms read:
// *journal.Journal is one. Taking it, not the journal itself, keeps SQLite out of the packages
// that only read a report.
type Markets interface {
	GetAlgo(ctx context.Context, id string) (record.Algo, bool, error)
	AlgoMarketOf(ctx context.Context, id string) (record.AlgoMarket, bool, error)
	SetAlgoMarket(ctx context.Context, id string, m record.AlgoMarket) error
}

// MeasureAlgo measures algorithm a's card c against its market: from the journal when a report
// kept it, else from the exchange's tape, kept in j (nil: not kept) once the algorithm has ended
// and the tape covers its whole interval (the tape is short: a later report reads it from there).
// Console and headless both measure here.
func MeasureAlgo(ctx context.Context, tape Tape, j Markets, a record.Algo, c *Card, now time.Time, tick decimal.Decimal) {
	if j != nil {
		if m, ok, err := j.AlgoMarketOf(ctx, a.ID); err == nil && ok {
			c.measure(Market{From: m.From, To: m.To, Trades: m.Trades, Volume: m.Volume, VWAP: m.VWAP, Covered: true}, tick)
			return
		}
	}
	trades, err := tape.Trades(ctx, c.Instrument, TapeLimit)
	if err != nil {
		return // the card says the market was not measured
	}
	from, to := Interval(a, now)
	if !c.AgainstMarket(trades, len(trades) < TapeLimit, from, to, tick) || !c.Market.Covered || a.State == record.AlgoRunning || j == nil {
		return
	}
	m := c.Market
	_ = j.SetAlgoMarket(context.WithoutCancel(ctx), a.ID, record.AlgoMarket{From: m.From, To: m.To, Trades: m.Trades, Volume: m.Volume, VWAP: m.VWAP})
}

// KeepMarket keeps in j the market of algorithm id's interval as soon as it has ended, while
// the exchange's short tape still covers it: a report read later (the next day, or never in
// this process) then still knows the interval's VWAP and the algorithm's participation. An
// algorithm still running, or one whose interval the tape no longer covers, keeps nothing.
func KeepMarket(ctx context.Context, tape Tape, j Markets, id string, now time.Time) {
	a, ok, err := j.GetAlgo(ctx, id)
	if err != nil || !ok || a.State == record.AlgoRunning {
		return
	}
	var p struct {
		Instrument string `json:"instrument"`
	}
	if json.Unmarshal(a.Params, &p) != nil || p.Instrument == "" {
		return
	}
	MeasureAlgo(ctx, tape, j, a, &Card{Instrument: p.Instrument}, now, decimal.Zero)
}

// Keeper is an algorithm's Ended hook (algo.Deps.Ended) that keeps its market (KeepMarket),
// reading the tape within a bound so that an unreachable exchange does not hold the algorithm's
// end; now nil is time.Now.
func Keeper(tape Tape, j Markets, now func() time.Time) func(id string) {
	if now == nil {
		now = time.Now
	}
	return func(id string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		KeepMarket(ctx, tape, j, id, now())
	}
}
