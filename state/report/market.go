package report

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
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
func Interval(a journal.Algo, now time.Time) (from, to time.Time) {
	if a.State == journal.AlgoRunning {
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
	if covered {
		m.Participation = decimal.Min(c.Size.Div(m.Volume), decimal.NewFromInt(1))
	}
	m.VsVWAP = c.slip(m.VWAP, tick)
	c.Market = &m
	return true
}
