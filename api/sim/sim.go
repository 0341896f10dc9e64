package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// Sim is the simulated exchange. It is an http.Handler for POST /exchange and POST /info (with
// or without a trailing slash). All its methods are safe for concurrent use.
type Sim struct {
	cfg    config
	mu     sync.Mutex // guards eng and last
	eng    *engine
	last   time.Time // time of the last market step
	start  time.Time // the clock's time when New ran (no funding is due for a time before it)
	faults *faultInjector
	ws     hub // the stream's subscribers (Sim.serveWS)

	maxNonce uint64 // the highest nonce accepted, kept in the state database
	stateErr error  // the first failure to load or write the state database
	store    *store // the state database (WithStateFile), or nil

	mirror *Mirror // the live exchange it mirrors (NewMirror), nil for a simulator of its own
}

type config struct {
	seed    uint64
	clock   Clock
	demo    decimal.Decimal
	faults  Faults
	source  string
	quiet   bool
	step    time.Duration
	funding time.Duration

	maxAccounts int
	startFloor  bool   // refuse nonces before the start (WithStartNonceFloor)
	state       string // the state database (WithStateFile)
	storeCheck  bool   // tests: each write checks that it missed nothing (withStoreCheck)
	markets     int    // synthetic markets (WithMarkets)
	keep        keep   // what each account keeps (WithKeepFills, WithKeepOrders)

	fees   *feeRates    // WithFees
	mirror *mirrorSetup // the live exchange's terms (NewMirror)
}

// Option configures a Sim.
type Option func(*config)

// WithSeed sets the seed of every random choice (index walks, makers, takers, faults, history).
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// WithClock sets the clock (default: the system clock). Use a *TestClock with Advance in tests.
func WithClock(clock Clock) Option { return func(c *config) { c.clock = clock } }

// WithDemoBalance sets the USDC the faucet credits to both the spot and the derivative balance
// of an address it funds (default 100000). The simulator opens no account by itself: see Fund.
func WithDemoBalance(amount decimal.Decimal) Option { return func(c *config) { c.demo = amount } }

// WithFaults makes a share of requests fail (see Faults).
func WithFaults(f Faults) Option { return func(c *config) { c.faults = f } }

// WithSource sets the EIP-712 source signatures are checked against (default "Mainnet").
func WithSource(source string) Option { return func(c *config) { c.source = source } }

// WithQuietMarkets turns the market off: no market makers, no takers, index prices stay where
// they are unless SetIndexPrice moves them. For tests that need exact numbers.
func WithQuietMarkets() Option { return func(c *config) { c.quiet = true } }

// WithStep sets the market loop's interval (default 1s).
func WithStep(d time.Duration) Option { return func(c *config) { c.step = d } }

// WithFundingInterval sets how often funding is paid (default 1h).
func WithFundingInterval(d time.Duration) Option { return func(c *config) { c.funding = d } }

// WithStartNonceFloor makes the simulator refuse every nonce before its clock's time when New
// runs (in Unix milliseconds): a body signed before a restart is never acted on again, although the new process
// remembers no nonce of the old one. `tradedesk sim` always sets it.
func WithStartNonceFloor() Option { return func(c *config) { c.startFloor = true } }

// DefaultDemoBalance is the USDC the faucet gives unless WithDemoBalance says otherwise.
var DefaultDemoBalance = decimal.NewFromInt(100000)

// New makes a simulator. With the same options and requests it gives the same answers.
func New(opts ...Option) *Sim {
	c := config{seed: 1, clock: realClock{}, demo: DefaultDemoBalance, source: "Mainnet", step: time.Second,
		funding: time.Hour}
	for _, o := range opts {
		o(&c)
	}
	if c.step <= 0 {
		c.step = time.Second
	}
	if c.funding <= 0 {
		c.funding = time.Hour
	}
	s := &Sim{cfg: c, faults: newFaultInjector(c.faults, c.seed)}
	s.eng = newEngine(c.clock.Now, c.seed, c.demo, c.markets)
	s.eng.quiet = c.quiet
	s.eng.keep = c.keep.orDefault()
	if c.fees != nil {
		s.eng.fee = *c.fees
	}
	if c.mirror != nil {
		s.eng.adopt(c.mirror)
	}
	s.eng.limit.max = c.maxAccounts
	if s.eng.limit.max < 1 {
		s.eng.limit.max = DefaultMaxAccounts
	}
	s.last = c.clock.Now()
	s.start = s.last
	if c.startFloor {
		s.eng.nonceFloor = uint64(s.last.UnixMilli()) - 1 // a body signed in the start's millisecond is new
	}
	if c.state != "" {
		if err := s.loadState(); err != nil {
			s.stateErr = err // never overwrite a state it could not read: no store
		}
	}
	if !c.quiet {
		s.eng.at = s.last
		for _, m := range s.eng.markets {
			if !m.delisted {
				s.eng.requote(m)
				m.mark = m.computeMark()
			}
		}
		s.eng.at = time.Time{}
	}
	return s
}

// Now is the simulator's clock time.
func (s *Sim) Now() time.Time { return s.cfg.clock.Now() }

// Advance moves a *TestClock forward by d and runs every market step due up to the new time.
// With another clock it only runs the steps already due.
func (s *Sim) Advance(d time.Duration) {
	if tc, ok := s.cfg.clock.(*TestClock); ok {
		tc.Add(d)
	}
	s.catchUp()
}

// maxCatchUp bounds how much market time one catch-up replays (a suspended laptop must not
// freeze the exchange for minutes when it wakes).
const maxCatchUp = time.Hour

// catchUp runs the market steps due by the clock's time.
func (s *Sim) catchUp() {
	defer s.publish(true)
	now := s.cfg.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	last := s.last
	s.runDue(now)
	if !s.last.Equal(last) {
		s.saveState()
	}
}

// Run drives the market loop in real time until ctx ends. It returns ctx's error.
func (s *Sim) Run(ctx context.Context) error {
	t := time.NewTicker(s.cfg.step)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			s.catchUp()
		}
	}
}

// Serve answers HTTP on ln and runs the market loop until ctx ends, then shuts the server down.
// It returns nil after a clean shutdown.
func (s *Sim) Serve(ctx context.Context, ln net.Listener) error {
	return serve(ctx, ln, s, func(ctx context.Context) { _ = s.Run(ctx) })
}

// serve answers HTTP with h on ln and runs each loop on its own goroutine until ctx ends, then
// shuts the server down (the simulator's and the mirror's Serve). It returns nil after a clean
// shutdown.
func serve(ctx context.Context, ln net.Listener, h http.Handler, loops ...func(context.Context)) error {
	// A slow or idle client cannot hold a connection (and its goroutine) for ever.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		IdleTimeout: 2 * time.Minute}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for _, loop := range loops {
		go loop(ctx)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// SetIndexPrice moves an instrument's index price (the mark follows), then fires triggers and
// liquidates as the market loop would. For tests and scripted demos.
func (s *Sim) SetIndexPrice(symbol string, price decimal.Decimal) error {
	defer s.publish(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveState()
	e := s.eng
	m, err := e.marketByName(symbol)
	if err != nil {
		return err
	}
	n, err := m.tick.count(price, "price")
	if err != nil || n <= 0 {
		return fmt.Errorf("index price %s for %s: want a positive multiple of %s", price, m.name, m.tick.d)
	}
	m.index = n
	if now := e.now(); s.fundingPassed(now) {
		s.runDue(now) // funding first, for the positions held at the hour
	}
	now := e.now()
	e.curTx = e.txHash("index", uint64(now.UnixMilli()), 0)
	e.refresh(m, now)
	e.liquidations()
	e.tidyBrackets()
	return nil
}

// SetLeverage sets an account's margin mode ("cross" or "isolated") and leverage on a perpetual.
// The spec has no action for it, so the simulator offers it here. It fails while the account
// has a position or open orders on the instrument.
func (s *Sim) SetLeverage(user, symbol, mode string, leverage decimal.Decimal) error {
	defer s.publish(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveState()
	return s.eng.setLeverage(user, symbol, mode, leverage)
}

// setLeverage is SetLeverage under the simulator's lock.
func (e *engine) setLeverage(user, symbol, mode string, leverage decimal.Decimal) error {
	addr, err := canonical(user)
	if err != nil {
		return err
	}
	m, err := e.marketByName(symbol)
	if err != nil {
		return err
	}
	if m.spot {
		return fmt.Errorf("%s is a spot pair: it has no leverage", m.name)
	}
	mode = strings.ToLower(mode)
	if mode != api.MarginCross && mode != api.MarginIsolated {
		return fmt.Errorf("margin mode %q: want cross or isolated", mode)
	}
	if mode == api.MarginCross && m.onlyIsolated {
		return fmt.Errorf("%s is isolated-only", m.name)
	}
	if leverage.LessThan(decimal.NewFromInt(1)) || leverage.GreaterThan(m.maxLev) {
		return fmt.Errorf("leverage %s for %s: want 1 to %s", leverage, m.name, m.maxLev)
	}
	a := e.account(addr)
	if a.pos[m.id] != nil || e.hasOpen(a, m) {
		return fmt.Errorf("close the %s position and cancel its orders before changing leverage", m.name)
	}
	a.lev[m.id] = &levSetting{mode: mode, lev: leverage, updated: e.now()}
	a.dirty = true
	return nil
}

func (e *engine) hasOpen(a *account, m *market) bool {
	for _, o := range a.open {
		if o.mkt == m {
			return true
		}
	}
	return false
}

// Deposit credits collateral to an account's spot or derivative account, as a bridge deposit
// would. For tests and scripted demos.
func (s *Sim) Deposit(user string, collateral api.CollateralID, amount decimal.Decimal, derivatives bool) error {
	defer s.publish(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveState()
	e := s.eng
	addr, err := canonical(user)
	if err != nil {
		return err
	}
	if _, _, err := e.amount(collateral, amount.String()); err != nil {
		return err
	}
	a := e.account(addr)
	if derivatives {
		a.deriv[collateral] = a.deriv[collateral].Add(amount)
	} else {
		a.spot[collateral] = a.spot[collateral].Add(amount)
	}
	e.ledger.deposit(collateral, amount)
	e.noteDeposit(a, collateral, amount)
	return nil
}
