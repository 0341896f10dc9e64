package algo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TWAPParams are a TWAP's parameters, as the journal keeps them.
type TWAPParams struct {
	Instrument string          `json:"instrument"`
	Side       string          `json:"side"`
	Size       decimal.Decimal `json:"size"`
	Start      time.Time       `json:"start"`
	Duration   time.Duration   `json:"duration"`
	Slices     int             `json:"slices"`
	// BandLo and BandHi bound every slice's price (zero: DefaultBand around the arrival price).
	BandLo decimal.Decimal `json:"band_lo"`
	BandHi decimal.Decimal `json:"band_hi"`
	// Randomize varies the slices' sizes by up to a third, from Seed (the same on resume).
	Randomize bool            `json:"randomize,omitempty"`
	Seed      uint64          `json:"seed,omitempty"`
	Arrival   decimal.Decimal `json:"arrival"`
	// PausedAt is when a pause began (zero: not paused): on resume the schedule's Start moves
	// on by the time since.
	PausedAt time.Time `json:"paused_at,omitzero"`
}

// DefaultBand is the TWAP's price band around the arrival price when none is given (1%).
var DefaultBand = decimal.RequireFromString("0.01")

// MaxBookAge is how old a book may be before a TWAP pauses instead of spending a slice on it.
const MaxBookAge = 5 * time.Second

// TWAP works a size over a duration in slices, each an IOC limit priced by walking the visible
// book inside a hard price band; a slice the band cannot fill is rolled into the next, and the
// last takes the remainder.
type TWAP struct {
	d        *Deps
	id       string
	p        TWAPParams
	inst     state.Instrument
	children []*child
	done     int // slices worked (or skipped)
	cum      []decimal.Decimal
	note     string
	misses   int
	retries  int
	hold     hold
}

// NewTWAP checks p, reads the arrival price, sets the band, and commits the TWAP to the journal
// before anything is sent. id "" takes a new one.
func NewTWAP(ctx context.Context, d *Deps, id string, p TWAPParams) (*TWAP, error) {
	inst, arrival, err := d.arrive(ctx, p.Instrument, p.valid)
	if err != nil {
		return nil, err
	}
	p.Instrument, p.Arrival = inst.Name, arrival
	if p.BandLo.IsZero() && p.BandHi.IsZero() {
		one := decimal.NewFromInt(1)
		p.BandLo = state.CeilToStep(p.Arrival.Mul(one.Sub(DefaultBand)), inst.TickSize)
		p.BandHi = state.FloorToStep(p.Arrival.Mul(one.Add(DefaultBand)), inst.TickSize)
	}
	if p.Start.IsZero() {
		p.Start = d.Now()
	}
	if p.Randomize && p.Seed == 0 {
		p.Seed = rand.Uint64()
	}
	raw, _ := json.Marshal(p)
	if id, err = d.Journal.BeginAlgo(ctx, journal.Algo{ID: id, Kind: "twap", Params: raw}); err != nil {
		return nil, err
	}
	return newTWAP(d, id, p, inst), nil
}

func newTWAP(d *Deps, id string, p TWAPParams, inst state.Instrument) *TWAP {
	return &TWAP{d: d, id: id, p: p, inst: inst, cum: schedule(p, inst.LotSize)}
}

func (p TWAPParams) valid(inst state.Instrument) error {
	switch {
	case p.Side != "buy" && p.Side != "sell":
		return fmt.Errorf("side %q: give buy or sell", p.Side)
	case !p.Size.IsPositive() || !p.Size.Equal(state.FloorToStep(p.Size, inst.LotSize)):
		return fmt.Errorf("size %s: give a positive multiple of the lot %s", p.Size, inst.LotSize)
	case p.Duration <= 0:
		return errors.New("duration: give a positive duration such as 30m")
	case p.Slices < 1 || p.Slices > 1000:
		return fmt.Errorf("slices %d: give 1 to 1000", p.Slices)
	case p.BandLo.IsNegative() || p.BandHi.IsNegative() || !p.BandHi.IsZero() && p.BandHi.LessThan(p.BandLo):
		return fmt.Errorf("band %s-%s: give the low price, then the high one", p.BandLo, p.BandHi)
	}
	return nil
}

// schedule is how much should have filled once each slice is worked: the size split evenly (or
// by seeded random weights of 2/3 to 4/3), in whole lots, the last slice the whole size.
func schedule(p TWAPParams, lot decimal.Decimal) []decimal.Decimal {
	n := p.Slices
	w := make([]float64, n)
	rng := rand.New(rand.NewPCG(p.Seed, uint64(n)))
	var sum float64
	for i := range w {
		w[i] = 1
		if p.Randomize {
			w[i] = 2.0/3 + rng.Float64()*2/3
		}
		sum += w[i]
	}
	out := make([]decimal.Decimal, n)
	var acc float64
	for i := range w {
		acc += w[i]
		out[i] = state.FloorToStep(p.Size.Mul(decimal.NewFromFloat(acc/sum)), lot)
	}
	out[n-1] = p.Size
	return out
}

// SlicesOf is how many slices a TWAP over duration works: slices when given, else one every
// interval (the last may be shorter), else one a minute; 1 to 1000.
func SlicesOf(duration time.Duration, slices int, every time.Duration) (int, error) {
	switch {
	case slices > 0 && every > 0:
		return 0, errors.New("give the number of slices or their interval, not both")
	case every > 0:
		slices = int((duration + every - 1) / every)
	case slices == 0:
		slices = max(1, int(duration/time.Minute))
	}
	if slices < 1 || slices > 1000 {
		return 0, fmt.Errorf("%d slices: give 1 to 1000 (a longer interval, or fewer slices)", slices)
	}
	return slices, nil
}

// ID is the TWAP's id in the journal.
func (t *TWAP) ID() string { return t.id }

// interval is the time between two slices.
func (t *TWAP) interval() time.Duration { return t.p.Duration / time.Duration(t.p.Slices) }

// due is the index of the latest slice whose time has come (-1: none yet).
func (t *TWAP) due() int {
	el := t.d.Now().Sub(t.p.Start)
	if el < 0 {
		return -1
	}
	return min(int(el/t.interval()), t.p.Slices-1)
}

// slicePrice walks the visible book for size and caps the price at the band: the IOC's limit;
// ok is false when the band's edge is not even at the best price.
func (t *TWAP) slicePrice(b api.OrderBook, size decimal.Decimal) (decimal.Decimal, bool) {
	levels, buy := b.Bids, t.p.Side == "buy"
	if buy {
		levels = b.Asks
	}
	if len(levels) == 0 {
		return decimal.Zero, false
	}
	inBand := func(px decimal.Decimal) bool {
		return buy && !px.GreaterThan(t.p.BandHi) || !buy && !px.LessThan(t.p.BandLo)
	}
	if !inBand(levels[0].Price) {
		return decimal.Zero, false
	}
	px, taken := levels[0].Price, decimal.Zero
	for _, l := range levels {
		if !inBand(l.Price) {
			break
		}
		px, taken = l.Price, taken.Add(l.Size)
		if taken.GreaterThanOrEqual(size) {
			break
		}
	}
	return px, true
}
