package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

func journalFlags(fs *flagSet, o *opts) {
	fs.IntVar(&o.limit, "limit", 20, "how many of the latest intents to list")
}

func init() {
	register(&command{name: "journal", groups: gEndpoint | gKey | gAgent | gWatch | gJSON, flags: journalFlags, run: runJournal,
		usage: "[--limit N] [--json]",
		summary: "List the latest intents of the write-ahead journal (one file per network and account under the state directory): " +
			"what was asked, by whom, its client ids, nonce and expiry, and what became of it. It reads the file only."})
}

// journalPath is the journal file of the command's network and account.
func (r *runner) journalPath() (string, error) {
	dir := StateDir(&r.env)
	if dir == "" {
		return "", errors.New("no state directory for the journal: set XDG_STATE_HOME or HOME")
	}
	if r.client.Address() == "" {
		return "", usagef("no account: give a key (--keystore FILE or TRADEDESK_PRIVATE_KEY) or --address ADDR")
	}
	return journal.ProfilePath(dir, r.network, r.client.Address(), r.o.conn.Profile), nil
}

// recoveredExecutor is the executor once what an earlier run left open is settled
// (exec.OpenRecovered, the construction the console shares): every command that sends opens it,
// so nothing new goes out before the journal's restart rule has run. It says on stderr what it
// found; close closes the journal.
func (r *runner) recoveredExecutor(ctx context.Context) (e *exec.Executor, close func(), err error) {
	if _, err := r.journalPath(); err != nil {
		return nil, nil, err
	}
	e, found, err := exec.OpenRecovered(ctx, exec.Setup{Dir: StateDir(&r.env), Network: r.network, Profile: r.o.conn.Profile,
		Config: r.execConfig()})
	r.sayFound(found)
	if err != nil {
		return nil, nil, err
	}
	return e, func() { _ = e.Close() }, nil
}

// execConfig is the executor's configuration for the run: the client, the clock, the guard and
// the limits, and how a lost answer is looked up (Env.Skew, Env.LookupGrace, Env.LookupWait).
func (r *runner) execConfig() exec.Config {
	guard := r.o.conn.guard()
	return exec.Config{Send: r.client, Read: r.client, Account: r.client.Address(), Now: r.env.Now, Guard: &guard,
		Limits: r.o.conn.limits(), Skew: r.env.Skew, LookupGrace: r.env.LookupGrace,
		LookupWait: r.env.LookupWait}
}

// sayFound says on stderr what the journal's restart rule found of an earlier run.
func (r *runner) sayFound(found []exec.Found) {
	for _, f := range found {
		res := f.Result
		line := fmt.Sprintf("journal: %s %s (%s, %s): %s", f.Entry.Intent.Kind, f.Entry.Intent.ID, f.Entry.Intent.What, f.Entry.Intent.Who, res.Kind)
		if res.Outcome.Oid > 0 {
			line += fmt.Sprintf(", order %d", res.Outcome.Oid)
		}
		if res.Reason != "" {
			line += ": " + res.Reason
		}
		fmt.Fprintln(r.env.Stderr, line)
	}
}

// journalJSON is one intent in `journal --json`.
type journalJSON struct {
	ID           string    `json:"id"`
	Parent       string    `json:"parent,omitempty"`
	Kind         string    `json:"kind"`
	Who          string    `json:"who"`
	What         string    `json:"what"`
	Cloids       []string  `json:"cloids"`
	State        string    `json:"state"`
	Created      time.Time `json:"created"`
	Action       string    `json:"action,omitempty"`
	Nonce        uint64    `json:"nonce,omitempty"`
	ExpiresAfter uint64    `json:"expires_after,omitempty"`
	// Request is the action's data as it was signed (an addAgent's proof left out): what to check
	// by hand when the outcome is unknown.
	Request json.RawMessage `json:"request,omitempty"`
	Outcome string          `json:"outcome,omitempty"`
	Settled bool            `json:"settled"`
	Oid     uint64          `json:"oid,omitempty"`
	Detail  string          `json:"detail,omitempty"`
}

func runJournal(ctx context.Context, r *runner) error {
	if r.o.limit < 1 {
		return usagef("--limit %d: give a positive number", r.o.limit)
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
	es, err := j.Recent(ctx, r.o.limit)
	if err != nil {
		return err
	}
	if r.o.json {
		out := make([]journalJSON, 0, len(es))
		for _, e := range es {
			out = append(out, journalEntryJSON(e))
		}
		return writeJSON(r.env.Stdout, out)
	}
	t := newTable("CREATED", "KIND", "WHO", "WHAT", "CLIENT ID", "STATE", "OUTCOME", "ORDER ID>", "DETAIL")
	for _, e := range es {
		j := journalEntryJSON(e)
		oid := "-"
		if j.Oid > 0 {
			oid = strconv.FormatUint(j.Oid, 10)
		}
		outcome := j.Outcome
		if outcome == "" {
			outcome = "-"
		}
		t.add(e.Created.Local().Format("2006-01-02 15:04:05"), j.Kind, j.Who, text.Clean(j.What), firstOr(j.Cloids, "-"), j.State, outcome, oid, text.Clean(j.Detail))
	}
	return t.write(r.env.Stdout)
}

func journalEntryJSON(e journal.Entry) journalJSON {
	out := journalJSON{ID: e.Intent.ID, Parent: e.Intent.Parent, Kind: e.Intent.Kind, Who: string(e.Intent.Who), What: e.Intent.What,
		Cloids: e.Intent.Cloids, State: string(e.State), Created: e.Created.UTC(), Action: e.Action, Nonce: e.Nonce, ExpiresAfter: e.ExpiresAfter, Request: e.Request}
	if out.Cloids == nil {
		out.Cloids = []string{}
	}
	if o := e.Outcome; o != nil {
		out.Outcome, out.Settled, out.Oid, out.Detail = o.Kind, o.Settled, o.Oid, o.Detail
	}
	return out
}

func firstOr(s []string, or string) string {
	if len(s) == 0 {
		return or
	}
	return s[0]
}
