package algo

import (
	"context"
	"sync"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// StreamMarket is the Market the algorithms of a front end read for their children's checks (the
// console's, a headless command's, the guard's): a store of its own for each child, as the
// headless order command loads one. What hardly changes (the instruments, the collateral, the fee
// schedule) is read once a minute for every algorithm of the process; the prices, the account and
// the positions come from the stream's tape while it is up (Tape.ApplyTo), else are read for each
// child; a post-only or trigger child's store holds no book (BooklessMarket), another's reads it;
// the leverage setting is the one the tape keeps while it stands (Tape.Leverage), else read and
// kept there.
type StreamMarket struct {
	// Ex is the exchange read.
	Ex api.Exchange
	// Tape is the stream's tape (nil: no stream, every child's store is read). Set it before an
	// algorithm runs.
	Tape *Tape
	// Now is the stores' clock (nil: time.Now).
	Now func() time.Time

	mu   sync.Mutex
	at   time.Time
	ins  api.Instruments
	coll []api.Collateral
	fees *api.UserFees
}

// staticFor is how long the instruments, collateral and fees serve the algorithms' stores.
const staticFor = time.Minute

// statics are the instruments, collateral and fee schedule, read at most once a staticFor.
func (m *StreamMarket) statics(ctx context.Context) (api.Instruments, []api.Collateral, *api.UserFees, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.at.IsZero() && time.Since(m.at) < staticFor {
		return m.ins, m.coll, m.fees, nil
	}
	ins, err := m.Ex.Instruments(ctx, "all")
	if err != nil {
		return ins, nil, nil, err
	}
	coll, err := m.Ex.SupportedCollateral(ctx, "all")
	if err != nil {
		return ins, nil, nil, err
	}
	m.ins, m.coll, m.fees, m.at = ins, coll, nil, time.Now()
	if f, err := m.Ex.UserFees(ctx, m.Ex.Address()); err == nil {
		m.fees = &f
	}
	return m.ins, m.coll, m.fees, nil
}

// Store implements Market.
func (m *StreamMarket) Store(ctx context.Context, symbol string) (*state.Store, error) {
	return m.store(ctx, symbol, true)
}

// StoreWithoutBook implements BooklessMarket: a post-only or trigger child's check does not
// read the book.
func (m *StreamMarket) StoreWithoutBook(ctx context.Context, symbol string) (*state.Store, error) {
	return m.store(ctx, symbol, false)
}

// store is a child's store, with the instrument's book read when book is set.
func (m *StreamMarket) store(ctx context.Context, symbol string, book bool) (*state.Store, error) {
	now := m.Now
	if now == nil {
		now = time.Now
	}
	st := state.New(now)
	ins, coll, fees, err := m.statics(ctx)
	if err != nil {
		return nil, err
	}
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	st.Apply(state.CollateralMsg{Collateral: coll})
	if fees != nil {
		st.Apply(state.FeesMsg{Fees: *fees})
	}
	in, found := st.FindInstrument(symbol)
	if !found || m.Tape == nil || !m.Tape.ApplyTo(st, in.Name) {
		if err := m.load(ctx, st); err != nil {
			return nil, err
		}
	}
	if !found {
		return st, nil
	}
	if book {
		if b, err := m.Ex.OrderBook(ctx, in.Name, 0); err == nil {
			st.Apply(state.BookMsg{Book: b})
		}
	}
	if in.Spot {
		return st, nil
	}
	if l, ok := m.Tape.Leverage(in.Name); ok {
		st.Apply(state.LeverageMsg{Leverage: l})
	} else if l, err := m.Ex.InstrumentLeverage(ctx, m.Ex.Address(), in.Name); err == nil {
		// A server without instrument_leverage leaves the default leverage in force.
		st.Apply(state.LeverageMsg{Leverage: l})
		m.Tape.KeepLeverage(in.Name, l)
	}
	return st, nil
}

// load reads the prices, the account and the positions into st.
func (m *StreamMarket) load(ctx context.Context, st *state.Store) error {
	user := m.Ex.Address()
	loads := []func() error{
		func() error { t, err := m.Ex.Ticker(ctx, "all"); st.Apply(state.TickersMsg{Tickers: t}); return err },
		func() error { x, err := m.Ex.Mids(ctx, "all"); st.Apply(state.MidsMsg{Mids: x}); return err },
		func() error {
			a, err := m.Ex.AccountSummary(ctx, user)
			st.Apply(state.AccountMsg{Summary: a})
			return err
		},
		func() error {
			p, err := m.Ex.Positions(ctx, user)
			st.Apply(state.PositionsMsg{Positions: p})
			return err
		},
	}
	for _, l := range loads {
		if err := l(); err != nil {
			return err
		}
	}
	return nil
}

// OrderBook implements Market.
func (m *StreamMarket) OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error) {
	return m.Ex.OrderBook(ctx, symbol, depth)
}
