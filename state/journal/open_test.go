package journal

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api/sqlwal/sqlwaltest"
)

// TestOpenWaitsForAnotherWriter: while another handle on the same file on disk (another
// process: the killed order's successor, a headless command, a test reading the journal) holds
// a write transaction, Open and a write wait for it instead of failing "database is locked".
// Both the new file (Open converts it to WAL, a read that becomes a write) and one already in WAL.
func TestOpenWaitsForAnotherWriter(t *testing.T) {
	for _, wal := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "j.db")
		if wal {
			j, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			_ = j.Close()
		}
		release := make(chan struct{})
		committed := sqlwaltest.HoldWrite(t, path, release)
		opened := make(chan error, 1)
		go func() {
			j, err := Open(path)
			if err == nil {
				_, err = j.Begin(ctx, Intent{ID: "c-1", Kind: "place", Who: WhoHeadless, What: "buy", Cloids: []string{"c-1"}})
				_ = j.Close()
			}
			opened <- err
		}()
		// The other writer holds its lock until Open has had the time to fail if it does not
		// wait (it fails at once when it does not); then it lets go and Open must go through.
		select {
		case err := <-opened:
			t.Fatalf("wal=%v: Open and Begin returned while another handle held the write lock: %v", wal, err)
		case <-time.After(300 * time.Millisecond):
		}
		close(release)
		if err := <-committed; err != nil {
			t.Fatal(err)
		}
		if err := <-opened; err != nil {
			t.Fatalf("wal=%v: Open and Begin after the other writer committed: %v", wal, err)
		}
	}
}

// TestANewJournalMakesItsTablesInOneCommit (issue #33): a new file's tables and indexes are made
// in one transaction, so Open commits twice (the switch to WAL, the tables), not once for each of
// the eight statements, each a synchronous write of the WAL; a journal opened again commits
// nothing. Every console, headless command and test that opens a new journal paid the eight.
func TestANewJournalMakesItsTablesInOneCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	for i, want := range []int64{2, 0} {
		j, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := j.Commits(); got != want {
			t.Errorf("open %d: %d commits, want %d", i+1, got, want)
		}
		_ = j.Close()
	}
}

// TestAJournalFromBeforeGetsItsMissingTables: a file made by an older tradedesk (only the
// intents table, no stamp) gets the tables it lacks on Open, the alerts table with them (each
// alert read and write made it, its SQL parsed again every time), and keeps its intents.
func TestAJournalFromBeforeGetsItsMissingTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(schema + `INSERT INTO intents(id, kind, who, what, cloids, state, created_ms) VALUES('i-1','place','headless','buy','[]','new',1)`); err != nil {
		t.Fatal(err)
	}
	_ = old.Close()
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.SetValue(ctx, "k", "v"); err != nil {
		t.Fatalf("the kv table of a journal from before: %v", err)
	}
	if got, err := j.Unsent(ctx); err != nil || len(got) != 1 {
		t.Fatalf("its intents: %v %v, want the one it had", got, err)
	}
	var n int
	if err := j.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name='alerts'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the alerts table after Open: %d %v, want it made with the others", n, err)
	}
}
