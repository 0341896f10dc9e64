package journal

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
)

// busyWait is how long the journal waits for another handle's write lock: the DSN's busy_timeout.
const busyWait = 10 * time.Second

// sqliteBusy is SQLITE_BUSY, the primary result code of every "database is locked".
const sqliteBusy = 5

// toWAL puts the file in WAL mode (a no-op once it is: the mode is kept in the file). On a file
// not yet in WAL, SQLite's switch reads the header and then upgrades that read to a write, and an
// upgrade fails at once with SQLITE_BUSY while another handle writes (the busy handler is not
// called for it: waiting could deadlock); two processes opening a new journal together, or one
// opening it while another writes it, then failed "database is locked" though the other's write
// takes milliseconds. So the switch is retried, while it is busy, for as long as busy_timeout
// would have waited.
func toWAL(db *sql.DB, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		var mode string
		err := db.QueryRow(`PRAGMA journal_mode=WAL`).Scan(&mode)
		switch {
		case err == nil && mode == "wal":
			return nil
		case err == nil:
			return fmt.Errorf("the journal cannot be put in WAL mode (it is %q): keep it on a local disk", mode)
		case !isBusy(err) || time.Now().After(deadline):
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// isBusy reports whether err is SQLite's "database is locked" (any SQLITE_BUSY variant).
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqliteBusy
}
