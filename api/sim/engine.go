package sim

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// Fee rates on notional: makers earn a rebate (a negative fee), takers pay.
var (
	makerFee = d("-0.0001")
	takerFee = d("0.0004")
	liqFee   = d("0.005")
)

// market is an instrument's terms and its live state.
type market struct {
	marketSpec
	book     book
	triggers []*order
	index    int64 // ticks
	mark     int64
	last     int64
	oi       int64           // lots held long across all accounts
	premSum  decimal.Decimal // the funding average's sum, unless premInUnits
	premN    int64
	// premUnits is the sum in 10^-10 while premInUnits (see accrueUnits).
	premUnits   int64
	premInUnits bool
	funding     decimal.Decimal // the current (predicted) funding rate per interval
	charts      *charts
	updated     time.Time
	trades      []tradeRec // recent trades, oldest first, capped
	minTL       int64      // minNotional in tick×lot units, rounded up (0 until first needed)
	quotes      []*order   // the makers' orders of the last requote (some may have filled)
	spare       []*order   // closed quotes a requote writes its new quotes over (market.reuse)
	topic       string     // "ticker:" and its name, made once (market.tickerTopic)
	quotedAt    int64      // the index (ticks) at the last requote (a synthetic market's: that changed a quote)
	ladder      ladder     // a synthetic market's quote ladder (engine.shiftQuotes)
	paused      bool       // its random walk is stopped (POST /control)
	mirrored    bool       // its mark and funding rate come from a live exchange (Mirror)
	upMark      int64      // the live exchange's mark, in ticks, when mirrored
}

// tradeRec is one trade on the market's tape.
type tradeRec struct {
	id           api.TradeID
	price        int64
	lots         int64
	buy          bool // the taker's side
	at           time.Time
	tx           string // the transaction that made it
	maker, taker string // the accounts' addresses
}

// maxTradesKept caps a market's tape.
const maxTradesKept = 200

// engine is the exchange's state: markets, books, accounts. It is not safe for concurrent use;
// Sim serialises access to it.
type engine struct {
	clock    func() time.Time
	at       time.Time // the market loop's time while it runs a step
	quiet    bool      // no market makers, no takers, no index moves
	keep     keep      // what each user account keeps of its history
	rng      *rand.Rand
	markets  []*market
	byID     map[api.InstrumentID]*market
	byName   map[string]*market
	colls    []collateralSpec
	collByID map[api.CollateralID]*collateralSpec
	accounts map[string]*account
	vaults   map[string]*vault // by address (Sim.AddVault)
	users    []*account        // non-internal accounts in creation order, for liquidation scans
	limit    accountLimit
	orders   map[api.OrderID]*order
	brackets []*bracket // brackets with an order still open, oldest first (engine.joinBracket)
	demoN    int        // the demo seeding's cloid counter (engine.demoPlace)
	fundedAt time.Time  // when funding was last paid
	nextOid  api.OrderID
	nextTid  api.TradeID
	nextTx   uint64
	demo     decimal.Decimal
	liq      *account // takes over liquidated positions
	maker    *account // the market makers
	curTx    string   // hash of the transaction being applied, for its fills
	taker    *account // random market orders
	// spareTaker is the takers' last order, closed, written over by the next (engine.takerOrder).
	spareTaker *order
	fees       *account // receives fees, pays rebates
	insure     *account // the insurance fund
	house      []*account
	ledger     ledger
	ctl        control // agents and faucet use (type control)
	fee        feeRates
	// nonceFloor refuses every nonce at or below it (WithStartNonceFloor): the start of the
	// process, so a body signed before a restart is not good again.
	nonceFloor uint64
	dirt       track // what changed since the store's last write (WithStateFile)
}

func newEngine(now func() time.Time, seed uint64, demo decimal.Decimal, markets int) *engine {
	e := &engine{clock: now, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		byID: map[api.InstrumentID]*market{}, byName: map[string]*market{},
		collByID: map[api.CollateralID]*collateralSpec{}, accounts: map[string]*account{},
		orders: map[api.OrderID]*order{}, nextOid: 1000001, nextTid: 7_000_000_000, demo: demo, ledger: newLedger(),
		fee: feeRates{maker: makerFee, taker: takerFee}}
	keeps := syntheticKeeps(markets)
	for _, spec := range append(defaultMarkets(), syntheticMarkets(seed, markets)...) {
		m := &market{marketSpec: spec}
		px := spec.tick.round(spec.start)
		m.index, m.mark, m.last = px, px, px
		m.updated = now()
		m.funding = baseFunding
		// Each market's past has a generator of its own, taken from the engine's with one draw:
		// how many draws a past takes depends on where the start falls in the hour and the day,
		// and the markets that move after it must not (a seeded demo is the same whatever the
		// time it starts at). A synthetic market's comes from the seed and its id, so the
		// default markets' pasts are the same with or without them.
		src := rand.NewPCG(seed^0x9a57, uint64(m.id))
		if spec.synthetic {
			m.charts = newCompactCharts(now().UnixMilli(), keeps)
		} else {
			src = rand.NewPCG(e.rng.Uint64(), uint64(m.id))
		}
		makeHistory(m, src, now())
		e.markets = append(e.markets, m)
		e.byID[m.id] = m
		e.byName[strings.ToUpper(m.name)] = m
	}
	e.colls = defaultCollaterals()
	for i := range e.colls {
		e.collByID[e.colls[i].rec.ID] = &e.colls[i]
	}
	e.liq = e.internalAccount("liquidator")
	e.maker = e.internalAccount("maker")
	e.taker = e.internalAccount("taker")
	e.fees = e.internalAccount("fees")
	e.insure = e.internalAccount("insurance")
	return e
}

// now is the exchange's time: the market loop's step time while a step runs, else the clock.
func (e *engine) now() time.Time {
	if !e.at.IsZero() {
		return e.at
	}
	return e.clock()
}

// canonical returns the EIP-55 form of a hex address, or an error saying what is wrong.
func canonical(addr string) (string, error) {
	if !common.IsHexAddress(addr) || !strings.HasPrefix(addr, "0x") && !strings.HasPrefix(addr, "0X") {
		return "", fmt.Errorf("address %q is not a 0x-prefixed 40-hex-digit wallet address", trunc(addr, 60))
	}
	return common.HexToAddress(addr).Hex(), nil
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// account returns the account of a canonical address, opening it (empty) on first sight,
// whatever the account limit says. Requests open accounts with openAccount; only funding
// (Fund, the faucet, a transfer's credit) opens one for a request.
func (e *engine) account(addr string) *account {
	if a := e.accounts[addr]; a != nil {
		a.seen = e.now()
		a.dirty = true
		return a
	}
	a := e.fresh(addr)
	a.dirty = true
	e.accounts[addr] = a
	e.users = append(e.users, a)
	for id, v := range a.spot {
		e.ledger.deposit(id, v)
	}
	for id, v := range a.deriv {
		e.ledger.deposit(id, v)
	}
	return a
}

// fresh makes a new, empty account without storing it: the simulator opens no account with
// money of its own (Fund and the faucet credit it as deposits).
func (e *engine) fresh(addr string) *account {
	a := newAccount(addr, false)
	a.keep = e.keep
	a.brokers = seededBrokers(addr, e.now())
	a.created = e.now()
	a.seen = a.created
	return a
}

// view returns the account of an address for a query: the stored one, or, for an address the
// simulator has not opened, a fresh account that is not stored (reading never opens one).
func (e *engine) view(addr string) *account {
	if a := e.accounts[addr]; a != nil {
		a.seen = e.now()
		return a
	}
	return e.fresh(addr)
}

// internalAccount makes one of the exchange's own accounts (market makers, takers, the
// liquidator, fees, insurance): it pays no fees, needs no margin and may hold a negative balance.
func (e *engine) internalAccount(name string) *account {
	addr := houseAddress(name)
	a := newAccount(addr, true)
	e.accounts[addr] = a
	e.house = append(e.house, a)
	return a
}

// market looks an instrument up by id.
func (e *engine) market(id api.InstrumentID) (*market, error) {
	m := e.byID[id]
	if m == nil {
		return nil, fmt.Errorf("unknown instrument id %d: see the instruments method for valid ids", id)
	}
	return m, nil
}

// marketByName looks an instrument up by name (case-insensitive) or by its id written as text.
func (e *engine) marketByName(s string) (*market, error) {
	if m := e.byName[strings.ToUpper(strings.TrimSpace(s))]; m != nil {
		return m, nil
	}
	if id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
		return e.market(api.InstrumentID(id))
	}
	return nil, fmt.Errorf("unknown instrument %q: use a name such as BTC-PERP or an instrument id", trunc(s, 40))
}

// txHash makes a transaction hash for an action: deterministic, unique per call.
func (e *engine) txHash(signer string, nonce uint64, txType uint16) string {
	e.nextTx++
	var b [26]byte
	binary.BigEndian.PutUint64(b[0:], nonce)
	binary.BigEndian.PutUint16(b[8:], txType)
	binary.BigEndian.PutUint64(b[10:], e.nextTx)
	h := secp.Keccak256(b[:], []byte(signer))
	return "0x" + common.Bytes2Hex(h)
}

// price helpers
func (m *market) px(ticks int64) decimal.Decimal { return m.tick.dec(ticks) }
func (m *market) qty(lots int64) decimal.Decimal { return m.lot.dec(lots) }
func (m *market) markPx() decimal.Decimal        { return m.tick.dec(m.mark) }

// notional is ticks x lots in USD, tick.dec(ticks) x lot.dec(lots): the product of the
// coefficients in an int64 where it fits (the same coefficient and exponent as the library's
// product; every trade settles two to four of these), else by the library.
func (m *market) notional(ticks, lots int64) decimal.Decimal {
	a, b := ticks*m.tick.m, lots*m.lot.m
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo >= 1<<63 {
		return m.tick.dec(ticks).Mul(m.lot.dec(lots))
	}
	c := int64(lo)
	if (a < 0) != (b < 0) {
		c = -c
	}
	return decimal.New(c, m.tick.e+m.lot.e)
}

// collPrice is a collateral's USD price: 1 for stables, else its perpetual's index.
func (e *engine) collPrice(id api.CollateralID) decimal.Decimal {
	c := e.collByID[id]
	if c == nil || c.priceFrom == 0 {
		return decimal.NewFromInt(1)
	}
	m := e.byID[c.priceFrom]
	return m.px(m.index)
}
