// Package sqlwaltest holds what the tests of the SQLite files opened through sqlwal share: a
// second writer on the same file, as another process would be.
package sqlwaltest

import (
	"database/sql"
	"testing"

	_ "modernc.org/sqlite" // the "sqlite" driver the other writer opens the file with
)

// HoldWrite opens path with a plain SQLite handle of its own (no WAL pragma, as another process
// would have it), takes the write lock (BEGIN IMMEDIATE), creates a table so the transaction has
// written, and commits once release is closed; the commit's error comes on the channel returned.
func HoldWrite(t testing.TB, path string, release <-chan struct{}) <-chan error {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS other (x INTEGER)`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { <-release; done <- tx.Commit() }()
	return done
}
