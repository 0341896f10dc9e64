package algo

import (
	"context"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Tape is what the exchange's stream has said of the market and the account, kept for the
// algorithms of one process (give the same *Tape to every Deps), so that their steps read it
// instead of polling the exchange: a chase's quote, a child's order record and a child's fills,
// and the account and market state a child's risk check reads (ApplyTo).
// Streaming is the route, polling the fallback: while the stream is down, or the tape has not
// heard of what is asked, an algorithm reads the exchange as it would without a tape.
//
// The front end hands the tape every record the stream brings (Put), from the one stream it
// already keeps (the console's) or one of its own (a headless command: Topics are what to
// subscribe), and the stream's status (NewTape's status, read as the tape is asked).
//
// What the tape answers keeps the exactly-once rules. An order record off the book is final
// whichever route brought it (an order never comes back to the book); a child the tape says is
// open is believed only while the stream that said so is still the connection up, and at most
// Recheck, then its record is read from the exchange; a child's fills are taken from the tape
// only once they add up to what its final record says filled (fills are facts, counted once each
// by trade). A reprice still waits for a definitive answer: the cancelled child's final record,
// streamed or read.
type Tape struct {
	status func() api.StreamStatus
	// QuoteAge is how old a streamed quote may be and still price a child (0: 10 s); an older one
	// is read from the book.
	QuoteAge time.Duration
	// Recheck is how long a streamed open order record stands for its order before the exchange
	// is read again (0: 30 s).
	Recheck time.Duration
	// Wait is how long a step waits for the stream to bring what it is about to ask the exchange
	// (a new child's record, a cancelled child's final one, a final child's fills) (0: 1 s).
	Wait time.Duration

	mu      sync.Mutex
	quotes  map[string]quote
	orders  map[string]*taped
	fills   map[api.OrderID]*tapedFills
	state   tapeState
	changed chan struct{} // closed by the next Put, for await (nil: nobody waits)
	puts    int
}

// quote is a streamed best bid and ask.
type quote struct {
	bid, ask decimal.Decimal
	at       time.Time
	epoch    uint64
}

// taped is an order's latest record on the tape: seen when it came (or was read), on which
// connection (epoch, up), and its version (how many records of it came).
type taped struct {
	rec     api.OrderRecord
	seen    time.Time
	epoch   uint64
	up      bool
	version int
}

// tapedFills are an order's streamed fills, each once by trade.
type tapedFills struct {
	by   map[api.TradeID]api.Fill
	seen time.Time
}

// NewTape is an empty tape; status is the stream's status (api.Stream.Status).
func NewTape(status func() api.StreamStatus) *Tape {
	return &Tape{status: status, quotes: map[string]quote{}, orders: map[string]*taped{}, fills: map[api.OrderID]*tapedFills{}}
}

// Topics are the stream topics the tape reads, for a front end whose stream is its own: every
// instrument's ticker (the quotes) and mid, and the account's orders, fills, positions and summary.
func Topics(user string) []api.Topic {
	ts := []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}, {Channel: api.ChanMids, Symbol: "all"}}
	for _, ch := range []string{api.ChanOrders, api.ChanFills, api.ChanPositions, api.ChanAccount} {
		ts = append(ts, api.Topic{Channel: ch, User: user})
	}
	return ts
}

// Follow hands the tape every record of stream s until ctx ends, for a front end whose stream is
// the tape's alone (a headless command's); the console's stream is drained by its feed, which
// calls Put.
func (t *Tape) Follow(ctx context.Context, s *api.Stream) {
	in := s.Inbox()
	for {
		select {
		case <-ctx.Done():
			return
		case <-in.Ready():
		}
		b := in.Drain()
		t.Put(b.Events...)
	}
}

func (t *Tape) quoteAge() time.Duration { return orDefault(t.QuoteAge, 10*time.Second) }
func (t *Tape) recheck() time.Duration  { return orDefault(t.Recheck, 30*time.Second) }
func (t *Tape) wait() time.Duration     { return orDefault(t.Wait, time.Second) }

func orDefault(v, d time.Duration) time.Duration {
	if v <= 0 {
		return d
	}
	return v
}

// tapeKeep is how long an order's record and fills stay on the tape once nothing more is heard of
// them, when the tape holds more than tapeMost orders. A stream that brings more than tapeSymbols
// instruments, or tapeOrders orders or orders' fills (a hostile server making them up), has the
// rest left out: what is not on the tape is read from the exchange.
const (
	tapeKeep    = 10 * time.Minute
	tapeMost    = 4096
	tapeOrders  = 4 * tapeMost
	tapeSymbols = 10000
)

// Put takes records the stream brought: tickers (quotes), mids, the account summary, the
// positions, order records and fills; the rest are left to the front end.
func (t *Tape) Put(evs ...api.StreamEvent) {
	if len(evs) == 0 {
		return
	}
	st, now := t.status(), time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, ev := range evs {
		t.putState(ev, st, now)
		switch d := ev.Data.(type) {
		case *api.Ticker:
			if _, known := t.quotes[d.Symbol]; (known || len(t.quotes) < tapeSymbols) && d.BestBidPrice.IsPositive() && d.BestAskPrice.IsPositive() {
				t.quotes[d.Symbol] = quote{bid: d.BestBidPrice, ask: d.BestAskPrice, at: now, epoch: st.Epoch}
			}
		case *api.OrderRecord:
			t.putOrder(*d, now, st, true)
		case *api.Fill:
			f := t.fills[d.OrderID]
			if f == nil && len(t.fills) >= tapeOrders {
				continue
			}
			if f == nil {
				f = &tapedFills{by: map[api.TradeID]api.Fill{}}
				t.fills[d.OrderID] = f
			}
			f.by[d.TradeID], f.seen = *d, now
		}
	}
	t.puts++
	if t.puts%256 == 0 && len(t.orders)+len(t.fills) > tapeMost {
		t.prune(now)
	}
	if t.changed != nil { // someone waits (await)
		close(t.changed)
		t.changed = nil
	}
}

// putOrder keeps an order's record (under mu): a final one is never replaced by an open one, and
// a streamed one counts a new version.
func (t *Tape) putOrder(rec api.OrderRecord, now time.Time, st api.StreamStatus, streamed bool) {
	if rec.Cloid == "" {
		return
	}
	o := t.orders[rec.Cloid]
	if o == nil && len(t.orders) >= tapeOrders {
		return
	}
	if o == nil {
		o = &taped{}
		t.orders[rec.Cloid] = o
	} else if o.rec.State != api.StateOpen && rec.State == api.StateOpen && o.rec.State != "" {
		return
	}
	o.rec, o.seen, o.epoch, o.up = rec, now, st.Epoch, st.Up
	if streamed {
		o.version++
	}
}

// prune forgets what nothing was heard of for tapeKeep (under mu).
func (t *Tape) prune(now time.Time) {
	for k, o := range t.orders {
		if now.Sub(o.seen) > tapeKeep {
			delete(t.orders, k)
		}
	}
	for k, f := range t.fills {
		if now.Sub(f.seen) > tapeKeep {
			delete(t.fills, k)
		}
	}
}

// Up reports whether the stream is up now.
func (t *Tape) Up() bool { return t.status().Up }

// quote is symbol's streamed best bid and ask, when the stream is up on the connection that
// brought it and it is at most QuoteAge old.
func (t *Tape) quote(symbol string) (bid, ask decimal.Decimal, ok bool) {
	st := t.status()
	t.mu.Lock()
	defer t.mu.Unlock()
	q, found := t.quotes[symbol]
	if !found || !st.Up || q.epoch != st.Epoch || time.Since(q.at) > t.quoteAge() {
		return bid, ask, false
	}
	return q.bid, q.ask, true
}

// order is cloid's record as the tape has it: a final one always; an open one while the stream
// that said so is up and for at most Recheck since it was heard. version is the record's version
// on the tape (see learn).
func (t *Tape) order(cloid string) (rec api.OrderRecord, version int, ok bool) {
	st := t.status()
	t.mu.Lock()
	defer t.mu.Unlock()
	o := t.orders[cloid]
	if o == nil {
		return rec, 0, false
	}
	if o.rec.State != api.StateOpen {
		return o.rec, o.version, true
	}
	current := st.Up && o.up && o.epoch == st.Epoch && time.Since(o.seen) <= t.recheck()
	return o.rec, o.version, current
}

// learn keeps a record read from the exchange, so that later steps read the tape: only while the
// stream is up, and only when no streamed record of the order came since the read began (version
// is what order said then), so an older read never hides a newer streamed change.
func (t *Tape) learn(rec api.OrderRecord, version int) {
	st := t.status()
	if !st.Up {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if o := t.orders[rec.Cloid]; o != nil && o.version != version {
		return
	}
	t.putOrder(rec, time.Now(), st, false)
}

// fillsOf is the tape's total of order oid's fills.
func (t *Tape) fillsOf(oid api.OrderID) (size decimal.Decimal, all []api.Fill) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.fills[oid]
	if f == nil {
		return size, nil
	}
	for _, x := range f.by {
		size = size.Add(x.Size)
		all = append(all, x)
	}
	return size, all
}

// since is the stream connection (its epoch) up now, 0 while the stream is down: what the
// exchange does from now on to the account's orders the stream brings while that connection
// stays up. Take it before sending an order, for the waits on its records (await).
func (t *Tape) since() uint64 {
	if t == nil {
		return 0
	}
	if st := t.status(); st.Up {
		return st.Epoch
	}
	return 0
}

// await waits, at most Wait and while the stream is up on connection on (since), until ok holds,
// looking again at each record the tape takes; it reports whether ok held. It waits only for
// what happened to an order sent while that connection was up: the orders and fills channels
// bring what changes after their subscription, not the orders the exchange already had, so the
// record of an order sent before the connection came up (on 0, or another connection) may never
// come, and is read from the exchange at once.
func (t *Tape) await(ctx context.Context, on uint64, ok func() bool) bool {
	if on == 0 || t.since() != on {
		return ok()
	}
	deadline := time.NewTimer(t.wait())
	defer deadline.Stop()
	for {
		t.mu.Lock()
		if t.changed == nil {
			t.changed = make(chan struct{})
		}
		ch := t.changed
		t.mu.Unlock()
		if ok() {
			return true
		}
		if t.since() != on {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return ok()
		case <-ch:
		}
	}
}

// Settled implements exec.Records: cloid's record (order oid) and its fills when the tape holds
// them and they agree, the record final or open on the connection up (order's rules) and the
// fills adding up to exactly what it says filled; it waits up to Wait, while the stream stays on
// the connection up now, for them to come (a new child's first record, its fills). A child's
// placement reads the tape as sentOn: it waits only when the child was sent on that connection.
func (t *Tape) Settled(ctx context.Context, cloid string, oid api.OrderID) (api.OrderRecord, []api.Fill, bool) {
	return t.settled(ctx, t.since(), cloid, oid)
}

// sentOn is the tape as the records (exec.Records) of an order sent while the stream was on
// connection on (since, taken before the send).
type sentOn struct {
	t  *Tape
	on uint64
}

func (s sentOn) Settled(ctx context.Context, cloid string, oid api.OrderID) (api.OrderRecord, []api.Fill, bool) {
	return s.t.settled(ctx, s.on, cloid, oid)
}

func (t *Tape) settled(ctx context.Context, on uint64, cloid string, oid api.OrderID) (api.OrderRecord, []api.Fill, bool) {
	if !t.Up() {
		return api.OrderRecord{}, nil, false
	}
	var rec api.OrderRecord
	var fills []api.Fill
	ok := t.await(ctx, on, func() bool {
		r, _, ok := t.order(cloid)
		if !ok || r.OrderID != oid {
			return false
		}
		size, all := t.fillsOf(oid)
		if !size.Equal(r.Size.Sub(r.Unfilled)) {
			return false
		}
		rec, fills = r, all
		return true
	})
	return rec, fills, ok
}
