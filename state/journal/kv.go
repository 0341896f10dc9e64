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
// The risk gate reads it before every order, and the console every few seconds: its table is made
// at Open and its read prepared once. The read runs with a context that cannot be cancelled
// (uncut): a point read by key has nothing to interrupt.
func (j *Journal) Value(ctx context.Context, k string) (string, bool, error) {
	var v string
	err := j.stmts.value.QueryRowContext(uncut(ctx), k).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("journal kv: %w", err)
	}
	return v, true, nil
}

// SetValue keeps v under key k, replacing what was there, committed before it returns. Like
// Value, it runs uncut: a one-row write waits for another writer at most the busy timeout.
func (j *Journal) SetValue(ctx context.Context, k, v string) error {
	if _, err := j.stmts.setValue.ExecContext(uncut(ctx), k, v); err != nil {
		return fmt.Errorf("journal kv: %w", err)
	}
	return nil
}

// uncut is ctx with no cancellation (its values kept): a statement
// under a context whose Done is not nil starts a goroutine of the driver's to interrupt it, and
// database/sql one per row set, each a wake-up of the idle console (issue #34). For a statement
// that is short whatever happens, interrupting it gains nothing. A context already ended is kept:
// the statement fails at once.
func uncut(ctx context.Context) context.Context {
	if ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}
