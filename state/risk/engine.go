package risk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"
)

// State is the account's trading state.
type State string

// The trading states.
const (
	Active   State = "ACTIVE"   // every order the limits allow
	Reducing State = "REDUCING" // a loss limit tripped: only orders that reduce a position, and cancels
	Halted   State = "HALTED"   // halted by the trader: only cancels
)

// Store keeps the engine's record between runs: *journal.Journal is one.
type Store interface {
	Value(ctx context.Context, k string) (string, bool, error)
	SetValue(ctx context.Context, k, v string) error
}

// storeKey is the record's key in the Store.
const storeKey = "risk"

// Pending is a loosening waiting for its delay.
type Pending struct {
	Value decimal.Decimal `json:"value"`
	From  time.Time       `json:"from"` // when it was asked for
	At    time.Time       `json:"at"`   // when it applies
}

// record is what the Store keeps.
type record struct {
	Day            string             `json:"day"` // the UTC day the marks are of
	Halted         bool               `json:"halted"`
	HaltWhy        string             `json:"halt_why,omitempty"`
	Tripped        string             `json:"tripped,omitempty"` // why REDUCING ("": not tripped)
	DayStartPnL    decimal.Decimal    `json:"day_start_pnl"`
	DayStartEquity decimal.Decimal    `json:"day_start_equity"`
	HWMSet         bool               `json:"hwm_set"`
	HWM            decimal.Decimal    `json:"hwm"` // cumulative PnL (realised, funding, fees, unrealised) at its highest
	HWMEquity      decimal.Decimal    `json:"hwm_equity"`
	Limits         Limits             `json:"limits,omitempty"` // the limits in force
	Pending        map[string]Pending `json:"pending,omitempty"`
	Seen           bool               `json:"seen"` // Limits were set once
}

// Engine enforces the limits; it is safe for concurrent use. Every method reads the record from
// the Store first, so a halt from another process (tradedesk risk halt) holds here at once.
type Engine struct {
	mu     sync.Mutex
	store  Store
	now    func() time.Time
	want   Limits
	rec    record
	tokens float64
	filled time.Time
	// raw is the record's text rec was decoded from ("": decode it at the next read); a read of
	// the same text keeps rec. steady: apply found nothing to move in rec with want, and no
	// loosening is pending (the only part of apply that depends on the clock).
	raw     string
	steady  bool
	decoded int // how many times the record was decoded
}

// New is the engine over store with the limits the trader asks for (want): tightenings apply at
// once, loosenings after the delay in force. now is the clock (nil: time.Now).
func New(ctx context.Context, store Store, want Limits, now func() time.Time) (*Engine, error) {
	if store == nil {
		return nil, errors.New("risk: no store for the trading state")
	}
	if now == nil {
		now = time.Now
	}
	for k, v := range want {
		if err := Check(k, v); err != nil {
			return nil, fmt.Errorf("[risk] %w", err)
		}
	}
	e := &Engine{store: store, now: now, want: want}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return nil, err
	}
	return e, e.apply(ctx, want)
}

// load reads the record: decoded again only when its text is not the one rec was decoded from,
// so a check decodes nothing while nothing changed, and sees at once what another process wrote.
func (e *Engine) load(ctx context.Context) error {
	v, ok, err := e.store.Value(ctx, storeKey)
	if err != nil {
		return fmt.Errorf("risk: %w", err)
	}
	if !ok || v == "" || v != e.raw {
		e.rec, e.raw, e.steady = record{}, "", false
		if ok {
			e.decoded++
			if err := json.Unmarshal([]byte(v), &e.rec); err != nil {
				return fmt.Errorf("risk: the journal's risk record: %w", err)
			}
			e.raw = v
		}
	}
	e.rollDay()
	return nil
}

// save writes the record. rec is decoded again at the next read, whether the write failed or not.
func (e *Engine) save(ctx context.Context) error {
	e.raw, e.steady = "", false
	b, err := json.Marshal(e.rec)
	if err != nil {
		return err
	}
	if err := e.store.SetValue(ctx, storeKey, string(b)); err != nil {
		return fmt.Errorf("risk: %w", err)
	}
	return nil
}

// day is the UTC day of now.
func (e *Engine) day() string { return e.now().UTC().Format(time.DateOnly) }

// rollDay starts a new UTC day: the day's marks are taken again and a tripped loss limit clears
// (a halt is the trader's, and stays).
func (e *Engine) rollDay() {
	if d := e.day(); e.rec.Day != d {
		e.rec.Day, e.rec.Tripped = d, ""
		e.rec.DayStartPnL, e.rec.DayStartEquity = decimal.Zero, decimal.Zero
	}
}

// State is the trading state and why it is not ACTIVE.
func (e *Engine) State(ctx context.Context) (State, string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return "", "", err
	}
	s, why := e.state()
	return s, why, nil
}

func (e *Engine) state() (State, string) {
	switch {
	case e.rec.Halted:
		return Halted, e.rec.HaltWhy
	case e.rec.Tripped != "":
		return Reducing, e.rec.Tripped
	}
	return Active, ""
}

// Halt stops every order but cancels until Resume.
func (e *Engine) Halt(ctx context.Context, why string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return err
	}
	if why == "" {
		why = "halted by the trader"
	}
	e.rec.Halted, e.rec.HaltWhy = true, why
	return e.save(ctx)
}

// Resume ends a halt; it is refused while a loss limit has tripped today.
func (e *Engine) Resume(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return err
	}
	if e.rec.Tripped != "" {
		return fmt.Errorf("not resumed: %s; trading stays reduced until the next UTC day", e.rec.Tripped)
	}
	e.rec.Halted, e.rec.HaltWhy = false, ""
	return e.save(ctx)
}

// SetLimits asks for new limits (a `:risk` command, a config reloaded): each tightening applies at
// once, each loosening after the delay in force, pending until then.
func (e *Engine) SetLimits(ctx context.Context, want Limits) error {
	for k, v := range want {
		if err := Check(k, v); err != nil {
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return err
	}
	e.want, e.steady = want, false
	return e.apply(ctx, want)
}

// apply moves the limits in force towards want and saves the record when that changed it. A
// record it left as it was, with no loosening pending, it leaves alone until the record changes.
func (e *Engine) apply(ctx context.Context, want Limits) error {
	if e.steady {
		return nil
	}
	before, _ := json.Marshal(e.rec)
	e.move(want)
	if after, _ := json.Marshal(e.rec); string(after) == string(before) {
		e.steady = e.raw != "" && len(e.rec.Pending) == 0
		return nil
	}
	return e.save(ctx)
}

// move moves the limits in force towards want: a tightening at once, a loosening once its delay
// has passed (pending until then).
func (e *Engine) move(want Limits) {
	now := e.now()
	if !e.rec.Seen {
		e.rec.Limits, e.rec.Seen = Limits{}, true
		for k, v := range want {
			e.rec.Limits[k] = v
		}
		return
	}
	if e.rec.Limits == nil {
		e.rec.Limits = Limits{}
	}
	if e.rec.Pending == nil {
		e.rec.Pending = map[string]Pending{}
	}
	delay := e.rec.Limits.Delay()
	names := map[string]bool{}
	for k := range want {
		names[k] = true
	}
	for k := range e.rec.Limits {
		names[k] = true
	}
	for k := range names {
		old, next := e.rec.Limits[k], want[k]
		if !looser(k, old, next) {
			e.rec.Limits[k] = next
			delete(e.rec.Pending, k)
			continue
		}
		p, ok := e.rec.Pending[k]
		if !ok || !p.Value.Equal(next) {
			p = Pending{Value: next, From: now, At: now.Add(delay)}
		}
		if !now.Before(p.At) {
			e.rec.Limits[k] = next
			delete(e.rec.Pending, k)
			continue
		}
		e.rec.Pending[k] = p
	}
}

// Limits are the limits in force and the loosenings pending.
func (e *Engine) Limits(ctx context.Context) (Limits, map[string]Pending, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		return nil, nil, err
	}
	if err := e.apply(ctx, e.want); err != nil {
		return nil, nil, err
	}
	l := Limits{}
	for k, v := range e.rec.Limits {
		l[k] = v
	}
	p := map[string]Pending{}
	for k, v := range e.rec.Pending {
		p[k] = v
	}
	return l, p, nil
}
