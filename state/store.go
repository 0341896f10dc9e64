package state

import (
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Store holds everything the panes show. It changes only through Apply; the accessors return
// slices and maps the caller must not modify (Apply replaces them, never edits them in place, so a
// slice read earlier stays valid). It is safe for concurrent use.
type Store struct {
	mu    sync.RWMutex
	clock func() time.Time
	fees  Fees

	gen        [numKinds]uint64
	version    [numKinds]uint64
	at         [numKinds]time.Time
	err        [numKinds]error
	staleAfter [numKinds]time.Duration

	tickers     []api.Ticker
	tickerIdx   map[string]int
	mids        map[string]decimal.Decimal
	instruments []Instrument
	instByName  map[string]int
	instByID    map[api.InstrumentID]int
	names       []string
	collateral  []api.Collateral
	account     api.AccountSummary
	positions   []api.Position
	orders      []api.OrderRecord
	fills       pagedList[api.Fill, fillKey]
	history     pagedList[api.OrderRecord, api.OrderID]
	charts      map[ChartKey][]api.Candle
	brokers     []api.BrokerApproval
	leverage    map[string]api.InstrumentLeverage
}

// New returns an empty store; clock gives "now" for freshness (nil means time.Now).
func New(clock func() time.Time) *Store {
	if clock == nil {
		clock = time.Now
	}
	s := &Store{
		clock:      clock,
		fees:       DefaultFees(),
		tickerIdx:  map[string]int{},
		mids:       map[string]decimal.Decimal{},
		instByName: map[string]int{},
		instByID:   map[api.InstrumentID]int{},
		charts:     map[ChartKey][]api.Candle{},
		leverage:   map[string]api.InstrumentLeverage{},
	}
	s.fills.key = func(f api.Fill) fillKey { return fillKey{f.TradeID, f.OrderID} }
	s.history.key = func(o api.OrderRecord) api.OrderID { return o.OrderID }
	s.staleAfter = defaultStaleAfter
	return s
}

// SetFees sets the fee rates used by previews.
func (s *Store) SetFees(f Fees) {
	s.mu.Lock()
	s.fees = f
	s.mu.Unlock()
}

// Fees returns the fee rates used by previews.
func (s *Store) Fees() Fees {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.fees
}

// SetStaleAfter sets the age after which k's data counts as stale (zero or less: only failures
// make it stale).
func (s *Store) SetStaleAfter(k Kind, d time.Duration) {
	if k < 0 || k >= numKinds {
		return
	}
	s.mu.Lock()
	s.staleAfter[k] = d
	s.mu.Unlock()
}

// Apply changes the store by one message and reports whether anything changed. Unknown messages
// and messages of a generation older than the last applied for their kind change nothing.
func (s *Store) Apply(msg any) (changed bool) {
	msg = deref(msg)
	k, gen, at, ok := msgMeta(msg)
	if !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen < s.gen[k] {
		return false
	}
	s.gen[k] = gen
	if at.IsZero() {
		at = s.clock()
	}
	if f, isFail := msg.(FailedMsg); isFail {
		s.err[k] = f.Err
		s.version[k]++
		return true
	}
	recovered := s.err[k] != nil
	s.at[k], s.err[k] = at, nil
	if s.applyData(msg) || recovered {
		s.version[k]++
		return true
	}
	return false
}

// msgMeta returns the kind, generation and time of a message (a value: Apply derefs pointers).
func msgMeta(msg any) (Kind, uint64, time.Time, bool) {
	switch m := msg.(type) {
	case TickersMsg:
		return KindTickers, m.Gen, m.At, true
	case MidsMsg:
		return KindMids, m.Gen, m.At, true
	case InstrumentsMsg:
		return KindInstruments, m.Gen, m.At, true
	case CollateralMsg:
		return KindCollateral, m.Gen, m.At, true
	case AccountMsg:
		return KindAccount, m.Gen, m.At, true
	case PositionsMsg:
		return KindPositions, m.Gen, m.At, true
	case OrdersMsg:
		return KindOrders, m.Gen, m.At, true
	case FillsMsg:
		return KindFills, m.Gen, m.At, true
	case HistoryMsg:
		return KindHistory, m.Gen, m.At, true
	case ChartMsg:
		return KindChart, m.Gen, m.At, true
	case BrokersMsg:
		return KindBrokers, m.Gen, m.At, true
	case LeverageMsg:
		return KindLeverage, m.Gen, m.At, true
	case FailedMsg:
		if m.Kind < 0 || m.Kind >= numKinds {
			return 0, 0, time.Time{}, false
		}
		return m.Kind, m.Gen, m.At, true
	}
	return 0, 0, time.Time{}, false
}

// applyData stores a data message's records; it reports whether they differ from what was held.
func (s *Store) applyData(msg any) bool {
	switch m := msg.(type) {
	case TickersMsg:
		return s.setTickers(m.Tickers)
	case MidsMsg:
		return s.setMids(m.Mids)
	case InstrumentsMsg:
		s.setInstruments(m.Instruments)
	case CollateralMsg:
		return replace(&s.collateral, m.Collateral)
	case AccountMsg:
		return replace(&s.account, m.Summary)
	case PositionsMsg:
		return replace(&s.positions, m.Positions)
	case OrdersMsg:
		return replace(&s.orders, m.Orders)
	case FillsMsg:
		return s.fills.merge(m.Page)
	case HistoryMsg:
		return s.history.merge(m.Page)
	case ChartMsg:
		s.setChart(m.Key, m.Candles)
	case BrokersMsg:
		s.setBrokers(m.Page)
	case LeverageMsg:
		s.setLeverage(m.Leverage)
	}
	return true
}

// replace stores v in *dst and reports whether it differs from what was there, so a poll that
// brings the same records does not make panes render again.
func replace[T any](dst *T, v T) bool {
	if reflect.DeepEqual(*dst, v) {
		return false
	}
	*dst = v
	return true
}

// deref turns a pointer to a message into the message (nil for a nil pointer); anything else
// comes back as it is.
func deref(msg any) any {
	switch m := msg.(type) {
	case *TickersMsg:
		return value(m)
	case *MidsMsg:
		return value(m)
	case *InstrumentsMsg:
		return value(m)
	case *CollateralMsg:
		return value(m)
	case *AccountMsg:
		return value(m)
	case *PositionsMsg:
		return value(m)
	case *OrdersMsg:
		return value(m)
	case *FillsMsg:
		return value(m)
	case *HistoryMsg:
		return value(m)
	case *ChartMsg:
		return value(m)
	case *BrokersMsg:
		return value(m)
	case *LeverageMsg:
		return value(m)
	case *FailedMsg:
		return value(m)
	}
	return msg
}

// value is *p, or nil when p is nil.
func value[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func (s *Store) setTickers(ts []api.Ticker) bool {
	if tickersEqual(s.tickers, ts) {
		return false
	}
	idx := make(map[string]int, len(ts))
	for i, t := range ts {
		idx[t.Symbol] = i
	}
	s.tickers, s.tickerIdx = ts, idx
	return true
}

func tickersEqual(a, b []api.Ticker) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Symbol != y.Symbol || !x.LastUpdated.Equal(y.LastUpdated.Time) ||
			!x.MarkPrice.Equal(y.MarkPrice) || !x.LastPrice.Equal(y.LastPrice) ||
			!x.BestBidPrice.Equal(y.BestBidPrice) || !x.BestAskPrice.Equal(y.BestAskPrice) ||
			!x.BestBidSize.Equal(y.BestBidSize) || !x.BestAskSize.Equal(y.BestAskSize) ||
			!x.MidPrice.Equal(y.MidPrice) || !x.Volume24h.Equal(y.Volume24h) ||
			!x.Change24h.Equal(y.Change24h) || !x.FundingRate.Equal(y.FundingRate) ||
			!x.OpenInterest.Equal(y.OpenInterest) || !x.IndexPrice.Equal(y.IndexPrice) {
			return false
		}
	}
	return true
}

func (s *Store) setMids(ms []api.Mid) bool {
	if len(ms) == len(s.mids) {
		same := true
		for _, m := range ms {
			if old, ok := s.mids[m.Symbol]; !ok || !old.Equal(m.MidPrice) {
				same = false
				break
			}
		}
		if same {
			return false
		}
	}
	mids := make(map[string]decimal.Decimal, len(ms))
	for _, m := range ms {
		mids[m.Symbol] = m.MidPrice
	}
	s.mids = mids
	return true
}

func (s *Store) setInstruments(in api.Instruments) {
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
	s.instruments, s.instByName, s.instByID, s.names = all, byName, byID, names
}

func (s *Store) setChart(k ChartKey, cs []api.Candle) {
	charts := make(map[ChartKey][]api.Candle, len(s.charts)+1)
	for key, v := range s.charts {
		charts[key] = v
	}
	charts[k] = cs
	s.charts = charts
}

func (s *Store) setBrokers(p api.Page[api.BrokerApproval]) {
	if p.Page <= 1 {
		s.brokers = p.Data
		return
	}
	out := make([]api.BrokerApproval, 0, len(s.brokers)+len(p.Data))
	s.brokers = append(append(out, s.brokers...), p.Data...)
}

func (s *Store) setLeverage(l api.InstrumentLeverage) {
	m := make(map[string]api.InstrumentLeverage, len(s.leverage)+1)
	for k, v := range s.leverage {
		m[k] = v
	}
	m[strings.ToUpper(l.Instrument)] = l
	s.leverage = m
}
