package state

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindInstruments is the instruments (perpetuals and spot pairs).
var KindInstruments = newKind("instruments", 15*time.Minute, func() any {
	return &instrumentData{byName: map[string]int{}, byID: map[api.InstrumentID]int{}}
})

type instrumentData struct {
	list   []Instrument
	byName map[string]int // upper-case name -> index
	byID   map[api.InstrumentID]int
	names  []string // sorted
}

func (s *Store) instrumentData() *instrumentData { return s.data(KindInstruments).(*instrumentData) }

// InstrumentsMsg carries the instruments result (perps and spot); it replaces every instrument.
type InstrumentsMsg struct {
	Gen         uint64
	At          time.Time
	Instruments api.Instruments
}

// Kind implements Msg.
func (InstrumentsMsg) Kind() Kind { return KindInstruments }

// Order implements Msg.
func (m InstrumentsMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m InstrumentsMsg) apply(s *Store, _ Order) bool {
	in := m.Instruments
	all := make([]Instrument, 0, len(in.Perps)+len(in.Spot))
	for _, p := range in.Perps {
		all = append(all, InstrumentFromPerp(p))
	}
	for _, p := range in.Spot {
		all = append(all, InstrumentFromSpot(p))
	}
	byName := make(map[string]int, len(all))
	byID := make(map[api.InstrumentID]int, len(all))
	names := make([]string, 0, len(all))
	for i, x := range all {
		byName[strings.ToUpper(x.Name)] = i
		if _, dup := byID[x.ID]; !dup || !x.Spot {
			byID[x.ID] = i
		}
		names = append(names, x.Name)
	}
	sort.Strings(names)
	*s.instrumentData() = instrumentData{list: all, byName: byName, byID: byID, names: names}
	return true
}

// Instrument returns an instrument by name (case-insensitive).
func (s *Store) Instrument(symbol string) (Instrument, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d := s.instrumentData()
	i, ok := d.byName[strings.ToUpper(symbol)]
	if !ok {
		return Instrument{}, false
	}
	return d.list[i], true
}

// Lists reports whether the instrument list has loaded and whether it holds an instrument named
// exactly name: one read of the store, with neither the clock nor a copy of the instrument, for
// the stream's check of every ticker it brings (feed.UnknownInstrument: 500 a second with 500
// instruments streaming, issue #34).
func (s *Store) Lists(name string) (loaded, listed bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.kinds[KindInstruments].at.IsZero() {
		return false, false
	}
	d := s.instrumentData()
	i, ok := d.byName[strings.ToUpper(name)]
	return true, ok && d.list[i].Name == name
}

// InstrumentByID returns an instrument by id (a perpetual when a spot pair shares the id).
func (s *Store) InstrumentByID(id api.InstrumentID) (Instrument, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d := s.instrumentData()
	i, ok := d.byID[id]
	if !ok {
		return Instrument{}, false
	}
	return d.list[i], true
}

// FindInstrument resolves what a trader typed: a name (case-insensitive) or a numeric id.
func (s *Store) FindInstrument(nameOrID string) (Instrument, bool) {
	nameOrID = strings.TrimSpace(nameOrID)
	if in, ok := s.Instrument(nameOrID); ok {
		return in, true
	}
	if id, err := strconv.ParseInt(nameOrID, 10, 64); err == nil {
		return s.InstrumentByID(api.InstrumentID(id))
	}
	return Instrument{}, false
}

// findInstrument is FindInstrument without the lock.
func (s *Store) findInstrument(nameOrID string) (Instrument, bool) {
	d := s.instrumentData()
	if i, ok := d.byName[strings.ToUpper(nameOrID)]; ok {
		return d.list[i], true
	}
	if id, err := strconv.ParseInt(nameOrID, 10, 64); err == nil {
		if i, ok := d.byID[api.InstrumentID(id)]; ok {
			return d.list[i], true
		}
	}
	return Instrument{}, false
}

// Instruments returns every instrument: perpetuals first, then spot, in the exchange's order.
func (s *Store) Instruments() []Instrument {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.instrumentData().list
}

// InstrumentNames returns every instrument name, sorted (for completion).
func (s *Store) InstrumentNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.instrumentData().names
}
