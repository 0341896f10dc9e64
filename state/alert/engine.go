package alert

import (
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// Event is one fired alert: what the front ends show, the on_alert command reads on stdin and the
// webhook receives. Every text in it is sanitised (text.Clean) and none holds a key.
type Event struct {
	ID         string    `json:"id"`
	Kind       Kind      `json:"kind"`
	Instrument string    `json:"instrument,omitempty"`
	Value      string    `json:"value"`
	Threshold  string    `json:"threshold"`
	Time       time.Time `json:"time"`
	Rule       string    `json:"rule"`
	Text       string    `json:"text"`             // one line for a person
	Source     string    `json:"source,omitempty"` // liq: where the liquidation price came from
}

// Link is the connection as the front end's feed sees it (feed.Conn).
type Link struct {
	HasStream  bool // a stream source is configured
	StreamUp   bool
	ExchangeUp bool // the heartbeat's last request succeeded (or none has failed yet)
}

// Status is one rule as the Alerts view and `tradedesk alert list` show it.
type Status struct {
	Rule
	Armed     bool      // it would fire on its condition now
	Cooling   bool      // delivered within its cool-down
	Done      bool      // a one-shot rule that fired
	LastFired time.Time // zero: never (in this process)
	Fired     int
}

// Engine evaluates rules against the store. It is safe for concurrent use.
type Engine struct {
	mu       sync.Mutex
	rules    []*tracked
	orders   orderWatch
	payments paymentWatch
	moves    map[string]*samples // instrument -> its recent marks, for move rules
	down     map[string]time.Time
}

// tracked is one rule and its state.
type tracked struct {
	Rule
	inst      string // resolved instrument ("" until the instruments are known)
	seen      bool   // a value has been read
	armed     bool
	back      int // checks in a row on the quiet side since it fired
	done      bool
	delivered time.Time
	lastFired time.Time
	fired     int
	rearmAt   decimal.Decimal // the value past which it re-arms
}

// New returns an engine with no rules.
func New() *Engine {
	return &Engine{moves: map[string]*samples{}, down: map[string]time.Time{}, orders: newOrderWatch()}
}

// Set replaces the rules; a rule kept (same ID) keeps its state.
func (e *Engine) Set(rules []Rule) {
	e.mu.Lock()
	defer e.mu.Unlock()
	old := e.rules
	e.rules = e.rules[:0:0]
	for _, r := range rules {
		if i := slices.IndexFunc(old, func(t *tracked) bool { return t.ID == r.ID }); i >= 0 {
			e.rules = append(e.rules, old[i])
			continue
		}
		e.rules = append(e.rules, newTracked(r))
	}
}

// Add adds one rule (a rule with the same ID is replaced, its state kept).
func (e *Engine) Add(r Rule) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if i := slices.IndexFunc(e.rules, func(t *tracked) bool { return t.ID == r.ID }); i >= 0 {
		return
	}
	e.rules = append(e.rules, newTracked(r))
}

// Remove removes the rule with id, reporting whether there was one.
func (e *Engine) Remove(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(e.rules)
	e.rules = slices.DeleteFunc(e.rules, func(t *tracked) bool { return t.ID == id })
	return len(e.rules) < n
}

func newTracked(r Rule) *tracked {
	if r.ID == "" {
		r.ID = StableID(r)
	}
	t := &tracked{Rule: r}
	m := r.Rearm
	if !m.IsPositive() {
		m = defaultRearm(r.Kind)
	}
	band := r.Level.Abs().Mul(m)
	if r.Op == Above {
		t.rearmAt = r.Level.Sub(band)
	} else {
		t.rearmAt = r.Level.Add(band)
	}
	return t
}

// Rules returns every rule's status at now.
func (e *Engine) Rules(now time.Time) []Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Status, 0, len(e.rules))
	for _, t := range e.rules {
		out = append(out, Status{Rule: t.Rule, Armed: t.armed && !t.done, Cooling: t.cooling(now),
			Done: t.done, LastFired: t.lastFired, Fired: t.fired})
	}
	return out
}

// Delivered records that the alert ev was delivered at: its rule's cool-down starts then. An
// alert that reached no one starts none.
func (e *Engine) Delivered(ev Event, at time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, t := range e.rules {
		if t.ID == ev.ID {
			t.delivered = at
		}
	}
}

func (t *tracked) cooldown() time.Duration {
	if t.Cooldown == 0 {
		return DefaultCooldown
	}
	return max(t.Cooldown, 0)
}

func (t *tracked) cooling(now time.Time) bool {
	return !t.delivered.IsZero() && now.Sub(t.delivered) < t.cooldown()
}

// Check evaluates the rules after msgs were applied to s at now, and returns the alerts that fire,
// in rule order (order events in the order they happened). Only the rules a message's kind can
// move are read; down rules are read on every check.
func (e *Engine) Check(now time.Time, s *state.Store, link Link, msgs ...state.Msg) []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var touched kinds
	for _, m := range msgs {
		if m != nil {
			touched.add(m.Kind())
		}
	}
	var out []Event
	if touched.has(state.KindOrders) || touched.has(state.KindFills) || touched.has(state.KindHistory) {
		out = e.orderEvents(now, s, msgs, out)
	}
	if touched.has(state.KindFunding) {
		out = e.paymentEvents(now, s, msgs, out)
	}
	if touched.has(state.KindTickers) || touched.has(state.KindMids) {
		e.sampleMoves(now, s)
	}
	e.noteLink(now, link)
	for _, t := range e.rules {
		if t.done || !touched.moves(t.Kind) {
			continue
		}
		v, ev, ok := e.value(t, now, s)
		if !ok {
			continue
		}
		if t.step(v, now) {
			out = append(out, t.event(ev, v, now))
		}
	}
	return out
}

// step moves t's state by one reading v and reports whether it fires.
func (t *tracked) step(v decimal.Decimal, now time.Time) bool {
	met := t.met(v)
	if !t.seen {
		t.seen = true
		// Liquidation and margin rules re-assert at start; the others wait for a crossing.
		t.armed = !met || t.Kind == KindLiq || t.Kind == KindMargin
	}
	if t.armed {
		if !met || t.cooling(now) {
			return false
		}
		t.armed, t.back = false, 0
		t.lastFired, t.fired, t.done = now, t.fired+1, t.Once
		return true
	}
	switch {
	case t.pastRearm(v):
		t.armed, t.back = true, 0
	case met:
		t.back = 0
	default:
		if t.back++; t.back >= RearmChecks {
			t.armed, t.back = true, 0
		}
	}
	return false
}

func (t *tracked) met(v decimal.Decimal) bool {
	if t.Op == Below {
		return v.LessThan(t.Level)
	}
	return v.GreaterThan(t.Level)
}

func (t *tracked) pastRearm(v decimal.Decimal) bool {
	if t.Op == Below {
		return v.GreaterThanOrEqual(t.rearmAt)
	}
	return v.LessThanOrEqual(t.rearmAt)
}

// reading is what a rule read beside its value: the instrument and the liquidation source.
type reading struct {
	inst   string
	source string
}

func (t *tracked) event(r reading, v decimal.Decimal, now time.Time) Event {
	safe := func(s string) string { return text.HideKeys(text.Clean(s)) }
	ev := Event{ID: t.ID, Kind: t.Kind, Instrument: safe(r.inst), Value: v.String(),
		Threshold: t.Level.String(), Time: now.UTC(), Rule: safe(t.Canon()), Source: r.source}
	ev.Text = describe(ev, t.Rule)
	return ev
}

// kinds is a small set of store kinds.
type kinds uint64

func (k *kinds) add(x state.Kind) {
	if x >= 0 && x < 64 {
		*k |= 1 << uint(x)
	}
}

func (k kinds) has(x state.Kind) bool { return x >= 0 && x < 64 && k&(1<<uint(x)) != 0 }

// moves reports whether a change to these kinds can move a rule of kind r.
func (k kinds) moves(r Kind) bool {
	switch r {
	case KindPrice, KindMove:
		return k.has(state.KindTickers) || k.has(state.KindMids)
	case KindFunding:
		return k.has(state.KindTickers)
	case KindLiq:
		return k.has(state.KindTickers) || k.has(state.KindPositions) || k.has(state.KindAccount)
	case KindMargin:
		return k.has(state.KindAccount)
	case KindDown:
		return true
	}
	return false
}
