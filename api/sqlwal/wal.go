// Package sqlwal puts a SQLite file in WAL mode without failing while another process writes
// it: the one copy of the switch both the console's journal and the simulator's state database
// (api/sim's --data) make. It lives under api so that both can import it (state may import
// api's packages, api/sim may not import state); package api itself does not import it, so the
// client links no SQLite.
package sqlwal

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
)

// BusyWait is how long a handle waits for another's write lock: the busy_timeout both DSNs set.
const BusyWait = 10 * time.Second

// sqliteBusy is SQLITE_BUSY, the primary result code of every "database is locked".
const sqliteBusy = 5

// ToWAL puts the file in WAL mode (a no-op once it is: the mode is kept in the file). On a file
// not yet in WAL, SQLite's switch reads the header and then upgrades that read to a write, and an
// upgrade fails at once with SQLITE_BUSY while another handle writes (the busy handler is not
// called for it: waiting could deadlock); two processes opening a new file together, or one
// opening it while another writes it, then failed "database is locked" though the other's write
// takes milliseconds. So the switch is retried, while it is busy, for as long as wait (the
// busy_timeout) would have waited. Set it here, not in the DSN's _pragma, which fails the
// connection at once.
func ToWAL(db *sql.DB, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		var mode string
		err := db.QueryRow(`PRAGMA journal_mode=WAL`).Scan(&mode)
		switch {
		case err == nil && mode == "wal":
			return nil
		case err == nil:
			return fmt.Errorf("the file cannot be put in WAL mode (it is %q): keep it on a local disk", mode)
		case !IsBusy(err) || time.Now().After(deadline):
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// IsBusy reports whether err is SQLite's "database is locked" (any SQLITE_BUSY variant).
func IsBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqliteBusy
}
