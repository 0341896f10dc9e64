package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// routeSchema holds each order's route from the keystroke to the screen (the latency legs the
// report and the console's :latency view measure): one row per order, each stamp in Unix
// nanoseconds of the console's clock (0: not seen).
const routeSchema = `
CREATE TABLE IF NOT EXISTS routes (
	id          TEXT PRIMARY KEY,
	keystroke   INTEGER NOT NULL DEFAULT 0,
	signed      INTEGER NOT NULL DEFAULT 0,
	answered    INTEGER NOT NULL DEFAULT 0,
	streamed    INTEGER NOT NULL DEFAULT 0,
	shown       INTEGER NOT NULL DEFAULT 0
);
`

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// SetRoute records the stamps of r that are set; a stamp recorded earlier for the same order is
// kept (the first time each point was passed).
func (j *Journal) SetRoute(ctx context.Context, r Route) error {
	s := r.Stamps()
	_, err := j.db.ExecContext(ctx, `INSERT INTO routes(id, keystroke, signed, answered, streamed, shown) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET
			keystroke = CASE WHEN keystroke = 0 THEN excluded.keystroke ELSE keystroke END,
			signed    = CASE WHEN signed = 0 THEN excluded.signed ELSE signed END,
			answered  = CASE WHEN answered = 0 THEN excluded.answered ELSE answered END,
			streamed  = CASE WHEN streamed = 0 THEN excluded.streamed ELSE streamed END,
			shown     = CASE WHEN shown = 0 THEN excluded.shown ELSE shown END`,
		r.ID, nanos(s[0]), nanos(s[1]), nanos(s[2]), nanos(s[3]), nanos(s[4]))
	if err != nil {
		return fmt.Errorf("journal: route of %s: %w", r.ID, err)
	}
	return nil
}

// Routes returns every order's recorded route by client id.
func (j *Journal) Routes(ctx context.Context) (map[string]Route, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT id, keystroke, signed, answered, streamed, shown FROM routes`)
	if err != nil {
		return nil, fmt.Errorf("journal: routes: %w", err)
	}
	defer rows.Close()
	out := map[string]Route{}
	for rows.Next() {
		var r Route
		var s [5]int64
		if err := rows.Scan(&r.ID, &s[0], &s[1], &s[2], &s[3], &s[4]); err != nil {
			return nil, fmt.Errorf("journal: routes: %w", err)
		}
		r.Keystroke, r.Signed, r.Answered, r.Streamed, r.Shown = fromNanos(s[0]), fromNanos(s[1]), fromNanos(s[2]), fromNanos(s[3]), fromNanos(s[4])
		out[r.ID] = r
	}
	return out, rows.Err()
}

// algoMarketSchema keeps what the market did while an algorithm ran (the report's interval VWAP
// and volume), once measured over a tape that covered the whole interval: the exchange's tape is
// short, so a later report reads it from here.
const algoMarketSchema = `
CREATE TABLE IF NOT EXISTS algo_markets (
	id      TEXT PRIMARY KEY,
	from_ms INTEGER NOT NULL,
	to_ms   INTEGER NOT NULL,
	trades  INTEGER NOT NULL,
	volume  TEXT NOT NULL,
	vwap    TEXT NOT NULL
);
`

// SetAlgoMarket keeps the market of algorithm id's interval (once: a later call is ignored).
func (j *Journal) SetAlgoMarket(ctx context.Context, id string, m AlgoMarket) error {
	_, err := j.db.ExecContext(ctx, `INSERT OR IGNORE INTO algo_markets(id, from_ms, to_ms, trades, volume, vwap) VALUES (?, ?, ?, ?, ?, ?)`,
		id, m.From.UnixMilli(), m.To.UnixMilli(), m.Trades, m.Volume.String(), m.VWAP.String())
	if err != nil {
		return fmt.Errorf("journal: market of algorithm %s: %w", id, err)
	}
	return nil
}

// AlgoMarketOf is the kept market of algorithm id's interval, if one was kept.
func (j *Journal) AlgoMarketOf(ctx context.Context, id string) (AlgoMarket, bool, error) {
	var m AlgoMarket
	var from, to int64
	var vol, vwap string
	err := j.db.QueryRowContext(ctx, `SELECT from_ms, to_ms, trades, volume, vwap FROM algo_markets WHERE id = ?`, id).Scan(&from, &to, &m.Trades, &vol, &vwap)
	if errors.Is(err, sql.ErrNoRows) {
		return m, false, nil
	}
	if err != nil {
		return m, false, fmt.Errorf("journal: market of algorithm %s: %w", id, err)
	}
	m.From, m.To, m.Volume, m.VWAP = time.UnixMilli(from).UTC(), time.UnixMilli(to).UTC(), textDec(vol), textDec(vwap)
	return m, true, nil
}
