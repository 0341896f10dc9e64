package journal

import (
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
