package algo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// ChaseParams are a chase's parameters, as the journal keeps them.
type ChaseParams struct {
	Instrument string          `json:"instrument"`
	Side       string          `json:"side"` // "buy" or "sell"
	Size       decimal.Decimal `json:"size"`
	// Offset holds the child that many ticks off the quote, away from the fill (stalk).
	Offset int `json:"offset_ticks,omitempty"`
	// MaxDistance is the furthest a child may go from the arrival price: "0.1%" or a price.
	MaxDistance string `json:"max_distance,omitempty"`
	// Limit is the worst price a child may take, from MaxDistance at the start (zero: none).
	Limit decimal.Decimal `json:"limit"`
	// Until ends the chase (zero: none).
	Until time.Time `json:"until"`
	// Refresh is how many ticks the quote must move before the child follows (0: 1).
	Refresh int `json:"refresh_ticks,omitempty"`
	// Aggressive goes one tick inside the spread, when there is room.
	Aggressive bool `json:"aggressive,omitempty"`
	// Keep leaves the last child resting when the chase ends unfilled.
	Keep    bool            `json:"keep,omitempty"`
	Arrival decimal.Decimal `json:"arrival"`
}

// Chase works one post-only child at the best bid (buy) or ask (sell), repriced only toward the
// fill, until its size is filled.
type Chase struct {
	d        *Deps
	id       string
	p        ChaseParams
	inst     state.Instrument
	children []*child
	live     *child
	reprices int
	lastMove time.Time
	// note says why the chase ended, when its state does not
	note     string
	refusals int
	misses   int
	hold     hold
}

// NewChase checks p, reads the arrival price and the limit from the book, and commits the chase
// to the journal before anything is sent. id "" takes a new one.
func NewChase(ctx context.Context, d *Deps, id string, p ChaseParams) (*Chase, error) {
	inst, arrival, err := d.arrive(ctx, p.Instrument, p.valid)
	if err != nil {
		return nil, err
	}
	p.Instrument, p.Arrival = inst.Name, arrival
	if p.Limit, err = LimitOf(p.MaxDistance, p.Side, p.Arrival, inst.TickSize); err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(p)
	if id, err = d.Journal.BeginAlgo(ctx, journal.Algo{ID: id, Kind: "chase", Params: raw}); err != nil {
		return nil, err
	}
	return &Chase{d: d, id: id, p: p, inst: inst}, nil
}

func (p ChaseParams) valid(inst state.Instrument) error {
	switch {
	case p.Side != "buy" && p.Side != "sell":
		return fmt.Errorf("side %q: give buy or sell", p.Side)
	case !p.Size.IsPositive():
		return errors.New("size: give a size above zero, in the instrument's lots")
	case !p.Size.Equal(state.FloorToStep(p.Size, inst.LotSize)):
		return fmt.Errorf("size %s is not a multiple of the lot %s", p.Size, inst.LotSize)
	case p.Offset < 0 || p.Refresh < 0:
		return errors.New("offset and refresh are a number of ticks, 0 or more")
	}
	return nil
}

// LimitOf is the worst price a chase may take from its max distance: "0.1%" of the arrival price
// (above it for a buy, below for a sell, rounded to the tick toward the arrival) or a price.
// Empty is no limit (zero).
func LimitOf(dist, side string, arrival, tick decimal.Decimal) (decimal.Decimal, error) {
	dist = strings.TrimSpace(dist)
	if dist == "" {
		return decimal.Zero, nil
	}
	v, err := decimal.NewFromString(strings.TrimSuffix(dist, "%"))
	if err != nil || !v.IsPositive() {
		return decimal.Zero, fmt.Errorf("max distance %q: give a percent such as 0.1%% or a price such as 97500", dist)
	}
	if !strings.HasSuffix(dist, "%") {
		if side == "buy" && v.LessThan(arrival) || side == "sell" && v.GreaterThan(arrival) {
			return v, fmt.Errorf("max distance %s is on the wrong side of the market (%s) for a %s: the chase could never place", v, arrival.Round(8), side)
		}
		return v, nil
	}
	frac := v.Div(decimal.NewFromInt(100))
	if side == "buy" {
		return state.FloorToStep(arrival.Mul(decimal.NewFromInt(1).Add(frac)), tick), nil
	}
	return state.CeilToStep(arrival.Mul(decimal.NewFromInt(1).Sub(frac)), tick), nil
}

// open is the start every algorithm on one instrument shares: its dependencies checked, room
// among the algorithms running, the market's store and the instrument named (a name or an id).
func (d *Deps) open(ctx context.Context, name string) (*state.Store, state.Instrument, error) {
	if err := d.check(); err != nil {
		return nil, state.Instrument{}, err
	}
	if err := d.Limits.full(); err != nil {
		return nil, state.Instrument{}, err
	}
	st, err := d.Market.Store(ctx, name)
	if err != nil {
		return nil, state.Instrument{}, err
	}
	inst, ok := st.FindInstrument(name)
	if !ok {
		return nil, state.Instrument{}, fmt.Errorf("no instrument %q: give a name like BTC-PERP or an id", name)
	}
	return st, inst, nil
}

// arrive is the start a chase and a TWAP share: the instrument named opened (open), the
// parameters checked against it (valid), and the arrival price read, the mid of its best bid and
// ask.
func (d *Deps) arrive(ctx context.Context, name string, valid func(state.Instrument) error) (state.Instrument, decimal.Decimal, error) {
	_, inst, err := d.open(ctx, name)
	if err != nil {
		return state.Instrument{}, decimal.Zero, err
	}
	if err := valid(inst); err != nil {
		return state.Instrument{}, decimal.Zero, err
	}
	bid, ask, err := d.best(ctx, inst.Name)
	if err != nil {
		return state.Instrument{}, decimal.Zero, err
	}
	return inst, bid.Add(ask).Div(decimal.NewFromInt(2)), nil
}

// bestOf is the book's best bid and ask.
func bestOf(ctx context.Context, m Market, symbol string) (bid, ask decimal.Decimal, err error) {
	b, err := m.OrderBook(ctx, symbol, 1)
	if err != nil {
		return bid, ask, err
	}
	if len(b.Bids) == 0 || len(b.Asks) == 0 {
		return bid, ask, fmt.Errorf("the %s book has no bid or no ask: nothing to chase", symbol)
	}
	return b.Bids[0].Price, b.Asks[0].Price, nil
}

// ID is the chase's id in the journal.
func (c *Chase) ID() string { return c.id }

// want is the price the child should rest at now: the best bid (buy) or ask (sell), one tick
// inside the spread when aggressive and there is room, held Offset ticks off, never past Limit.
// An aggressive child that is itself the best price stays: the quote is then its own order, and
// a tick past it would outbid only itself, a tick a reprice.
func (c *Chase) want(bid, ask decimal.Decimal) decimal.Decimal {
	tick := c.inst.TickSize
	offset := tick.Mul(decimal.NewFromInt(int64(c.p.Offset)))
	var px decimal.Decimal
	if c.p.Side == "buy" {
		px = bid
		if c.p.Aggressive && bid.Add(tick).LessThan(ask) && !c.isBest(bid) {
			px = bid.Add(tick)
		}
		px = px.Sub(offset)
		if c.p.Limit.IsPositive() && px.GreaterThan(c.p.Limit) {
			px = c.p.Limit
		}
		return px
	}
	px = ask
	if c.p.Aggressive && ask.Sub(tick).GreaterThan(bid) && !c.isBest(ask) {
		px = ask.Sub(tick)
	}
	px = px.Add(offset)
	if c.p.Limit.IsPositive() && px.LessThan(c.p.Limit) {
		px = c.p.Limit
	}
	return px
}

// isBest reports whether the live child rests at px, the best price on its side: there it
// already leads the book (others at its price queue behind it).
func (c *Chase) isBest(px decimal.Decimal) bool {
	return c.live != nil && c.live.price.Equal(px)
}

// follows reports whether the live child should move to px: only toward the fill, by at least
// Refresh ticks, and not sooner than MinReprice after the last move.
func (c *Chase) follows(px decimal.Decimal) bool {
	moved := px.Sub(c.live.price)
	if c.p.Side == "sell" {
		moved = moved.Neg()
	}
	ticks := max(c.p.Refresh, 1)
	return moved.GreaterThanOrEqual(c.inst.TickSize.Mul(decimal.NewFromInt(int64(ticks)))) &&
		c.d.Now().Sub(c.lastMove) >= c.d.MinReprice
}

// remaining is the target less what the final children's records say filled.
func (c *Chase) remaining() decimal.Decimal { return c.p.Size.Sub(committed(c.children)) }
