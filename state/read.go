package state

// The Store's read side shared by every kind; each kind's own accessors are in its data_ file.

// Version is bumped every time k's data (or its error) changes, so a pane can keep its rendering
// until the version it drew moves.
func (s *Store) Version(k Kind) uint64 {
	if !k.valid() {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.kinds[k].version
}

// Changes is the sum of every kind's version: it moves whenever any kind's data (or error)
// changes, so a screen drawn from the store can be kept until it does.
func (s *Store) Changes() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var n uint64
	for i := range s.kinds {
		n += s.kinds[i].version
	}
	return n
}

// Freshness says how old k's data is by the store's clock, and whether its last poll failed.
func (s *Store) Freshness(k Kind) Freshness {
	if !k.valid() {
		return Freshness{}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.freshness(k)
}

// freshness is Freshness for a caller that holds the lock.
func (s *Store) freshness(k Kind) Freshness {
	ks := &s.kinds[k]
	f := Freshness{At: ks.at, Err: ks.err}
	if !f.At.IsZero() {
		f.Age = s.clock().Sub(f.At)
		if f.Age < 0 {
			f.Age = 0
		}
	}
	f.Stale = f.Err != nil || (!f.At.IsZero() && ks.staleAfter > 0 && f.Age > ks.staleAfter)
	return f
}

// PricesFreshness is how old the prices an order is previewed and guarded on are: the tickers'
// newest data from either route, poll or stream (and for a market order the mids', when older),
// judged against the price kinds' own stale age (DefaultStaleAfter), not the wider window a
// streamed kind gets while the stream is up: prices that have not moved for longer are old
// whichever route was to bring them (a stream still answering pings but silent, issue #31).
// The order form's marker and the stale-price guard both read it.
func (s *Store) PricesFreshness(market bool) Freshness {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.pricesFreshness(market)
}

func (s *Store) pricesFreshness(market bool) Freshness {
	f := s.priceFreshness(KindTickers)
	if m := s.priceFreshness(KindMids); market && m.Loaded() && m.Stale && (!f.Stale || m.Age > f.Age) {
		f = m
	}
	return f
}

// priceFreshness is freshness judged against k's own stale age.
func (s *Store) priceFreshness(k Kind) Freshness {
	f := s.freshness(k)
	f.Stale = f.Err != nil || (f.Loaded() && f.Age > kinds[k].staleAfter)
	return f
}
