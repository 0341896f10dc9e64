// Package journal is tradedesk's write-ahead journal of signed actions: one SQLite file per
// network and account (Path), in WAL mode with synchronous=FULL. Every action the executor
// (state/exec) signs is begun (Begin: what, who asked, its client ids) and then marked sent
// (Sent: its nonce, expiresAfter and the exact action data) in a committed transaction before it
// is signed; its outcome follows when it is known (Outcome). A process that dies at any point
// leaves its intents in the file: Unresolved lists those that may have reached the exchange, Unsent
// those that were never signed. Recent lists the latest for `tradedesk journal`.
//
// The journal never holds key material: it stores no signature and no key, and every text it is
// given passes text.HideKeys. Client ids of children of one intent are derived from its id
// (ChildCloid).
package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"modernc.org/sqlite" // the pure-Go SQLite driver
)

// Who says who asked for an intent.
type Who string

// Who asked.
const (
	WhoForm        Who = "form"         // the console's order form or a dialog
	WhoCommandLine Who = "command line" // the console's command line
	WhoHeadless    Who = "headless"     // a headless command (tradedesk order ...)
	WhoAlgorithm   Who = "algorithm"    // something acting without a keystroke
)

// State is how far an intent got.
type State string

// The states of an intent.
const (
	// StateNew: begun, never signed (no Sent was committed): it cannot have reached the exchange.
	StateNew State = "new"
	// StateSent: committed as sent before it was signed: it may have reached the exchange.
	StateSent State = "sent"
)

// Intent is one action about to be signed.
type Intent struct {
	// ID names the intent: an order's own client id, or "" for a new one. Children of it take
	// ChildCloid(ID, n).
	ID string
	// Parent is the intent this one is part of ("" for none).
	Parent string
	// Kind is what the action does: "place", "cancel", ...
	Kind string
	// Who asked for it.
	Who Who
	// What is the action in words ("buy 0.1 BTC-PERP @ 50,000").
	What string
	// Cloids are the client ids the action carries: what a lookup finds its orders by.
	Cloids []string
	// Numbers are the child numbers of algorithm Parent its client ids carry (ChildCloid), taken
	// by the intent's first write in its transaction (zero: none).
	Numbers Numbers
}

// Numbers are child numbers From to To of an algorithm. Journal.FreeChild gives the first one
// free; the intent carrying them takes them when it is written, in the same transaction, and is
// refused (ErrUsedID) when the algorithm took any of them before. So a number is never carried by
// two intents, and one whose intent was never written was never signed: it is free again.
type Numbers struct{ From, To int }

// Outcome is what became of an intent.
type Outcome struct {
	// Kind is the outcome in words: placed, filled, partly filled, rejected, not placed, unknown...
	Kind string
	// Settled is false for an outcome that may still change (unknown): the intent stays
	// unresolved.
	Settled bool
	// Oid is the exchange's order id, when there is one.
	Oid uint64
	// Detail says more: a rejection's reason, what filled.
	Detail string
}

// Entry is one intent as the journal holds it.
type Entry struct {
	Seq     int64
	Intent  Intent
	State   State
	Created time.Time
	// Action, Nonce, ExpiresAfter and Request are the signed action, once Sent.
	Action       string
	Nonce        uint64
	ExpiresAfter uint64
	Request      json.RawMessage
	Sent         time.Time
	// Outcome is nil until one is known.
	Outcome  *Outcome
	Resolved time.Time
}

// Expired reports whether the exchange must no longer act on the entry's request at now: its
// expiresAfter has passed by more than skew (the two clocks may differ). An entry without an
// expiry never expires.
func (e Entry) Expired(now time.Time, skew time.Duration) bool {
	return e.ExpiresAfter > 0 && now.Add(-skew).UnixMilli() > int64(e.ExpiresAfter)
}

// Journal is one open journal file. It is safe for concurrent use.
type Journal struct {
	db      *sql.DB
	path    string
	now     func() time.Time
	stmts   statements
	commits *atomic.Int64
}

const schema = `
CREATE TABLE IF NOT EXISTS intents (
	seq           INTEGER PRIMARY KEY AUTOINCREMENT,
	id            TEXT NOT NULL UNIQUE,
	parent        TEXT NOT NULL DEFAULT '',
	kind          TEXT NOT NULL,
	who           TEXT NOT NULL,
	what          TEXT NOT NULL,
	cloids        TEXT NOT NULL,
	state         TEXT NOT NULL,
	created_ms    INTEGER NOT NULL,
	action        TEXT NOT NULL DEFAULT '',
	nonce         INTEGER NOT NULL DEFAULT 0,
	expires_after INTEGER NOT NULL DEFAULT 0,
	request       TEXT NOT NULL DEFAULT '',
	sent_ms       INTEGER NOT NULL DEFAULT 0,
	outcome       TEXT,
	settled       INTEGER NOT NULL DEFAULT 0,
	oid           INTEGER NOT NULL DEFAULT 0,
	detail        TEXT NOT NULL DEFAULT '',
	resolved_ms   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS intents_open ON intents(state, settled);
`

// Open opens (creating it, mode 0600, in a directory of mode 0700) the journal at path.
func Open(path string) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	_ = f.Close()
	if err := os.Chmod(path, 0o600); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	// WAL with synchronous=FULL: a commit returns once the WAL is on disk, so a committed intent
	// survives both a killed process and a power cut (README: The journal).
	// WAL is set once by toWAL, not in the DSN: see there.
	dsn := "file:" + path + "?_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&_txlock=immediate"
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	j := &Journal{path: path, now: time.Now, commits: new(atomic.Int64)}
	j.db = sql.OpenDB(counting{base, j.commits})
	if err := toWAL(j.db, busyWait); err != nil {
		_ = j.db.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if _, err := j.db.Exec(schema + algoSchema + arrivalSchema + routeSchema + algoMarketSchema + kvSchema); err != nil {
		_ = j.db.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if err := j.prepare(); err != nil {
		_ = j.db.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return j, nil
}

// Close closes the journal.
func (j *Journal) Close() error { return j.db.Close() }

// File is the journal's path.
func (j *Journal) File() string { return j.path }

// SetClock sets the clock the journal stamps entries with (default time.Now).
func (j *Journal) SetClock(now func() time.Time) { j.now = now }

// Path is the journal file of one network and account under dir: dir/journal/NETWORK-ACCOUNT.db,
// the network's name (mainnet, testnet, or a custom URL's host) kept to safe characters.
func Path(dir, network, account string) string {
	return filepath.Join(dir, "journal", safeName(network)+"-"+safeName(strings.ToLower(account))+".db")
}

// ProfilePath is Path for a named config profile: its own file, so each profile keeps its own
// journal ("" is Path).
func ProfilePath(dir, network, account, profile string) string {
	if profile == "" {
		return Path(dir, network, account)
	}
	return filepath.Join(dir, "journal", safeName(network)+"-"+safeName(strings.ToLower(account))+"-"+safeName(profile)+".db")
}

// safeName keeps letters, digits, dots and dashes; anything else becomes an underscore.
func safeName(s string) string {
	if s == "" {
		return "none"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// ChildCloid is the client id of child n (from 1) of the intent parent: "parent-n". It fails,
// saying why, when the result is not a client id the exchange takes (api.CheckCloid).
func ChildCloid(parent string, n int) (string, error) {
	if n < 1 {
		return "", fmt.Errorf("child %d of %s: children count from 1", n, text.Quote(parent))
	}
	id := fmt.Sprintf("%s-%d", parent, n)
	if err := api.CheckCloid(id); err != nil {
		return "", fmt.Errorf("child %d of intent %s: %w; give the parent a shorter id", n, text.Quote(parent), err)
	}
	return id, nil
}

// ErrUsedID is returned by Begin for an id the journal already holds: a client id used twice
// would make a lookup by it ambiguous.
var ErrUsedID = errors.New("this id was used before: give a new client id")

// Begin commits a new intent (StateNew) and returns its id: in.ID, or a new UUID when empty.
func (j *Journal) Begin(ctx context.Context, in Intent) (string, error) {
	if err := checkIntent(&in); err != nil {
		return "", err
	}
	cloids, _ := json.Marshal(orEmpty(in.Cloids))
	err := j.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO intents(id, parent, kind, who, what, cloids, state, created_ms) VALUES(?,?,?,?,?,?,?,?)`,
			in.ID, in.Parent, in.Kind, string(in.Who), text.HideKeys(in.What), string(cloids), string(StateNew), j.now().UnixMilli())
		if err != nil && strings.Contains(err.Error(), "UNIQUE") {
			return fmt.Errorf("journal: intent %s: %w", in.ID, ErrUsedID)
		}
		if err != nil {
			return err
		}
		return j.takeNumbers(ctx, tx, in)
	})
	if err != nil {
		return "", err
	}
	return in.ID, nil
}

// Sent commits, before the action is signed, that intent id is about to be sent as s. Only an
// intent still new, with no outcome, can be marked sent: an action is signed once, and one that
// another process's recovery settled as never sent stays so.
func (j *Journal) Sent(ctx context.Context, id string, s api.Signing) error {
	res, err := j.stmts.sent.ExecContext(ctx,
		string(StateSent), s.Action, int64(s.Nonce), int64(s.ExpiresAfter), text.HideKeys(string(s.Data)), j.now().UnixMilli(), id, string(StateNew))
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("journal: intent %s is not new (signed before, or settled as never sent): it is not signed", text.Quote(id))
	}
	return nil
}

// Outcome records what became of intent id. A settled outcome is final: a later one is ignored
// (reported false). An unsettled one (unknown) may be replaced.
func (j *Journal) Outcome(ctx context.Context, id string, o Outcome) (bool, error) {
	res, err := j.stmts.outcome.ExecContext(ctx,
		o.Kind, o.Settled, int64(o.Oid), text.HideKeys(o.Detail), j.now().UnixMilli(), id)
	if err != nil {
		return false, fmt.Errorf("journal: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
