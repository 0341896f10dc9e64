package sim

import (
	"bytes"
	"database/sql"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sqlwal"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver the console's journal uses, "sqlite"
)

// storeVersion is the store's format.
const storeVersion = 2

// storeSchema is the store's tables: the exchange-wide state, one row per market, account,
// agent, faucet address and order, the append-only logs keyed by account and sequence number,
// and the open brackets.
const storeSchema = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS markets (id INTEGER PRIMARY KEY, v BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS faucet (addr TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS agents (addr TEXT PRIMARY KEY, v BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (addr TEXT PRIMARY KEY, internal INTEGER NOT NULL, v BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS fills (acct TEXT NOT NULL, seq INTEGER NOT NULL, v BLOB NOT NULL, PRIMARY KEY (acct, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS funding (acct TEXT NOT NULL, seq INTEGER NOT NULL, v BLOB NOT NULL, PRIMARY KEY (acct, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS transfers (acct TEXT NOT NULL, seq INTEGER NOT NULL, v BLOB NOT NULL, PRIMARY KEY (acct, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history (acct TEXT NOT NULL, seq INTEGER NOT NULL, v BLOB NOT NULL, PRIMARY KEY (acct, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS orders (oid INTEGER PRIMARY KEY, acct TEXT NOT NULL, open INTEGER NOT NULL, v BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS orders_acct ON orders (acct, open, oid);
CREATE TABLE IF NOT EXISTS brackets (n INTEGER PRIMARY KEY, v BLOB NOT NULL);
`

// store is the simulator's SQLite database (WithStateFile).
type store struct {
	db       *sql.DB
	stmt     map[string]*sql.Stmt
	house    map[string][]byte           // the house accounts' rows as last written
	markets  map[api.InstrumentID][]byte // the markets' rows as last written
	seqs     map[api.InstrumentID]uint64 // loading: the books' sequence numbers
	brackets []byte                      // the brackets as last written
	check    bool                        // tests: after each write, nothing changed that was not written
	rows     map[string][]byte           // with check: every account's row as last written
	written  int                         // statements the last write ran (a test reads it)
	orders   map[api.OrderID][]byte      // with check: every user order's row as last written
	orderRow map[api.OrderID]orderRow    // with check: the same rows unencoded (verify's fast path)
}

// storeStmts are the statements a write runs, by name.
var storeStmts = map[string]string{
	"meta":          `INSERT OR REPLACE INTO meta (k, v) VALUES ('state', ?)`,
	"market":        `INSERT OR REPLACE INTO markets (id, v) VALUES (?, ?)`,
	"faucet":        `INSERT OR IGNORE INTO faucet (addr) VALUES (?)`,
	"account":       `INSERT OR REPLACE INTO accounts (addr, internal, v) VALUES (?, ?, ?)`,
	"order":         `INSERT OR REPLACE INTO orders (oid, acct, open, v) VALUES (?, ?, ?, ?)`,
	"trim orders":   `DELETE FROM orders WHERE acct = ? AND open = 0 AND oid < ?`,
	"forget orders": `DELETE FROM orders WHERE acct = ?`,
	"forget":        `DELETE FROM accounts WHERE addr = ?`,
}

func init() {
	for _, t := range logTables {
		storeStmts["add "+t] = `INSERT OR REPLACE INTO ` + t + ` (acct, seq, v) VALUES (?, ?, ?)`
		storeStmts["trim "+t] = `DELETE FROM ` + t + ` WHERE acct = ? AND seq <= ?`
		storeStmts["forget "+t] = `DELETE FROM ` + t + ` WHERE acct = ?`
	}
}

// openStore opens (creating when missing) the store at path: WAL with synchronous=FULL, as the
// journal, so a committed write survives a kill and a power cut. WAL is set once by
// sqlwal.ToWAL, not in the DSN, so opening waits out another process's write.
func openStore(path string) (*store, error) {
	dsn := "file:" + path + "?_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if err := sqlwal.ToWAL(db, sqlwal.BusyWait); err != nil {
		db.Close()
		if sqlwal.IsBusy(err) {
			return nil, fmt.Errorf("another process kept it locked for %s (%w): stop it, or give this one a --data of its own", sqlwal.BusyWait, err)
		}
		return nil, fmt.Errorf("not a simulator state database (%w): move it away to start afresh", err)
	}
	if _, err := db.Exec(storeSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("not a simulator state database (%w): move it away to start afresh", err)
	}
	st := &store{db: db, stmt: map[string]*sql.Stmt{}, house: map[string][]byte{}, markets: map[api.InstrumentID][]byte{},
		seqs: map[api.InstrumentID]uint64{}}
	for name, q := range storeStmts {
		s, err := db.Prepare(q)
		if err != nil {
			db.Close()
			return nil, err
		}
		st.stmt[name] = s
	}
	return st, nil
}

// write is one transaction with what changed since the last: the exchange-wide state, changed
// markets, new faucet addresses, the agents when they changed, forgotten accounts, dirty
// accounts with their new log records, changed orders, and the brackets when they changed.
func (st *store) write(e *engine, maxNonce uint64) error {
	tx, err := st.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	w := &storeTx{tx: tx, st: st}
	w.exec("meta", mustJSON(metaRow{Version: storeVersion, Saved: e.now(), MaxNonce: maxNonce, NextOid: e.nextOid,
		NextTid: e.nextTid, NextTx: e.nextTx, FundedAt: e.fundedAt, In: e.ledger.in, Out: e.ledger.out}))
	for _, m := range e.markets {
		b := mustJSON(marketRow{Index: m.index, Mark: m.mark, Last: m.last, Funding: m.funding, PremSum: m.premiumSum(), PremN: m.premN,
			Paused: m.paused, Seq: m.book.seq, Updated: m.updated})
		if !bytes.Equal(b, st.markets[m.id]) {
			w.exec("market", m.id, b)
			st.markets[m.id] = b
		}
	}
	for _, addr := range e.dirt.faucet {
		w.exec("faucet", addr)
	}
	if e.dirt.agents {
		w.agents(e)
	}
	for _, a := range e.allAccounts() {
		w.account(a)
	}
	for _, o := range e.dirt.orders {
		w.order(o)
	}
	for _, addr := range e.dirt.gone { // after the orders: a forgotten account's last ones go too
		w.forget(addr)
	}
	if b := mustJSON(e.bracketRows()); !bytes.Equal(b, st.brackets) {
		w.brackets(e, b)
	}
	if w.err != nil {
		return w.err
	}
	st.written = w.n
	if err := tx.Commit(); err != nil {
		return err
	}
	e.dirt = track{on: true}
	if st.check {
		return st.verify(e)
	}
	return nil
}

// storeTx is one write's transaction; the first error stops it.
type storeTx struct {
	tx  *sql.Tx
	st  *store
	n   int // statements run
	err error
}

func (w *storeTx) exec(name string, args ...any) {
	if w.err == nil {
		w.n++
		_, w.err = w.tx.Stmt(w.st.stmt[name]).Exec(args...)
	}
}

func (w *storeTx) run(q string, args ...any) {
	if w.err == nil {
		w.n++
		_, w.err = w.tx.Exec(q, args...)
	}
}

func (w *storeTx) agents(e *engine) {
	w.run(`DELETE FROM agents`)
	for _, ag := range e.ctl.agents {
		w.run(`INSERT INTO agents (addr, v) VALUES (?, ?)`, ag.addr,
			mustJSON(snapAgent{Addr: ag.addr, Account: ag.account, Name: ag.name, Created: ag.created, Until: ag.until}))
	}
}

func (w *storeTx) forget(addr string) {
	w.exec("forget", addr)
	w.exec("forget orders", addr)
	for _, t := range logTables {
		w.exec("forget "+t, addr)
	}
}

// account writes a dirty user account (or a house account whose row changed) and its new log
// records, and drops the records and closed orders it no longer keeps.
func (w *storeTx) account(a *account) {
	if !a.dirty && !a.internal {
		return
	}
	b := mustJSON(a.row())
	if a.internal {
		if bytes.Equal(b, w.st.house[a.addr]) {
			a.dirty = false
			return
		}
		w.st.house[a.addr] = b
	}
	w.exec("account", a.addr, a.internal, b)
	if w.st.check {
		w.st.rows[a.addr] = b
	}
	for k, t := range logTables {
		n := a.logN[k] - a.logSaved[k]
		if n == 0 {
			continue
		}
		recs := a.logRecords(k, int(n))
		for i, r := range recs {
			w.exec("add "+t, a.addr, a.logN[k]-int64(len(recs))+1+int64(i), mustJSON(r))
		}
		if keep := logKeep(a, k); a.logN[k] > keep {
			w.exec("trim "+t, a.addr, a.logN[k]-keep)
		}
		a.logSaved[k] = a.logN[k]
	}
	if a.trimmed {
		w.exec("trim orders", a.addr, oldestClosed(a))
	}
	a.dirty, a.trimmed = false, false
}

// logKeep is how many records of a log an account keeps.
func logKeep(a *account, k int) int64 {
	if k == logFills {
		return int64(a.keep.fills)
	}
	if k == logHistory {
		return maxHistoryKept
	}
	return maxFillsKept
}

// oldestClosed is the id of the oldest closed order in the account's history (the next id when
// it keeps none): closed orders leave the history oldest first.
func oldestClosed(a *account) api.OrderID {
	for _, o := range a.history {
		if o.state != api.StateOpen {
			return o.oid
		}
	}
	return api.OrderID(1 << 62)
}

func (w *storeTx) order(o *order) {
	o.dirty = false
	r := rowOfOrder(o)
	b := mustJSON(r)
	if w.st.check {
		w.st.orders[o.oid], w.st.orderRow[o.oid] = b, r
	}
	w.exec("order", o.oid, o.acct.addr, o.state == api.StateOpen, b)
}

func (w *storeTx) brackets(e *engine, b []byte) {
	w.run(`DELETE FROM brackets`)
	for i, r := range e.bracketRows() {
		w.run(`INSERT INTO brackets (n, v) VALUES (?, ?)`, i, mustJSON(r))
	}
	w.st.brackets = b
}

// verify (tests) checks that no account row and no user order differs from what the store
// last wrote: a change that set no dirty mark would be lost at a restart. An order row equal
// (==) to the one written, the same values and the same decimals' and times' pointers, encodes
// to the same bytes, so only a row that differs is encoded and compared: every write checks
// every order without encoding hundreds of them.
func (st *store) verify(e *engine) error {
	for _, a := range e.users {
		if b := mustJSON(a.row()); !bytes.Equal(b, st.rows[a.addr]) {
			return fmt.Errorf("store check: account %s changed but was not written:\nnow  %s\nkept %s", a.addr, b, st.rows[a.addr])
		}
		for _, o := range a.history {
			r := rowOfOrder(o)
			if r == st.orderRow[o.oid] {
				continue
			}
			if b := mustJSON(r); !bytes.Equal(b, st.orders[o.oid]) {
				return fmt.Errorf("store check: order %d changed but was not written:\nnow  %s\nkept %s", o.oid, b, st.orders[o.oid])
			}
		}
	}
	return nil
}

// track is what changed since the store's last write. Only a simulator with a store fills it
// (on), so one without keeps no list.
type track struct {
	on     bool
	orders []*order // user orders changed (engine.touchOrder)
	faucet []string // addresses the faucet funded
	agents bool     // an agent was added, renewed, revoked or expired
	gone   []string // accounts forgotten (engine.forgotten)
}

// touchOrder notes that a user's order changed.
func (e *engine) touchOrder(o *order) {
	if e.dirt.on && !o.dirty && !o.acct.internal {
		o.dirty = true
		e.dirt.orders = append(e.dirt.orders, o)
	}
}

// forgotten notes an account the simulator forgot (idle eviction): the store drops its rows.
func (e *engine) forgotten(a *account) {
	if e.dirt.on {
		e.dirt.gone = append(e.dirt.gone, a.addr)
	}
}
