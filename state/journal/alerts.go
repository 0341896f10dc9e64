package journal

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

const alertSchema = `
CREATE TABLE IF NOT EXISTS alerts (
	id            TEXT PRIMARY KEY,
	rule          TEXT NOT NULL,
	origin        TEXT NOT NULL,
	created_ms    INTEGER NOT NULL,
	last_fired_ms INTEGER NOT NULL DEFAULT 0
);`

// PutAlert adds an alert definition, or leaves the one with its id as it is (an id is its
// definition): it reports whether it was new.
func (j *Journal) PutAlert(ctx context.Context, d AlertDef) (bool, error) {
	res, err := j.db.ExecContext(ctx, `INSERT INTO alerts(id, rule, origin, created_ms) VALUES(?,?,?,?) ON CONFLICT(id) DO NOTHING`,
		d.ID, text.HideKeys(d.Rule), d.Origin, j.now().UnixMilli())
	if err != nil {
		return false, fmt.Errorf("journal alerts: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Alerts lists the alert definitions, oldest first.
func (j *Journal) Alerts(ctx context.Context) ([]AlertDef, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT id, rule, origin, created_ms, last_fired_ms FROM alerts ORDER BY created_ms, id`)
	if err != nil {
		return nil, fmt.Errorf("journal alerts: %w", err)
	}
	defer rows.Close()
	var out []AlertDef
	for rows.Next() {
		var d AlertDef
		var created, fired int64
		if err := rows.Scan(&d.ID, &d.Rule, &d.Origin, &created, &fired); err != nil {
			return nil, fmt.Errorf("journal alerts: %w", err)
		}
		d.Created = time.UnixMilli(created).UTC()
		if fired > 0 {
			d.LastFired = time.UnixMilli(fired).UTC()
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// RemoveAlert removes the alert id, reporting whether there was one.
func (j *Journal) RemoveAlert(ctx context.Context, id string) (bool, error) {
	res, err := j.db.ExecContext(ctx, `DELETE FROM alerts WHERE id=?`, id)
	if err != nil {
		return false, fmt.Errorf("journal alerts: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// AlertFired records when the alert id was last delivered.
func (j *Journal) AlertFired(ctx context.Context, id string, at time.Time) error {
	if _, err := j.db.ExecContext(ctx, `UPDATE alerts SET last_fired_ms=? WHERE id=?`, at.UnixMilli(), id); err != nil {
		return fmt.Errorf("journal alerts: %w", err)
	}
	return nil
}
