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
