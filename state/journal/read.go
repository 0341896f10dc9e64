package journal

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

const columns = `seq, id, parent, kind, who, what, cloids, state, created_ms, action, nonce, expires_after, request, sent_ms,
	outcome, settled, oid, detail, resolved_ms`

// Unresolved lists, oldest first, the intents that may have reached the exchange and whose
// outcome is not settled: committed as sent, with no outcome or an unknown one.
func (j *Journal) Unresolved(ctx context.Context) ([]Entry, error) {
	return j.query(ctx, `SELECT `+columns+` FROM intents WHERE state=? AND settled=0 ORDER BY seq`, string(StateSent))
}

// Unsent lists, oldest first, the intents begun but never signed that have no outcome: a
// process stopped between Begin and Sent. None of them reached the exchange.
func (j *Journal) Unsent(ctx context.Context) ([]Entry, error) {
	return j.query(ctx, `SELECT `+columns+` FROM intents WHERE state=? AND settled=0 ORDER BY seq`, string(StateNew))
}

// Recent lists the n latest intents, newest first.
func (j *Journal) Recent(ctx context.Context, n int) ([]Entry, error) {
	return j.query(ctx, `SELECT `+columns+` FROM intents ORDER BY seq DESC LIMIT ?`, n)
}

// Get is the intent id ("" found false when the journal has none).
func (j *Journal) Get(ctx context.Context, id string) (Entry, bool, error) {
	es, err := j.query(ctx, `SELECT `+columns+` FROM intents WHERE id=?`, id)
	if err != nil || len(es) == 0 {
		return Entry{}, false, err
	}
	return es[0], true, nil
}

func (j *Journal) query(ctx context.Context, q string, args ...any) ([]Entry, error) {
	rows, err := j.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func scan(rows *sql.Rows) (Entry, error) {
	var (
		e                           Entry
		who, state, cloids, request string
		created, sent, resolved     int64
		nonce, expires, oid         int64
		outcome                     sql.NullString
		settled                     bool
		detail                      string
	)
	err := rows.Scan(&e.Seq, &e.Intent.ID, &e.Intent.Parent, &e.Intent.Kind, &who, &e.Intent.What, &cloids, &state, &created,
		&e.Action, &nonce, &expires, &request, &sent, &outcome, &settled, &oid, &detail, &resolved)
	if err != nil {
		return e, err
	}
	e.Intent.Who, e.State = Who(who), State(state)
	_ = json.Unmarshal([]byte(cloids), &e.Intent.Cloids)
	e.Created, e.Nonce, e.ExpiresAfter = time.UnixMilli(created), uint64(nonce), uint64(expires)
	if request != "" {
		e.Request = json.RawMessage(request)
	}
	if sent > 0 {
		e.Sent = time.UnixMilli(sent)
	}
	if outcome.Valid {
		e.Outcome = &Outcome{Kind: outcome.String, Settled: settled, Oid: uint64(oid), Detail: detail}
		e.Resolved = time.UnixMilli(resolved)
	}
	return e, nil
}

// newID is a random UUID (version 4), the shape of tradedesk's own client ids.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
