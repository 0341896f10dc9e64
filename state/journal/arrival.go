package journal

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// arrivalSchema holds what the market looked like when an order was sent: the report card
// (state/report) measures its fills' slippage from it. One row per intent, written once.
const arrivalSchema = `
CREATE TABLE IF NOT EXISTS arrivals (
	id       TEXT PRIMARY KEY,
	mid      TEXT NOT NULL DEFAULT '',
	mark     TEXT NOT NULL DEFAULT '',
	expected TEXT NOT NULL DEFAULT '',
	at_ms    INTEGER NOT NULL DEFAULT 0
);
`

// SetArrival records the arrival of intent id (once: a second call for the same id is ignored).
func (j *Journal) SetArrival(ctx context.Context, id string, a Arrival) error {
	at := a.At
	if at.IsZero() {
		at = j.now()
	}
	_, err := j.db.ExecContext(ctx, `INSERT OR IGNORE INTO arrivals(id, mid, mark, expected, at_ms) VALUES (?, ?, ?, ?, ?)`,
		id, decText(a.Mid), decText(a.Mark), decText(a.Expected), at.UnixMilli())
	if err != nil {
		return fmt.Errorf("journal: arrival of %s: %w", id, err)
	}
	return nil
}

// Arrivals returns every recorded arrival by intent id (an order's client id).
func (j *Journal) Arrivals(ctx context.Context) (map[string]Arrival, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT id, mid, mark, expected, at_ms FROM arrivals`)
	if err != nil {
		return nil, fmt.Errorf("journal: arrivals: %w", err)
	}
	defer rows.Close()
	out := map[string]Arrival{}
	for rows.Next() {
		var id, mid, mark, exp string
		var ms sql.NullInt64
		if err := rows.Scan(&id, &mid, &mark, &exp, &ms); err != nil {
			return nil, fmt.Errorf("journal: arrivals: %w", err)
		}
		out[id] = Arrival{Mid: textDec(mid), Mark: textDec(mark), Expected: textDec(exp), At: time.UnixMilli(ms.Int64).UTC()}
	}
	return out, rows.Err()
}

// decText stores a zero (not known) as "".
func decText(d decimal.Decimal) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

func textDec(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return d
}
