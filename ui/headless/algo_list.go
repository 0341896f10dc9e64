package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
)

func algosFlags(fs *flagSet, o *opts) {
	fs.text(&o.cloid, "cancel", "ID", "cancel every open order of this algorithm (a scale's rungs, a chase's kept order)")
	onRestartFlag(fs, o)
}

// algoJSON is one algorithm in `algos --json`.
type algoJSON struct {
	ID       string          `json:"id"`
	Kind     string          `json:"kind"`
	State    string          `json:"state"`
	Children int             `json:"children"`
	Created  time.Time       `json:"created"`
	Updated  time.Time       `json:"updated"`
	Detail   string          `json:"detail,omitempty"`
	Params   json.RawMessage `json:"params"`
}

func runAlgos(ctx context.Context, r *runner) error {
	if r.o.cloid != "" || r.o.algo.onRestart != "" {
		if !r.client.CanTrade() {
			return usagef("--cancel and --on-restart send: give a key (--keystore FILE or TRADEDESK_PRIVATE_KEY)")
		}
		d, done, err := r.algoDeps(ctx, nil)
		if err != nil {
			return err
		}
		defer done()
		if err := r.leftRunning(ctx, d); err != nil {
			return err
		}
		if id := r.o.cloid; id != "" {
			n, err := algo.CancelGroup(ctx, d, id)
			fmt.Fprintf(r.env.Stderr, "cancelled %d open order(s) of %s\n", n, text.Clean(id))
			if err != nil {
				return err
			}
		}
	}
	path, err := r.journalPath()
	if err != nil {
		return err
	}
	j, err := journal.Open(path)
	if err != nil {
		return err
	}
	defer j.Close()
	all, err := j.Algos(ctx, false)
	if err != nil {
		return err
	}
	out := make([]algoJSON, 0, len(all))
	for _, a := range all {
		out = append(out, algoJSON{ID: a.ID, Kind: a.Kind, State: a.State, Children: a.Children, Created: a.Created.UTC(),
			Updated: a.Updated.UTC(), Detail: a.Detail, Params: a.Params})
	}
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, out)
	}
	t := newTable("CREATED", "KIND", "ID", "STATE", "CHILDREN>", "DETAIL")
	for _, a := range out {
		t.add(a.Created.Local().Format("2006-01-02 15:04:05"), a.Kind, text.Clean(a.ID), a.State, fmt.Sprint(a.Children), text.Clean(a.Detail))
	}
	return t.write(r.env.Stdout)
}
