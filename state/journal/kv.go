package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const kvSchema = `
CREATE TABLE IF NOT EXISTS kv (
	k TEXT PRIMARY KEY,
	v TEXT NOT NULL
);`

// Value is the value kept under key k ("" and false when there is none). The risk engine
// (state/risk) keeps its trading state and the day's marks here, so a restart does not reset them.
// The risk gate reads it before every order: its table is made at Open and its read prepared once.
func (j *Journal) Value(ctx context.Context, k string) (string, bool, error) {
	var v string
	err := j.stmts.value.QueryRowContext(ctx, k).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("journal kv: %w", err)
	}
	return v, true, nil
}

// SetValue keeps v under key k, replacing what was there, committed before it returns.
func (j *Journal) SetValue(ctx context.Context, k, v string) error {
	if _, err := j.db.ExecContext(ctx, `INSERT INTO kv(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, k, v); err != nil {
		return fmt.Errorf("journal kv: %w", err)
	}
	return nil
}
