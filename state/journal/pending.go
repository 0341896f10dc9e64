package journal

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"modernc.org/sqlite"
)

// Pending is an intent checked but not yet in the file. It is written once, in one transaction
// (one fsync) with what goes with it: by Sent, with its arrivals and its signing, before the
// request is signed; or by Settle, with its outcome, when it was never signed. A process that dies
// before Sent leaves nothing, and sent nothing.
type Pending struct {
	j        *Journal
	in       Intent
	arrivals []idArrival
	mu       sync.Mutex
	written  bool
}

type idArrival struct {
	id string
	a  Arrival
}

// Prepare checks intent in (its id, a new UUID when empty, must be a client id the journal has
// not held, and its child numbers free: ErrUsedID) and returns it pending, unwritten.
func (j *Journal) Prepare(ctx context.Context, in Intent) (*Pending, error) {
	if err := checkIntent(&in); err != nil {
		return nil, err
	}
	var n int
	if err := j.stmts.used.QueryRowContext(ctx, in.ID).Scan(&n); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if n > 0 {
		return nil, fmt.Errorf("journal: intent %s: %w", in.ID, ErrUsedID)
	}
	if in.Numbers.From > 0 {
		free, err := j.FreeChild(ctx, in.Parent)
		if err != nil {
			return nil, err
		}
		if in.Numbers.From < free {
			return nil, fmt.Errorf("journal: intent %s: child %d of algorithm %s was taken before: %w", in.ID, in.Numbers.From, text.Quote(in.Parent), ErrUsedID)
		}
	}
	return &Pending{j: j, in: in}, nil
}

// checkIntent gives in a new UUID when it has no id and checks what every intent needs: a valid
// client id, its kind and who asked.
func checkIntent(in *Intent) error {
	if in.ID == "" {
		in.ID = newID()
	}
	if err := api.CheckCloid(in.ID); err != nil {
		return fmt.Errorf("journal: intent id: %w", err)
	}
	if in.Kind == "" || in.Who == "" {
		return errors.New("journal: an intent needs its kind and who asked")
	}
	if n := in.Numbers; n != (Numbers{}) && (n.From < 1 || n.To < n.From || in.Parent == "") {
		return fmt.Errorf("journal: intent %s: child numbers %d to %d of algorithm %s: they count from 1, up, of a parent", text.Quote(in.ID), n.From, n.To, text.Quote(in.Parent))
	}
	return nil
}

// ID is the pending intent's id.
func (p *Pending) ID() string { return p.in.ID }

// Arrive adds the arrival of order id (one of the intent's client ids), written with the intent.
func (p *Pending) Arrive(id string, a Arrival) {
	if a.At.IsZero() {
		a.At = p.j.now()
	}
	p.mu.Lock()
	p.arrivals = append(p.arrivals, idArrival{id, a})
	p.mu.Unlock()
}

// Written reports whether the intent is in the file.
func (p *Pending) Written() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.written
}

// Sent commits, before the action is signed, the intent as sent with s, and its arrivals: one
// transaction. An intent is sent once: a second Sent fails, as does an id another intent took
// meanwhile (ErrUsedID).
func (p *Pending) Sent(ctx context.Context, s api.Signing) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.written {
		return fmt.Errorf("journal: intent %s is not new (signed before): it is not signed", text.Quote(p.in.ID))
	}
	err := p.j.inTx(ctx, func(tx *sql.Tx) error {
		if err := p.insert(ctx, tx, StateSent, s); err != nil {
			return err
		}
		return p.insertArrivals(ctx, tx)
	})
	if err != nil {
		return err
	}
	p.written = true
	return nil
}

// Settle records what became of the intent: written already, as Journal.Outcome; never signed,
// the intent (new), its arrivals and its outcome in one transaction.
func (p *Pending) Settle(ctx context.Context, o Outcome) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.written {
		return p.j.Outcome(ctx, p.in.ID, o)
	}
	err := p.j.inTx(ctx, func(tx *sql.Tx) error {
		if err := p.insert(ctx, tx, StateNew, api.Signing{}); err != nil {
			return err
		}
		if err := p.insertArrivals(ctx, tx); err != nil {
			return err
		}
		_, err := tx.StmtContext(ctx, p.j.stmts.outcome).ExecContext(ctx, o.Kind, o.Settled, int64(o.Oid), text.HideKeys(o.Detail), p.j.now().UnixMilli(), p.in.ID)
		return err
	})
	if err != nil {
		return false, err
	}
	p.written = true
	return true, nil
}

// insert writes the intent in state st (its signing s when sent).
func (p *Pending) insert(ctx context.Context, tx *sql.Tx, st State, s api.Signing) error {
	in := p.in
	cloids, _ := json.Marshal(orEmpty(in.Cloids))
	now := p.j.now().UnixMilli()
	var sentMs int64
	if st == StateSent {
		sentMs = now
	}
	_, err := tx.StmtContext(ctx, p.j.stmts.insert).ExecContext(ctx, in.ID, in.Parent, in.Kind, string(in.Who), text.HideKeys(in.What), string(cloids), string(st), now,
		s.Action, int64(s.Nonce), int64(s.ExpiresAfter), text.HideKeys(string(s.Data)), sentMs)
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return fmt.Errorf("journal: intent %s: %w", in.ID, ErrUsedID)
	}
	if err != nil {
		return err
	}
	return p.j.takeNumbers(ctx, tx, in)
}

// takeNumbers takes the child numbers intent in carries (none: nothing), in its transaction tx:
// only when the algorithm took none of them before.
func (j *Journal) takeNumbers(ctx context.Context, tx *sql.Tx, in Intent) error {
	n := in.Numbers
	if n == (Numbers{}) {
		return nil
	}
	res, err := tx.StmtContext(ctx, j.stmts.take).ExecContext(ctx, n.To, j.now().UnixMilli(), in.Parent, n.From)
	if err != nil {
		return err
	}
	if k, err := res.RowsAffected(); err != nil || k != 1 {
		return fmt.Errorf("journal: intent %s: child %d of algorithm %s was taken before, or there is no such algorithm: %w", in.ID, n.From, text.Quote(in.Parent), ErrUsedID)
	}
	return nil
}

func (p *Pending) insertArrivals(ctx context.Context, tx *sql.Tx) error {
	st := tx.StmtContext(ctx, p.j.stmts.arrival)
	for _, ia := range p.arrivals {
		a := ia.a
		if _, err := st.ExecContext(ctx, ia.id, decText(a.Mid), decText(a.Mark), decText(a.Expected), a.At.UnixMilli()); err != nil {
			return fmt.Errorf("journal: arrival of %s: %w", ia.id, err)
		}
	}
	return nil
}

// inTx runs f in one transaction and commits it (one fsync).
func (j *Journal) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		if errors.Is(err, ErrUsedID) {
			return err
		}
		return fmt.Errorf("journal: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// statements are the journal's hot statements, prepared once.
type statements struct {
	used, insert, sent, outcome, arrival, value, setValue, next, free, take, state, running *sql.Stmt
}

func (j *Journal) prepare() error {
	var err error
	p := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var s *sql.Stmt
		s, err = j.db.Prepare(q)
		return s
	}
	j.stmts = statements{
		used: p(`SELECT count(*) FROM intents WHERE id=?`),
		insert: p(`INSERT INTO intents(id, parent, kind, who, what, cloids, state, created_ms, action, nonce, expires_after, request, sent_ms)
			VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)`),
		sent:     p(`UPDATE intents SET state=?, action=?, nonce=?, expires_after=?, request=?, sent_ms=? WHERE id=? AND state=? AND settled=0`),
		outcome:  p(`UPDATE intents SET outcome=?, settled=?, oid=?, detail=?, resolved_ms=? WHERE id=? AND settled=0`),
		arrival:  p(`INSERT OR IGNORE INTO arrivals(id, mid, mark, expected, at_ms) VALUES (?, ?, ?, ?, ?)`),
		value:    p(`SELECT v FROM kv WHERE k = ?`),
		setValue: p(`INSERT INTO kv(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`),
		next:     p(`UPDATE algos SET children=children+1, updated_ms=? WHERE id=? RETURNING children`),
		free:     p(`SELECT children+1 FROM algos WHERE id=?`),
		take:     p(`UPDATE algos SET children=?, updated_ms=? WHERE id=? AND children<?`),
		state:    p(`SELECT state FROM algos WHERE id=?`),
		running:  p(`SELECT id FROM algos WHERE state=?`),
	}
	return err
}

// Commits is how many transactions the journal's file committed since it was opened (SQLite's
// commit hook, on every connection): each is one fsync at synchronous=FULL.
func (j *Journal) Commits() int64 { return j.commits.Load() }

// counting is the driver's connector with the journal's commit hook on each connection.
type counting struct {
	driver.Connector
	n *atomic.Int64
}

func (c counting) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if h, ok := conn.(interface{ RegisterCommitHook(sqlite.CommitHookFn) }); ok && err == nil {
		h.RegisterCommitHook(func() int32 { c.n.Add(1); return 0 })
	}
	return conn, err
}
