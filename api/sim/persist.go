package sim

import (
	"errors"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
)

// WithStateFile keeps the simulator's state in the SQLite database at path (the package doc's
// "State"): New loads it when it exists, and every action and market step writes what it
// changed, in one transaction, before it is answered.
func WithStateFile(path string) Option { return func(c *config) { c.state = path } }

// errStateVersion reports a state database written in another format.
var errStateVersion = errors.New("state database of another version")

// saveState writes what changed since the last write, when there is a store. Under s.mu.
func (s *Sim) saveState() {
	if s.store == nil {
		return
	}
	if err := s.store.write(s.eng, s.maxNonce); err != nil && s.stateErr == nil {
		s.stateErr = err
	}
}

// Known reports whether the simulator has an account for addr (funded, or kept in its state
// database).
func (s *Sim) Known(addr string) bool {
	a, err := canonical(addr)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.known(a) != nil
}

// StateError is the first error reading or writing the state database met, or nil.
func (s *Sim) StateError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateErr
}

// Close closes the state database, when there is one. The simulator keeps answering, but writes
// nothing more.
func (s *Sim) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.store == nil {
		return nil
	}
	err := s.store.db.Close()
	s.store = nil
	return err
}

// loadState opens the state database and reads it into the engine. The first write of a new
// database writes the house accounts and every market (they differ from nothing).
func (s *Sim) loadState() error {
	st, err := openStore(s.cfg.state)
	if err != nil {
		return fmt.Errorf("state database %s: %w", s.cfg.state, err)
	}
	st.check = s.cfg.storeCheck
	if st.check {
		st.rows, st.orders, st.orderRow = map[string][]byte{}, map[api.OrderID][]byte{}, map[api.OrderID]orderRow{}
	}
	n, err := st.load(s.eng)
	if err != nil {
		st.db.Close()
		return fmt.Errorf("state database %s: %w", s.cfg.state, err)
	}
	s.maxNonce = n
	s.eng.nonceFloor = max(s.eng.nonceFloor, n)
	s.eng.dirt.on = true
	s.store = st
	return nil
}
