package report

import (
	"cmp"
	"slices"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Trip is one round trip of a position: from flat (or the first fill seen) through its adds and
// partial closes to flat again (or still open).
type Trip struct {
	Instrument   string           `json:"instrument"`
	InstrumentID api.InstrumentID `json:"-"`
	Long         bool             `json:"long"`
	Opened       time.Time        `json:"opened"`
	Closed       time.Time        `json:"closed"` // zero while open
	Open         bool             `json:"open"`
	// Before says the position was already open at the first fill seen: its entry is the
	// exchange's start price, not fills the report holds.
	Before bool `json:"opened_before"`
	Fills  int  `json:"fills"`
	// Adds counts the fills that grew it after the one that opened it, Closes those that reduced
	// it (a reversing fill is a close of one trip and the open of the next).
	Adds    int             `json:"adds"`
	Closes  int             `json:"closes"`
	MaxSize decimal.Decimal `json:"max_size"` // the largest the position got
	SizeIn  decimal.Decimal `json:"size_in"`  // every size that opened or added to it
	AvgIn   decimal.Decimal `json:"avg_in"`
	SizeOut decimal.Decimal `json:"size_out"` // every size that reduced it
	AvgOut  decimal.Decimal `json:"avg_out"`
	// Realised is the sum of its fills' closed_pnl, Fees of their fees (a reversing fill's fee
	// split by size), Funding of the funding payments while it was open.
	Realised decimal.Decimal `json:"realised_pnl"`
	Fees     decimal.Decimal `json:"fees"`
	Funding  decimal.Decimal `json:"funding"`
	costIn   decimal.Decimal
	costOut  decimal.Decimal
	pos      decimal.Decimal // signed size now
}

// Duration is how long the trip was open (to now while it is open).
func (t Trip) Duration(now time.Time) time.Duration {
	if t.Open {
		return now.Sub(t.Opened)
	}
	return t.Closed.Sub(t.Opened)
}

// Net is realised PnL less fees plus funding.
func (t Trip) Net() decimal.Decimal { return t.Realised.Sub(t.Fees).Add(t.Funding) }

// oldestFirst sorts a copy of fills by time, then trade id (stable: equal ones keep their order).
// It sorts the fills' indices and copies each fill once: a fill is a large struct, and moving it
// in every swap of the sort (the console's fills come newest first, all out of order) took most
// of the trades pane's time at 10,000 fills.
func oldestFirst(fills []api.Fill) []api.Fill {
	idx := make([]int, len(fills))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		a, b := &fills[i], &fills[j]
		if c := a.BlockTime.Compare(b.BlockTime.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.TradeID, b.TradeID)
	})
	fs := make([]api.Fill, len(fills))
	for k, i := range idx {
		fs[k] = fills[i]
	}
	return fs
}

// Trips groups fills into round trips by position (one per instrument at a time; a fill that
// reverses the position closes one trip and opens the next), oldest first, and adds the
// funding payments made while each was open.
func Trips(fills []api.Fill, funding []api.FundingPayment) []Trip {
	var trips []Trip
	open := map[api.InstrumentID]int{} // the open trip of each instrument
	seen := map[api.InstrumentID]bool{}
	for _, f := range oldestFirst(fills) {
		id := f.InstrumentID
		if !seen[id] {
			seen[id] = true
			if start := startPos(f); !start.IsZero() {
				open[id] = len(trips)
				trips = append(trips, Trip{Instrument: f.Instrument, InstrumentID: id, Long: start.IsPositive(), Opened: f.BlockTime.Time,
					Open: true, Before: true, pos: start, MaxSize: start.Abs(), SizeIn: start.Abs(), costIn: start.Abs().Mul(f.StartPrice)})
			}
		}
		delta := f.Size
		if f.Side == api.SideSell {
			delta = delta.Neg()
		}
		i, ok := open[id]
		if ok && trips[i].pos.Sign() != delta.Sign() {
			closed := decimal.Min(delta.Abs(), trips[i].pos.Abs())
			share := closed.Div(f.Size)
			delta = delta.Add(closed.Mul(decimal.NewFromInt(int64(trips[i].pos.Sign()))))
			trips[i].reduce(f, closed, share)
			if !trips[i].Open {
				delete(open, id)
				ok = false
			}
			if delta.IsZero() {
				continue
			}
			f.Fee, f.ClosedPnl = f.Fee.Sub(f.Fee.Mul(share)), decimal.Zero
		}
		if !ok {
			i = len(trips)
			open[id] = i
			trips = append(trips, Trip{Instrument: f.Instrument, InstrumentID: id, Long: delta.IsPositive(), Opened: f.BlockTime.Time, Open: true})
		}
		trips[i].increase(f, delta)
	}
	for i := range trips {
		trips[i].finish(funding)
	}
	return trips
}

// startPos is the signed position before fill f, from the exchange's start_size and direction.
func startPos(f api.Fill) decimal.Decimal {
	s := f.StartSize.Abs()
	if f.Direction == api.DirOpenShort || f.Direction == api.DirCloseShort {
		return s.Neg()
	}
	return s
}

func (t *Trip) increase(f api.Fill, delta decimal.Decimal) {
	if t.Fills > 0 || t.Before {
		t.Adds++
	}
	t.Fills++
	t.pos = t.pos.Add(delta)
	t.SizeIn = t.SizeIn.Add(delta.Abs())
	t.costIn = t.costIn.Add(delta.Abs().Mul(f.Price))
	t.Fees = t.Fees.Add(f.Fee)
	t.Realised = t.Realised.Add(f.ClosedPnl)
	t.MaxSize = decimal.Max(t.MaxSize, t.pos.Abs())
}

func (t *Trip) reduce(f api.Fill, closed, share decimal.Decimal) {
	t.Closes++
	t.Fills++
	if t.pos.IsPositive() {
		t.pos = t.pos.Sub(closed)
	} else {
		t.pos = t.pos.Add(closed)
	}
	t.SizeOut = t.SizeOut.Add(closed)
	t.costOut = t.costOut.Add(closed.Mul(f.Price))
	t.Fees = t.Fees.Add(f.Fee.Mul(share))
	t.Realised = t.Realised.Add(f.ClosedPnl)
	if t.pos.IsZero() {
		t.Open, t.Closed = false, f.BlockTime.Time
	}
}

func (t *Trip) finish(funding []api.FundingPayment) {
	if t.SizeIn.IsPositive() {
		t.AvgIn = t.costIn.Div(t.SizeIn)
	}
	if t.SizeOut.IsPositive() {
		t.AvgOut = t.costOut.Div(t.SizeOut)
	}
	for _, p := range funding {
		at := p.Time.Time
		if p.InstrumentID == t.InstrumentID && !at.Before(t.Opened) && (t.Open || !at.After(t.Closed)) {
			t.Funding = t.Funding.Add(p.Payment)
		}
	}
}
