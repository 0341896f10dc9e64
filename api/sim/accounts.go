package sim

import (
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// Caps on what one account keeps, so a long run does not grow memory without bound: funding
// records and transfers (maxFillsKept), and, unless WithKeepFills and WithKeepOrders say
// otherwise, fills and closed orders.
const (
	maxFillsKept  = 2000
	maxClosedKept = 1000
)

// position is one instrument's one-way position. cost is |size|×entry price in USDC.
type position struct {
	size      int64 // lots, negative for short
	cost      decimal.Decimal
	isolated  bool
	isoMargin decimal.Decimal // margin set aside for an isolated position
	lev       decimal.Decimal
	updated   time.Time
}

// levSetting is an account's leverage and margin mode on one perpetual.
type levSetting struct {
	mode    string
	lev     decimal.Decimal
	updated time.Time
}

// resting sums the lots of an account's open orders on one instrument, per side.
type resting struct{ buy, sell int64 }

// fillRec is one execution of one of the account's orders.
type fillRec struct {
	mkt       *market
	oid       api.OrderID
	cloid     string
	trade     api.TradeID
	buy       bool
	dir       string
	openDir   string // a flip's direction of the part that opened (fillJSON.OpenDirection)
	price     int64
	lots      int64
	closedPnl decimal.Decimal
	fee       decimal.Decimal
	startSize int64
	startCost decimal.Decimal // the position's cost before the fill; its entry price is read from it when shown
	crossed   bool
	txHash    string
	fillType  int
	at        time.Time
}

// Fill types: an ordinary trade, a liquidation, a funding-free settlement of a delisting.
const (
	fillTrade       = 0
	fillLiquidation = 1
)

// account is one address's balances, positions, orders and history.
type account struct {
	addr      string
	internal  bool // market makers, takers, the liquidator: no margin, no history
	spot      map[api.CollateralID]decimal.Decimal
	deriv     map[api.CollateralID]decimal.Decimal
	pos       map[api.InstrumentID]*position
	lev       map[api.InstrumentID]*levSetting
	rest      map[api.InstrumentID]*resting
	trig      map[api.InstrumentID]*resting // lots of trigger orders that are not reduce-only
	open      map[api.OrderID]*order
	cloids    map[string]*order // open orders by client order id
	history   []*order
	closed    int // closed orders in history
	fills     []fillRec
	fillHead  int // ring start once fills is full
	keep      keep
	nonces    nonceSet
	volume    decimal.Decimal
	spotVol   decimal.Decimal
	pnl       decimal.Decimal
	peak      decimal.Decimal
	maxDD     decimal.Decimal
	funding   []fundingRec
	transfers []transferRec  // collateral moved in and out, oldest first (transferRec)
	days      []dayVolume    // traded notional per UTC day, for user_fees
	hist      []historyPoint // account value over time, for account_history
	brokers   []brokerRec
	created   time.Time
	seen      time.Time // last signed action or query, for idle eviction
	// dirty says the account's row changed since the store last wrote it (WithStateFile);
	// logN counts the records ever added to its fills, funding, transfers and history, and
	// logSaved those the store holds, so that a write appends only the new ones.
	dirty    bool
	trimmed  bool // closed orders left its history since the last write
	logN     [nLogs]int64
	logSaved [nLogs]int64
}

// brokerRec is a broker the account has approved.
type brokerRec struct {
	broker  string
	maxFee  decimal.Decimal
	updated time.Time
}

// Brokers every account starts with approved (the simulator has no action to approve one).
var seedBrokerList = []struct{ addr, fee string }{
	{"0x7D2b6a4b38BfE8f3bF4A1ec0F2a3E5dA1c9B4e10", "0.001"},
	{"0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD", "0.0005"},
	{"0xA1b2C3d4E5f60718293a4B5c6D7e8F9012345678", "0.0025"},
}

func seededBrokers(addr string, now time.Time) []brokerRec {
	out := make([]brokerRec, 0, len(seedBrokerList))
	for i, b := range seedBrokerList {
		if i == 2 && addr[len(addr)-1]%2 == 1 {
			continue // only some accounts approved the third broker
		}
		out = append(out, brokerRec{broker: common.HexToAddress(b.addr).Hex(), maxFee: d(b.fee), updated: now.Add(-time.Duration(i+1) * 24 * time.Hour)})
	}
	return out
}

// fundingRec is one funding payment (negative: paid).
type fundingRec struct {
	mkt    *market
	amount decimal.Decimal
	rate   decimal.Decimal
	mark   decimal.Decimal // the mark the payment was valued at
	size   decimal.Decimal // the position's signed size
	at     time.Time
}

func newAccount(addr string, internal bool) *account {
	return &account{addr: addr, internal: internal, keep: keep{fills: maxFillsKept, orders: maxClosedKept},
		spot: map[api.CollateralID]decimal.Decimal{}, deriv: map[api.CollateralID]decimal.Decimal{},
		pos: map[api.InstrumentID]*position{}, lev: map[api.InstrumentID]*levSetting{},
		rest: map[api.InstrumentID]*resting{}, trig: map[api.InstrumentID]*resting{}, open: map[api.OrderID]*order{}, cloids: map[string]*order{}, nonces: newNonceSet()}
}

func (a *account) restingOn(id api.InstrumentID) *resting {
	r := a.rest[id]
	if r == nil {
		r = &resting{}
		a.rest[id] = r
	}
	return r
}

// leverage returns the account's setting on a perpetual (the default until changed).
func (a *account) leverage(m *market) *levSetting {
	if s := a.lev[m.id]; s != nil {
		return s
	}
	mode := api.MarginCross
	if m.onlyIsolated {
		mode = api.MarginIsolated
	}
	return &levSetting{mode: mode, lev: m.defaultLeverage(), updated: a.created}
}

// addFill records a fill, dropping the oldest once the cap is reached.
func (a *account) addFill(f fillRec) {
	if a.internal {
		return
	}
	a.dirty = true
	a.logN[logFills]++
	if len(a.fills) < a.keep.fills {
		a.fills = append(a.fills, f)
		return
	}
	a.fills[a.fillHead] = f
	a.fillHead = (a.fillHead + 1) % a.keep.fills
}

// fillAt returns the i-th newest fill.
func (a *account) fillAt(i int) *fillRec {
	n := len(a.fills)
	j := (a.fillHead + n - 1 - i) % n
	return &a.fills[j]
}

// addOrder records an order in the account's history.
func (a *account) addOrder(o *order) {
	if a.internal {
		return
	}
	a.dirty = true
	a.history = append(a.history, o)
}

// orderClosed notes that an order left the book and trims the oldest closed orders past the cap.
func (a *account) orderClosed() {
	if a.internal {
		return
	}
	a.closed++
	if a.closed <= a.keep.orders+a.keep.orders/4 {
		return
	}
	a.trimmed = true
	drop := a.closed - a.keep.orders
	kept := a.history[:0]
	for _, o := range a.history {
		if drop > 0 && o.state != api.StateOpen {
			drop--
			continue
		}
		kept = append(kept, o)
	}
	clear(a.history[len(kept):])
	a.history = kept
	a.closed = a.keep.orders
}

func (a *account) addFunding(f fundingRec) {
	if a.internal {
		return
	}
	a.dirty = true
	a.logN[logFunding]++
	if len(a.funding) >= maxFillsKept {
		a.funding = append(a.funding[:0], a.funding[len(a.funding)-maxFillsKept/2:]...)
	}
	a.funding = append(a.funding, f)
}
