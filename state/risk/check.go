package risk

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Order is one order as the gate values it.
type Order struct {
	Instrument string
	Buy        bool
	// Price is the limit price, or a market order's worst price (the executor's own, from the
	// mark: never one a caller supplies).
	Price      decimal.Decimal
	Size       decimal.Decimal
	ReduceOnly bool
	// Leg is a bracket's take-profit or stop-loss: checked against the position before it (the
	// entry's, or the one it protects) but not moving it, as only one of a pair can fill.
	Leg bool
}

// Account is what the gate reads of the account, fresh from the exchange.
type Account struct {
	Equity decimal.Decimal
	// PnL is the cumulative realised PnL with funding and fees; Upnl the unrealised.
	PnL, Upnl decimal.Decimal
	// Positions are the signed sizes by instrument; Values their notional at the mark.
	Positions map[string]decimal.Decimal
	Values    map[string]decimal.Decimal
	// OpenOrders is how many orders rest.
	OpenOrders int
}

// Quote is an instrument's mark and best prices (zero when unknown).
type Quote struct {
	Mark, Bid, Ask decimal.Decimal
}

// Source reads the account and the market for the gate (ExchangeSource over the exchange).
type Source interface {
	Account(ctx context.Context) (Account, error)
	Quote(ctx context.Context, instrument string) (Quote, error)
}

// Refusal is an order the limits or the trading state refuse: Reason says which and why.
type Refusal struct{ Reason string }

// Error implements error: the refusal and its reason.
func (r *Refusal) Error() string { return "refused by the risk limits: " + r.Reason }

func refuse(format string, a ...any) error { return &Refusal{Reason: fmt.Sprintf(format, a...)} }

// Value is the price an order is valued at: the highest of its own price, the mark and the
// best price it would take (a buy's best ask, a sell's best bid), so neither a price below the
// market nor a stale quote makes an order look smaller than it can be.
func Value(o Order, q Quote) decimal.Decimal {
	v := decimal.Max(o.Price, q.Mark)
	if o.Buy {
		return decimal.Max(v, q.Ask)
	}
	return decimal.Max(v, q.Bid)
}

// Check passes the orders (one intent's children) or refuses them all: HALTED refuses every one,
// REDUCING every one that does not reduce a position, and each limit in force is checked.
// Passing takes one token a child from the orders-a-minute bucket; a refusal takes none. src
// may be nil only when no limit is set (then only the state is checked).
func (e *Engine) Check(ctx context.Context, src Source, orders []Order) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return err
	}
	if err := e.apply(ctx, e.want); err != nil {
		return err
	}
	if e.rec.Halted {
		return refuse("trading is HALTED (%s): only cancels until tradedesk risk resume", e.rec.HaltWhy)
	}
	l := e.rec.Limits
	if !l.Any() && e.rec.Tripped == "" {
		return nil
	}
	if src == nil {
		return refuse("no account data to check the limits against")
	}
	acct, err := src.Account(ctx)
	if err != nil {
		return refuse("the account could not be read to check the limits (%v)", err)
	}
	if err := e.observe(ctx, acct); err != nil {
		return err
	}
	if err := e.checkOrders(ctx, src, acct, orders); err != nil {
		return err
	}
	return e.take(len(orders))
}

// checkOrders checks each order against the state and the limits, the batch's own orders
// counted as they go.
func (e *Engine) checkOrders(ctx context.Context, src Source, acct Account, orders []Order) error {
	l := e.rec.Limits
	pos := map[string]decimal.Decimal{}
	for k, v := range acct.Positions {
		pos[strings.ToUpper(k)] = v
	}
	if n := l.Get(OpenOrders); n.IsPositive() && decimal.NewFromInt(int64(acct.OpenOrders+len(orders))).GreaterThan(n) {
		return refuse("%d open orders and %d more would be over %s = %s", acct.OpenOrders, len(orders), OpenOrders, n)
	}
	gross, err := decimal.Zero, error(nil)
	for _, v := range acct.Values {
		gross = gross.Add(v.Abs())
	}
	for _, o := range orders {
		name := strings.ToUpper(o.Instrument)
		var q Quote
		q, err = src.Quote(ctx, o.Instrument)
		if err != nil {
			return refuse("%s's prices could not be read to value the order (%v)", o.Instrument, err)
		}
		value := Value(o, q)
		if !value.IsPositive() {
			return refuse("no price to value the %s order at", o.Instrument)
		}
		was := pos[name]
		signed := o.Size
		if !o.Buy {
			signed = signed.Neg()
		}
		now := was.Add(signed)
		// A reduce-only order cannot grow a position: the exchange clips or refuses it.
		reduces := o.ReduceOnly || now.Abs().LessThanOrEqual(was.Abs()) && (now.IsZero() || now.Sign() == was.Sign())
		if e.rec.Tripped != "" && !reduces {
			return refuse("trading is REDUCING (%s): only orders that reduce a position, and cancels, until the next UTC day", e.rec.Tripped)
		}
		notional := o.Size.Mul(value)
		if max, which := l.For(OrderNotional, name); max.IsPositive() && notional.GreaterThan(max) {
			return refuse("the %s order is %s USD (valued at %s), over %s = %s USD", o.Instrument, usd(notional), value, which, usd(max))
		}
		if !o.Leg {
			pos[name] = now
		}
		if reduces {
			continue
		}
		if gross, err = exposure(l, acct, o.Instrument, now.Abs().Mul(value), gross); err != nil {
			return err
		}
	}
	return nil
}

// exposure checks an order that grows a position to posValue against the position cap and the
// account's leverage; it returns the account's gross notional with it.
func exposure(l Limits, acct Account, instrument string, posValue, gross decimal.Decimal) (decimal.Decimal, error) {
	name := strings.ToUpper(instrument)
	if max, which := l.For(PositionNotional, name); max.IsPositive() && posValue.GreaterThan(max) {
		return gross, refuse("the %s position would be %s USD, over %s = %s USD", instrument, usd(posValue), which, usd(max))
	}
	gross = gross.Sub(acct.Values[name].Abs()).Add(posValue)
	if max := l.Get(Leverage); max.IsPositive() {
		if !acct.Equity.IsPositive() {
			return gross, refuse("no equity: %s = %s", Leverage, max)
		}
		if lev := gross.Div(acct.Equity); lev.GreaterThan(max) {
			return gross, refuse("the account's leverage would be %sx, over %s = %s", lev.StringFixed(2), Leverage, max)
		}
	}
	return gross, nil
}

// take takes n tokens from the orders-a-minute bucket, or refuses: a denied order is refused,
// never queued.
func (e *Engine) take(n int) error {
	max := e.rec.Limits.Get(OrdersPerMinute)
	if !max.IsPositive() {
		return nil
	}
	capacity := max.InexactFloat64()
	now := e.now()
	if e.filled.IsZero() {
		e.tokens = capacity
	} else {
		e.tokens += now.Sub(e.filled).Minutes() * capacity
	}
	if e.tokens > capacity {
		e.tokens = capacity
	}
	e.filled = now
	if e.tokens < float64(n) {
		wait := (float64(n) - e.tokens) / capacity * 60
		return refuse("%s = %s: %d more order(s) would be over it; try again in %.0f s", OrdersPerMinute, max, n, wait+0.5)
	}
	e.tokens -= float64(n)
	return nil
}

func usd(d decimal.Decimal) string { return d.StringFixed(2) }
