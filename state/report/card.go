package report

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/record"
)

var bpScale = decimal.NewFromInt(10_000)

// Slip is how far the average fill was from a reference price, against the trader (positive:
// worse: a buy paid more, a sell got less). Known is false when the reference was not recorded.
type Slip struct {
	Known bool            `json:"known"`
	Ref   decimal.Decimal `json:"ref"`   // the reference price
	Bp    decimal.Decimal `json:"bp"`    // in basis points of the reference
	Ticks decimal.Decimal `json:"ticks"` // in the instrument's ticks (zero when its tick is not known)
	USD   decimal.Decimal `json:"usd"`   // times the filled size: what it cost in quote currency
}

// Card is the execution report card of one order (or one algorithm: its children's fills).
type Card struct {
	Instrument string          `json:"instrument"`
	OrderID    api.OrderID     `json:"oid,omitempty"`
	Cloid      string          `json:"cloid,omitempty"`
	Side       string          `json:"side"` // api.SideBuy or api.SideSell
	Fills      int             `json:"fills"`
	Size       decimal.Decimal `json:"size"`
	AvgPrice   decimal.Decimal `json:"avg_price"` // the volume-weighted average of its fills
	Notional   decimal.Decimal `json:"notional"`
	Fee        decimal.Decimal `json:"fee"`         // the sum of its fills' fees (negative: a rebate)
	MakerShare decimal.Decimal `json:"maker_share"` // the part of the size that filled as maker, 0..1
	First      time.Time       `json:"first_fill"`
	Last       time.Time       `json:"last_fill"`
	// Arrival is what the journal recorded as it was sent (zero when it was not sent from here).
	Arrival record.Arrival `json:"-"`
	// ToFirst and ToLast are the time from the send to its first and last fill (zero: not known).
	ToFirst time.Duration `json:"to_first_fill_ns,omitempty"`
	ToLast  time.Duration `json:"to_last_fill_ns,omitempty"`
	// VsArrival is the slippage against the book's mid at send time, VsPreview against the
	// preview's expected average.
	VsArrival Slip `json:"vs_arrival"`
	VsPreview Slip `json:"vs_preview"`
	// Market is, for an algorithm, its interval against the market's trades (AgainstMarket; nil:
	// not measured).
	Market *Market `json:"market,omitempty"`
	// Latency is the order's route from the keystroke to the screen, when the console recorded
	// every point of it (nil otherwise: sent headless, by an algorithm, or not yet on screen).
	Latency *RouteTimes `json:"latency,omitempty"`
}

// RouteTimes are an order's latency legs (in LegNames' order) and its whole.
type RouteTimes struct {
	Legs  [Legs]time.Duration `json:"legs_ns"`
	Whole time.Duration       `json:"whole_ns"`
}

// SetRoute gives the card its order's route when every point of it was recorded.
func (c *Card) SetRoute(r record.Route) {
	if legs, whole, ok := RouteLegs(r); ok {
		c.Latency = &RouteTimes{Legs: legs, Whole: whole}
	}
}

// Ticks returns an instrument's tick size by name (false: not known).
type Ticks func(instrument string) (decimal.Decimal, bool)

// Orders is one card per order among fills, newest last fill first. arrivals are the journal's,
// by client id (nil: none); ticks gives each instrument's tick.
func Orders(fills []api.Fill, arrivals map[string]record.Arrival, ticks Ticks) []Card {
	at := map[api.OrderID]int{}
	var cards []Card
	for _, f := range fills {
		i, ok := at[f.OrderID]
		if !ok {
			i = len(cards)
			at[f.OrderID] = i
			cards = append(cards, Card{Instrument: f.Instrument, OrderID: f.OrderID, Cloid: f.Cloid, Side: f.Side})
		}
		cards[i].add(f)
	}
	for i := range cards {
		cards[i].finish(arrivals[cards[i].Cloid], ticks)
	}
	sort.SliceStable(cards, func(i, j int) bool { return cards[i].Last.After(cards[j].Last) })
	return cards
}

// Algo is the card of an algorithm: every fill of its children (client ids parent-n), measured
// from the first child's arrival.
func Algo(parent string, fills []api.Fill, arrivals map[string]record.Arrival, ticks Ticks) (Card, bool) {
	c := Card{Cloid: parent}
	var first record.Arrival
	for _, f := range fills {
		if !childOf(parent, f.Cloid) {
			continue
		}
		if c.Fills == 0 {
			c.Instrument, c.Side = f.Instrument, f.Side
		}
		c.add(f)
		if a, ok := arrivals[f.Cloid]; ok && (first.At.IsZero() || a.At.Before(first.At)) {
			first = a
		}
	}
	if c.Fills == 0 {
		return c, false
	}
	c.finish(first, ticks)
	return c, true
}

func childOf(parent, cloid string) bool {
	n := len(parent)
	return n > 0 && len(cloid) > n+1 && cloid[:n] == parent && cloid[n] == '-'
}

func (c *Card) add(f api.Fill) {
	c.Fills++
	c.Size = c.Size.Add(f.Size)
	c.Notional = c.Notional.Add(f.Size.Mul(f.Price))
	c.Fee = c.Fee.Add(f.Fee)
	if !f.Crossed {
		c.MakerShare = c.MakerShare.Add(f.Size) // a size until finish
	}
	t := f.BlockTime.Time
	if c.First.IsZero() || t.Before(c.First) {
		c.First = t
	}
	if t.After(c.Last) {
		c.Last = t
	}
}

func (c *Card) finish(a record.Arrival, ticks Ticks) {
	if !c.Size.IsPositive() {
		return
	}
	c.AvgPrice = c.Notional.Div(c.Size)
	c.MakerShare = c.MakerShare.Div(c.Size)
	c.Arrival = a
	if !a.At.IsZero() {
		c.ToFirst, c.ToLast = c.First.Sub(a.At), c.Last.Sub(a.At)
	}
	tick, _ := ticks(c.Instrument)
	c.VsArrival = c.slip(a.Mid, tick)
	c.VsPreview = c.slip(a.Expected, tick)
}

// slip measures the average against ref, positive when it is against the trader.
func (c *Card) slip(ref, tick decimal.Decimal) Slip {
	if !ref.IsPositive() {
		return Slip{}
	}
	d := c.AvgPrice.Sub(ref)
	if c.Side == api.SideSell {
		d = d.Neg()
	}
	s := Slip{Known: true, Ref: ref, Bp: d.Div(ref).Mul(bpScale), USD: d.Mul(c.Size)}
	if tick.IsPositive() {
		s.Ticks = d.Div(tick)
	}
	return s
}
