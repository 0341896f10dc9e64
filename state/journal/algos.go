package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// algoSchema is the algorithms' table: one row per algorithm, its parameters as JSON, and the
// count of child client ids it has taken (an intent's Numbers, or NextChild), so a restarted
// process never reuses one.
const algoSchema = `
CREATE TABLE IF NOT EXISTS algos (
	id         TEXT PRIMARY KEY,
	kind       TEXT NOT NULL,
	params     TEXT NOT NULL,
	state      TEXT NOT NULL,
	children   INTEGER NOT NULL DEFAULT 0,
	created_ms INTEGER NOT NULL,
	updated_ms INTEGER NOT NULL,
	detail     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS algos_state ON algos(state);
`

// BeginAlgo commits a new algorithm, running, with its parameters, before it acts; it returns its
// id (a.ID, or a new one when empty).
func (j *Journal) BeginAlgo(ctx context.Context, a Algo) (string, error) {
	if a.ID == "" {
		a.ID = newID()
	}
	if err := api.CheckCloid(a.ID); err != nil {
		return "", fmt.Errorf("journal: algorithm id: %w", err)
	}
	if a.Kind == "" || !json.Valid(a.Params) {
		return "", errors.New("journal: an algorithm needs its kind and its parameters as JSON")
	}
	now := j.now().UnixMilli()
	_, err := j.db.ExecContext(ctx, `INSERT INTO algos(id, kind, params, state, created_ms, updated_ms, detail) VALUES(?,?,?,?,?,?,?)`,
		a.ID, a.Kind, text.HideKeys(string(a.Params)), AlgoRunning, now, now, text.HideKeys(a.Detail))
	if err != nil {
		return "", fmt.Errorf("journal: algorithm %s: %w", a.ID, err)
	}
	return a.ID, nil
}

// NextChild commits and returns the algorithm's next child number (from 1): its client id is
// ChildCloid(id, n). A number is taken once, even by a process that dies before using it.
func (j *Journal) NextChild(ctx context.Context, id string) (int, error) {
	var n int
	err := j.stmts.next.QueryRowContext(ctx, j.now().UnixMilli(), id).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("journal: no algorithm %s", text.Quote(id))
	}
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	return n, nil
}

// FreeChild is the algorithm's first child number not taken: its child's intent takes it when it
// is written (Intent.Numbers), so reading it commits nothing.
func (j *Journal) FreeChild(ctx context.Context, id string) (int, error) {
	var n int
	err := j.stmts.free.QueryRowContext(ctx, id).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("journal: no algorithm %s", text.Quote(id))
	}
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	return n, nil
}

// SetAlgo records the algorithm's state and what it did (detail), even when ctx was cancelled.
func (j *Journal) SetAlgo(ctx context.Context, id, state, detail string) error {
	_, err := j.db.ExecContext(context.WithoutCancel(ctx), `UPDATE algos SET state=?, detail=?, updated_ms=? WHERE id=?`,
		state, text.HideKeys(detail), j.now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// SwitchAlgo moves algorithm id from state from to state to (a pause or a resume), and reports
// whether it was in from: an algorithm that ended meanwhile keeps its end.
func (j *Journal) SwitchAlgo(ctx context.Context, id, from, to string) (bool, error) {
	res, err := j.db.ExecContext(context.WithoutCancel(ctx), `UPDATE algos SET state=?, updated_ms=? WHERE id=? AND state=?`,
		to, j.now().UnixMilli(), id, from)
	if err != nil {
		return false, fmt.Errorf("journal: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// AlgoState is algorithm id's state ("" when the journal has none): the one column a running
// algorithm reads to see a pause asked by this process or another.
func (j *Journal) AlgoState(ctx context.Context, id string) (string, error) {
	var st string
	err := j.stmts.state.QueryRowContext(ctx, id).Scan(&st)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("journal: %w", err)
	}
	return st, nil
}

// SetAlgoParams replaces algorithm id's parameters (a TWAP's schedule moved on by a pause).
func (j *Journal) SetAlgoParams(ctx context.Context, id string, params json.RawMessage) error {
	if !json.Valid(params) {
		return errors.New("journal: an algorithm's parameters are JSON")
	}
	_, err := j.db.ExecContext(context.WithoutCancel(ctx), `UPDATE algos SET params=?, updated_ms=? WHERE id=?`,
		text.HideKeys(string(params)), j.now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Algos lists the algorithms, oldest first: every one, or only those running when running is set.
func (j *Journal) Algos(ctx context.Context, running bool) ([]Algo, error) {
	if running {
		return j.algos(ctx, ` WHERE state=?`, AlgoRunning)
	}
	return j.algos(ctx, "")
}

// RunningIDs adds the ids of the running algorithms to ids, and returns it: the one column the
// process's algorithms read, several times a second, to see a pause (a statement prepared once,
// over the state's index, with nothing sorted and no parameters copied).
func (j *Journal) RunningIDs(ctx context.Context, ids []string) ([]string, error) {
	rows, err := j.stmts.running.QueryContext(ctx, AlgoRunning)
	if err != nil {
		return ids, fmt.Errorf("journal: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return ids, fmt.Errorf("journal: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func (j *Journal) algos(ctx context.Context, where string, args ...any) ([]Algo, error) {
	q := `SELECT id, kind, params, state, children, created_ms, updated_ms, detail FROM algos` + where
	rows, err := j.db.QueryContext(ctx, q+` ORDER BY created_ms, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer rows.Close()
	var out []Algo
	for rows.Next() {
		var a Algo
		var params string
		var created, updated int64
		if err := rows.Scan(&a.ID, &a.Kind, &params, &a.State, &a.Children, &created, &updated, &a.Detail); err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		a.Params, a.Created, a.Updated = json.RawMessage(params), time.UnixMilli(created), time.UnixMilli(updated)
		out = append(out, a)
	}
	return out, rows.Err()
}

// GetAlgo is the algorithm id (found false when the journal has none).
func (j *Journal) GetAlgo(ctx context.Context, id string) (Algo, bool, error) {
	all, err := j.algos(ctx, ` WHERE id=?`, id)
	if err != nil || len(all) == 0 {
		return Algo{}, false, err
	}
	return all[0], true, nil
}

// Children lists, oldest first, the intents an algorithm (or any parent intent) sent on its
// behalf: its children's orders and cancels.
func (j *Journal) Children(ctx context.Context, parent string) ([]Entry, error) {
	return j.query(ctx, `SELECT `+columns+` FROM intents WHERE parent=? ORDER BY seq`, parent)
}
