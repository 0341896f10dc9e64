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
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"modernc.org/sqlite" // the pure-Go SQLite driver
)

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
	if err := j.makeTables(); err != nil {
		_ = j.db.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if err := j.prepare(); err != nil {
		_ = j.db.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return j, nil
}

// tables is every table and index of the journal, made by Open where missing (the alerts table
// too: a journal from before alerts gets it then, not at each alert read or write).
const tables = schema + algoSchema + arrivalSchema + routeSchema + algoMarketSchema + kvSchema + alertSchema

// tablesStamp marks a file that has every one of tables: a hash of their statements, kept in the
// file's user_version. Another schema has another stamp, so a file made before it is brought up
// to date once.
var tablesStamp = func() int32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(tables))
	return int32(h.Sum32()>>1) | 1 // positive, never 0 (a new file's)
}()

// makeTables makes the tables and indexes that are missing, in one transaction with the stamp:
// one commit (one synchronous write of the WAL) for a new file, where the statements run alone
// were a commit each, eight; none for a file that has the stamp, which is not parsed again.
func (j *Journal) makeTables() error {
	var stamp int32
	if err := j.db.QueryRow(`PRAGMA user_version`).Scan(&stamp); err != nil {
		return err
	}
	if stamp == tablesStamp {
		return nil
	}
	tx, err := j.db.Begin()
	if err != nil {
		return err
	}
	if _, err := tx.Exec(tables + fmt.Sprintf("PRAGMA user_version = %d;", tablesStamp)); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Close closes the journal.
func (j *Journal) Close() error { return j.db.Close() }

// File is the journal's path.
func (j *Journal) File() string { return j.path }

// SetClock sets the clock the journal stamps entries with (default time.Now).
func (j *Journal) SetClock(now func() time.Time) { j.now = now }

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
