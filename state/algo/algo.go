// Package algo works orders for the trader on an exchange without amend: chase and scale (and
// the shared parts TWAP and trailing stop build on). It imports no Bubble Tea: the console and the
// headless commands run it alike.
//
// Every algorithm and its parameters are committed to the journal (journal.BeginAlgo) before it
// acts; every child carries the algorithm's first free child number (journal.FreeChild), which
// its intent takes in the journal's one commit before the signing, and goes out
// through the one executor (exec.Executor: the risk gate, the journal, a lookup by client id when
// an answer is lost) with the client id journal.ChildCloid(algorithm, n). What an algorithm has
// filled, its average and its fees are added up from the exchange's fills of its children, never
// from a working price. Resume rebuilds an algorithm from the journal and the exchange alone.
package algo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Executor is the one send path every child goes through: *exec.Executor.
type Executor interface {
	Check(st *state.Store, in state.OrderIntent) (exec.Checked, []state.FieldError)
	Place(ctx context.Context, c exec.Checked, ask exec.Ask) (exec.Result, error)
	PlaceBatch(ctx context.Context, cs []exec.Checked, ask exec.Ask) (exec.BatchResult, error)
	Cancel(ctx context.Context, c exec.Cancel, ask exec.Ask) (exec.Result, error)
}

// Market is what an algorithm reads of the market.
type Market interface {
	// Store is the instrument, market and account data a child is checked against, fresh
	// enough for the risk gate.
	Store(ctx context.Context, symbol string) (*state.Store, error)
	// OrderBook is the instrument's book: the best bid and ask.
	OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error)
}

// Reader finds the account's orders (by client id) and fills.
type Reader interface {
	api.OrderReader
	api.FillReader
}

// Deps is what every algorithm works with. Exec, Journal, Market, Read and Account are required.
type Deps struct {
	Exec    Executor
	Journal *journal.Journal
	Market  Market
	Read    Reader
	Account string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Poll is how often a chase looks at the quote and its child (0: 250 ms).
	Poll time.Duration
	// MinReprice is the least time between two reprices of one algorithm (0: 1 s).
	MinReprice time.Duration
	// FillWait bounds the wait for a finished child's fills to add up to what its order record
	// says filled (0: 5 s).
	FillWait time.Duration
	// Report is told the algorithm's progress after each step (nil: nobody).
	Report func(Progress)
	// Ended is told, once the journal has it, that algorithm id has ended (nil: nobody). The
	// report keeps the market of its interval then, while the exchange's short tape covers it.
	Ended func(id string)
	// Limits are the throttles shared with the process's other algorithms (nil: its own).
	Limits *Limits
	// PauseEvery is how often a running algorithm reads its state in the journal, to see a
	// pause or a resume asked by this process or another (0: 500 ms).
	PauseEvery time.Duration
	// Tape is the stream's records the algorithms read instead of polling while the stream is up
	// (shared with the process's other algorithms; nil: they poll).
	Tape *Tape
}

func (d *Deps) check() error {
	if d.Exec == nil || d.Journal == nil || d.Market == nil || d.Read == nil || d.Account == "" {
		return errors.New("algo: the executor, journal, market, reader and account are all needed")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Limits == nil {
		d.Limits = &Limits{}
	}
	def := func(v *time.Duration, x time.Duration) {
		if *v <= 0 {
			*v = x
		}
	}
	def(&d.Poll, 250*time.Millisecond)
	def(&d.MinReprice, time.Second)
	def(&d.FillWait, 5*time.Second)
	def(&d.PauseEvery, 500*time.Millisecond)
	d.share()
	return nil
}

// The states an algorithm ends in (journal.AlgoRunning until then).
const (
	StateDone      = "done"      // it did what it was asked: filled its target, or its orders rest
	StateExpired   = "expired"   // its time ran out before its target filled
	StateStopped   = "stopped"   // the trader stopped it
	StateCancelled = "cancelled" // on restart, its children were cancelled
	StateFlattened = "flattened" // on restart, its children were cancelled and what it opened closed
	StateFailed    = "failed"    // it could not go on; Detail says why
)

// ErrUnresolved stops an algorithm whose child's fate is not known (an answer lost and not yet
// found): nothing more is sent, and the algorithm stays running in the journal for a restart to
// resolve and resume.
var ErrUnresolved = errors.New("a child's outcome is not known yet: nothing more is sent; run again to resolve it and resume")

// Progress is what an algorithm has done, from its children's fills.
type Progress struct {
	ID         string          `json:"id"`
	Kind       string          `json:"kind"`
	Instrument string          `json:"instrument"`
	Side       string          `json:"side"`
	Target     decimal.Decimal `json:"target"`
	Filled     decimal.Decimal `json:"filled"`
	// AvgPrice is the size-weighted average of the fills (zero when nothing filled).
	AvgPrice decimal.Decimal `json:"avg_price"`
	Fee      decimal.Decimal `json:"fee"`
	// Arrival is the price when it started: the slippage is measured from it.
	Arrival decimal.Decimal `json:"arrival"`
	// Working is the live child's client id and price ("" when none).
	Working      string           `json:"working,omitempty"`
	WorkingPrice *decimal.Decimal `json:"working_price,omitempty"`
	WorkingSize  *decimal.Decimal `json:"working_size,omitempty"`
	Children     int              `json:"children"`
	Reprices     int              `json:"reprices"`
	// Slices is how many of a TWAP's slices were worked or skipped.
	Slices int    `json:"slices,omitempty"`
	State  string `json:"state"`
	Detail string `json:"detail,omitempty"`
}

// child is one order of an algorithm.
type child struct {
	cloid string
	oid   api.OrderID
	price decimal.Decimal
	size  decimal.Decimal
	// final: the order is off the book (filled, cancelled, rejected, or never placed); filled is
	// then what its record says filled, and fills what its fills add up to.
	final  bool
	filled decimal.Decimal
	fills  state.FillTotal
	// confirmed: the fills add up to filled.
	confirmed bool
	// state is its record's state (open, filled, cancelled, triggered); trigger its trigger price.
	state   string
	trigger decimal.Decimal
	// on is the stream connection the child was sent on (Tape.since; 0: the stream was down, or
	// the child was resumed): the tape is waited on for its records and fills only while that
	// connection is up, the stream having brought all of them.
	on uint64
}

// transient is a read that failed (the market, an order record, fills): the algorithm looks
// again at its next step.
type transient struct{ err error }

func (e transient) Error() string { return e.err.Error() }
func (e transient) Unwrap() error { return e.err }

// refusedError is a child the risk gate refused: nothing was sent.
type refusedError struct{ msg string }

func (e refusedError) Error() string { return e.msg }

// freeCloid is the algorithm's first child number not taken and its client id: the child's
// intent takes the number when the executor writes it (exec.Ask.Numbers), so a child refused
// before that leaves it free.
func (d *Deps) freeCloid(ctx context.Context, id string) (int, string, error) {
	n, err := d.Journal.FreeChild(ctx, id)
	if err != nil {
		return 0, "", err
	}
	cloid, err := journal.ChildCloid(id, n)
	return n, cloid, err
}

// place checks and sends one child of algorithm id through the executor, and reads what became
// of it from its order record: live (it rests) or final with what it filled.
func (d *Deps) place(ctx context.Context, id string, in state.OrderIntent, what string) (*child, error) {
	st, err := d.childStore(ctx, in)
	if err != nil {
		return nil, transient{err}
	}
	n, cloid, err := d.freeCloid(ctx, id)
	if err != nil {
		return nil, err
	}
	in.Cloid = cloid
	c, errs := d.Exec.Check(st, in)
	if len(errs) > 0 { // nothing written: the number stays free, and there is no child
		d.Tape.ForgetLeverage(instrumentName(st, in.Instrument))
		return nil, refusedError{fmt.Sprintf("child %s refused by the check: %v", cloid, errs)}
	}
	if err := d.Limits.wait(ctx); err != nil {
		return nil, err
	}
	// From here a stop (ctx ending) no longer cuts the child off: its send, the lookup by client
	// id of an answer lost, and its first record run to their own bounded ends, so the stop that
	// follows finds the child known and cancels it, not unresolved and left live.
	ctx = context.WithoutCancel(ctx)
	ch := &child{cloid: cloid, final: true, price: c.Order().Price, size: c.Order().Size, on: d.Tape.since()}
	ask := exec.Ask{Who: journal.WhoAlgorithm, What: what, Confirmed: true, Parent: id, Numbers: journal.Numbers{From: n, To: n}}
	if d.Tape != nil {
		ask.Records = sentOn{d.Tape, ch.on} // the child's record and fills, settled from the stream when it has them
	}
	res, err := d.Exec.Place(ctx, c, ask)
	d.Limits.reads.drop()
	if err != nil {
		return ch, err
	}
	if !res.Settled() {
		ch.final = false
		return ch, ErrUnresolved
	}
	if res.Kind == exec.Refused || res.Outcome.Oid == 0 {
		d.Tape.ForgetLeverage(instrumentName(st, in.Instrument)) // a setting it was checked with may be stale
	}
	if res.Kind == exec.Refused {
		// The trader's limits (or the trading state) refused it, nothing sent: the algorithm
		// stops, failed, saying which limit, rather than trying again into the same wall.
		return ch, fmt.Errorf("child %s %s", cloid, res.Reason)
	}
	if res.Outcome.Oid == 0 {
		return ch, nil // rejected or never placed: its size goes back to the algorithm
	}
	// Placed: live until its record says it is off the book. An IOC's is final at once: its
	// lookup waits for that on the tape, a resting child's for its first record.
	ch.oid, ch.final = res.Outcome.Oid, false
	d.awaitRecord(ctx, ch, in.Tif == "IOC")
	return ch, d.lookup(ctx, ch)
}

// lookup reads a child's order record: open, it is live; otherwise it is final with what the
// record says filled, and its fills are added up.
func (d *Deps) lookup(ctx context.Context, ch *child) error { return d.lookupRec(ctx, ch, true) }

// lookupFinal is lookup after a cancel: the tape's record is taken only when it is final (an open
// one may be from before the cancel), else the record is read from the exchange.
func (d *Deps) lookupFinal(ctx context.Context, ch *child) error { return d.lookupRec(ctx, ch, false) }

func (d *Deps) lookupRec(ctx context.Context, ch *child, open bool) error {
	rec, err := d.record(ctx, ch.cloid, open)
	if err != nil {
		return transient{err}
	}
	if rec == nil {
		return transient{fmt.Errorf("child %s is not found at the exchange", ch.cloid)}
	}
	ch.oid, ch.price, ch.size, ch.state = rec.OrderID, rec.LimitPrice, rec.Size, rec.State
	if rec.TriggerPx.Valid {
		ch.trigger = rec.TriggerPx.Decimal
	}
	if rec.State == api.StateOpen {
		ch.final = false
		return nil
	}
	ch.final, ch.filled = true, rec.Size.Sub(rec.Unfilled)
	return d.confirmFills(ctx, ch)
}

// confirmFills waits, within FillWait, for a final child's fills to add up to what its record
// says filled.
func (d *Deps) confirmFills(ctx context.Context, ch *child) error {
	if ch.confirmed || !ch.final {
		return nil
	}
	if !ch.filled.IsPositive() {
		ch.confirmed = true
		return nil
	}
	if d.Tape != nil && d.Tape.await(ctx, ch.on, func() bool { n, _ := d.Tape.fillsOf(ch.oid); return n.GreaterThanOrEqual(ch.filled) }) {
		_, fs := d.Tape.fillsOf(ch.oid)
		ch.fills, ch.confirmed = state.SumFills(fs)[0], true
		return nil
	}
	deadline := d.Now().Add(d.FillWait)
	for {
		fs, err := d.fillsOf(ctx, map[api.OrderID]bool{ch.oid: true})
		if err == nil && fs[ch.oid].Size.GreaterThanOrEqual(ch.filled) {
			ch.fills, ch.confirmed = fs[ch.oid], true
			return nil
		}
		if d.Now().After(deadline) {
			return transient{fmt.Errorf("child %s: its record says %s filled and its fills do not show it yet", ch.cloid, ch.filled)}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d.Poll):
		}
	}
}

// record is a child's order record: the tape's when it holds a current one (an open one only when
// open is true), else read from the exchange by client id, and then kept on the tape.
func (d *Deps) record(ctx context.Context, cloid string, open bool) (*api.OrderRecord, error) {
	var version int
	if d.Tape != nil {
		rec, v, ok := d.Tape.order(cloid)
		if ok && (open || rec.State != api.StateOpen) {
			return &rec, nil
		}
		version = v
	}
	rec, err := api.FindCloid(ctx, d.Read, d.Account, cloid)
	if err == nil && rec != nil && d.Tape != nil {
		d.Tape.learn(*rec, version)
	}
	return rec, err
}

// awaitRecord waits, within the tape's Wait, for the stream to bring child ch's record (a final
// one when final), so that the lookup that follows reads the tape; only while the stream is on
// the connection the child was sent on (see Tape.await).
func (d *Deps) awaitRecord(ctx context.Context, ch *child, final bool) {
	if d.Tape == nil {
		return
	}
	d.Tape.await(ctx, ch.on, func() bool {
		rec, _, ok := d.Tape.order(ch.cloid)
		return ok && (!final || rec.State != api.StateOpen)
	})
}

// best is the instrument's best bid and ask: the stream's quote while it is current, else the
// book's.
func (d *Deps) best(ctx context.Context, symbol string) (bid, ask decimal.Decimal, err error) {
	if d.Tape != nil {
		if bid, ask, ok := d.Tape.quote(symbol); ok {
			return bid, ask, nil
		}
	}
	return bestOf(ctx, d.Market, symbol)
}

// confirmAll confirms the fills of every final child not confirmed yet.
func (d *Deps) confirmAll(ctx context.Context, children []*child) error {
	for _, c := range children {
		if err := d.confirmFills(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// fillPages bounds how many pages of fills are read to find an algorithm's.
const fillPages = 20

// fillsOf adds up the account's fills of the given orders, newest pages first.
func (d *Deps) fillsOf(ctx context.Context, oids map[api.OrderID]bool) (map[api.OrderID]state.FillTotal, error) {
	var mine []api.Fill
	found := map[api.OrderID]bool{}
	for page := 1; page <= fillPages; page++ {
		pg, err := d.Read.Fills(ctx, d.Account, api.PageParams{Page: page, Limit: 100})
		if err != nil {
			return nil, err
		}
		for _, f := range pg.Data {
			if oids[f.OrderID] {
				mine = append(mine, f)
				found[f.OrderID] = true
			}
		}
		if !pg.HasNext || len(pg.Data) == 0 {
			break
		}
	}
	out := map[api.OrderID]state.FillTotal{}
	for _, t := range state.SumFills(mine) {
		out[t.OrderID] = t
	}
	return out, nil
}

// total adds up the final children's fills: size, average price and fees.
func total(children []*child) (filled, avg, fee decimal.Decimal) {
	var cost decimal.Decimal
	for _, c := range children {
		if c.final {
			filled = filled.Add(c.fills.Size)
			cost = cost.Add(c.fills.Size.Mul(c.fills.AvgPrice))
			fee = fee.Add(c.fills.Fee)
		}
	}
	if filled.IsPositive() {
		avg = cost.Div(filled)
	}
	return filled, avg, fee
}

// committed is what the final children's order records say filled: the remainder is computed
// from it, so a fill whose record is final is never bought twice.
func committed(children []*child) decimal.Decimal {
	var n decimal.Decimal
	for _, c := range children {
		if c.final {
			n = n.Add(c.filled)
		}
	}
	return n
}

// setEnded records in the journal that algorithm id ended in state st, then tells Ended.
func (d *Deps) setEnded(ctx context.Context, id, st, detail string) error {
	if err := d.Journal.SetAlgo(ctx, id, st, detail); err != nil {
		return err
	}
	if d.Ended != nil {
		d.Ended(id)
	}
	return nil
}

// finish is how a chase, a TWAP and a trail end with their last progress p: its end recorded in
// the journal (setEnded, with its summary), then reported, and a failure's detail returned as
// the error.
func (d *Deps) finish(ctx context.Context, p Progress) (Progress, error) {
	if err := d.setEnded(ctx, p.ID, p.State, summary(p)); err != nil {
		return p, err
	}
	if d.Report != nil {
		d.Report(p)
	}
	if p.State == StateFailed {
		return p, errors.New(p.Detail)
	}
	return p, nil
}

// endOf is how a run ends on a step's error err: stopped when the trader's stop (ctx) came while
// the step was reading or writing (its error is then only the cancelled context), else failed
// with err as the reason.
func endOf(ctx context.Context, err error, note string) (st, detail string) {
	if ctx.Err() != nil {
		return StateStopped, note
	}
	return StateFailed, err.Error()
}
