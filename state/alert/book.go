package alert

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/record"
)

// Book is where alert definitions are kept: *journal.Journal is one. Taking it, not the journal
// itself, keeps SQLite out of a package that only reads and writes definitions.
type Book interface {
	PutAlert(ctx context.Context, d record.AlertDef) (bool, error)
	Alerts(ctx context.Context) ([]record.AlertDef, error)
	RemoveAlert(ctx context.Context, id string) (bool, error)
	AlertFired(ctx context.Context, id string, at time.Time) error
}

// Where a definition came from (record.AlertDef.Origin).
const (
	OriginConfig = "config" // an [[alert]] table
	OriginUser   = "user"   // added by a trader (:alert, the Alerts form, tradedesk alert add)
)

// Seed puts the config's rules into the journal (a rule already there stays as it is), the one
// way every front end starts.
func Seed(ctx context.Context, j Book, rules []Rule) error {
	for _, r := range rules {
		if _, err := Save(ctx, j, r, OriginConfig); err != nil {
			return err
		}
	}
	return nil
}

// Save adds r to the journal's definitions, reporting whether it was new.
func Save(ctx context.Context, j Book, r Rule, origin string) (bool, error) {
	if r.ID == "" {
		r.ID = StableID(r)
	}
	return j.PutAlert(ctx, record.AlertDef{ID: r.ID, Rule: r.Canon(), Origin: origin})
}

// Stored is one definition the journal holds, read back.
type Stored struct {
	Rule
	Def record.AlertDef
}

// Load reads the journal's definitions. One that no longer parses (written by another version)
// is an error that names it, so it can be removed.
func Load(ctx context.Context, j Book) ([]Stored, error) {
	defs, err := j.Alerts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Stored, 0, len(defs))
	for _, d := range defs {
		r, err := Parse(d.Rule)
		if err != nil {
			return nil, fmt.Errorf("journal alert %s: %w; remove it with `tradedesk alert rm %s`", text.Quote(d.ID), err, text.Brief(d.ID))
		}
		r.ID = d.ID
		out = append(out, Stored{Rule: r, Def: d})
	}
	return out, nil
}

// Rules are the rules of stored definitions.
func Rules(st []Stored) []Rule {
	out := make([]Rule, len(st))
	for i, s := range st {
		out[i] = s.Rule
	}
	return out
}
