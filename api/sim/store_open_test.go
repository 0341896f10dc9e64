package sim

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api/sqlwal/sqlwaltest"
)

// TestOpenStoreWaitsForAnotherWriter: while another process holds a write transaction on the
// state database (a second simulator on the same --data, a tool reading it), opening the store
// waits for it instead of failing "database is locked": on a file not yet in WAL the switch to
// WAL is a read upgraded to a write, which SQLite fails at once while another handle writes
// (sqlwal.ToWAL retries it). Both a new file and one already in WAL.
func TestOpenStoreWaitsForAnotherWriter(t *testing.T) {
	t.Parallel()
	for _, wal := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "sim.db")
		if wal {
			st, err := openStore(path)
			if err != nil {
				t.Fatal(err)
			}
			_ = st.db.Close()
		}
		release := make(chan struct{})
		committed := sqlwaltest.HoldWrite(t, path, release)
		opened := make(chan error, 1)
		go func() {
			st, err := openStore(path)
			if err == nil {
				_, err = st.db.Exec(`INSERT OR REPLACE INTO meta (k, v) VALUES ('test', x'00')`)
				_ = st.db.Close()
			}
			opened <- err
		}()
		// The other writer holds its lock until the open has had the time to fail if it does
		// not wait (it fails at once when it does not); then it lets go and the open must go
		// through.
		select {
		case err := <-opened:
			t.Fatalf("wal=%v: the store opened while another handle held the write lock: %v", wal, err)
		case <-time.After(300 * time.Millisecond):
		}
		close(release)
		if err := <-committed; err != nil {
			t.Fatal(err)
		}
		if err := <-opened; err != nil {
			t.Fatalf("wal=%v: opening the store after the other writer committed: %v", wal, err)
		}
	}
}
