package journal

import "github.com/tradedesk/tradedesk/api/sqlwal"

// busyWait is how long the journal waits for another handle's write lock: the DSN's busy_timeout.
const busyWait = sqlwal.BusyWait

// toWAL puts the journal in WAL mode, waiting out another handle's write (sqlwal.ToWAL).
var toWAL = sqlwal.ToWAL
