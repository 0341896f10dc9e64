package algo

import (
	"context"
	"sync"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// sharedReads are the reads every algorithm of one process makes at each step: the account's
// open orders (a child's lookup) and an instrument's book. One request serves every algorithm
// that asks within the share window (Limits.ShareReads), so twenty chases on one instrument read
// the exchange as often as one does; every action an algorithm sends drops the open orders, so
// the lookup after its own place or cancel reads the exchange afresh.
type sharedReads struct {
	mu    sync.Mutex
	open  map[openKey]sharedPage
	books map[bookKey]sharedBook
}

type openKey struct {
	user string
	page api.PageParams
}

type bookKey struct {
	symbol string
	depth  int
}

type sharedPage struct {
	at time.Time
	pg api.Page[api.OrderRecord]
}

type sharedBook struct {
	at time.Time
	b  api.OrderBook
}

// drop forgets the shared open orders: an action was sent, and the lookup after it reads the
// exchange afresh (a book a moment old still prices the next child as well as a new one).
func (s *sharedReads) drop() {
	s.mu.Lock()
	s.open = nil
	s.mu.Unlock()
}

// sharedReader is a Reader whose open orders are shared (Limits.reads).
type sharedReader struct {
	Reader
	l *Limits
}

// OpenOrders implements api.OrderReader: the shared page when it is fresh, else read.
func (r sharedReader) OpenOrders(ctx context.Context, user string, p api.PageParams) (api.Page[api.OrderRecord], error) {
	s, k, now := &r.l.reads, openKey{user, p}, time.Now()
	s.mu.Lock()
	if c, ok := s.open[k]; ok && now.Sub(c.at) < r.l.share() {
		s.mu.Unlock()
		return c.pg, nil
	}
	s.mu.Unlock()
	pg, err := r.Reader.OpenOrders(ctx, user, p)
	if err == nil {
		s.mu.Lock()
		if s.open == nil {
			s.open = map[openKey]sharedPage{}
		}
		s.open[k] = sharedPage{now, pg}
		s.mu.Unlock()
	}
	return pg, err
}

// sharedMarket is a Market whose books are shared (Limits.reads).
type sharedMarket struct {
	Market
	l *Limits
}

// OrderBook implements Market: the shared best bid and ask (depth 1, a chase's quote) when it is
// fresh, else read; a deeper book (a TWAP slice's walk, priced for an IOC) is always read afresh.
func (m sharedMarket) OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error) {
	if depth != 1 {
		return m.Market.OrderBook(ctx, symbol, depth)
	}
	s, k, now := &m.l.reads, bookKey{symbol, depth}, time.Now()
	s.mu.Lock()
	if c, ok := s.books[k]; ok && now.Sub(c.at) < m.l.share() {
		s.mu.Unlock()
		return c.b, nil
	}
	s.mu.Unlock()
	b, err := m.Market.OrderBook(ctx, symbol, depth)
	if err == nil {
		s.mu.Lock()
		if s.books == nil {
			s.books = map[bookKey]sharedBook{}
		}
		s.books[k] = sharedBook{now, b}
		s.mu.Unlock()
	}
	return b, err
}

// Store implements Market.
func (m sharedMarket) Store(ctx context.Context, symbol string) (*state.Store, error) {
	return m.Market.Store(ctx, symbol)
}

// StoreWithoutBook implements BooklessMarket: the market's own, else its Store.
func (m sharedMarket) StoreWithoutBook(ctx context.Context, symbol string) (*state.Store, error) {
	if b, ok := m.Market.(BooklessMarket); ok {
		return b.StoreWithoutBook(ctx, symbol)
	}
	return m.Market.Store(ctx, symbol)
}

// share wraps the dependencies' reads in the process's shared ones (once).
func (d *Deps) share() {
	if _, ok := d.Read.(sharedReader); !ok {
		d.Read = sharedReader{Reader: d.Read, l: d.Limits}
	}
	if _, ok := d.Market.(sharedMarket); !ok {
		d.Market = sharedMarket{Market: d.Market, l: d.Limits}
	}
}
