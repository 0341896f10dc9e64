package headless

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Alerting is the config file's alert settings: its [[alert]] rules (seeded into the journal),
// the on_alert command and the webhook.
type Alerting struct {
	Rules   []alert.Rule
	Command []string
	Webhook string
}

// alertGroups: the journal of a network and account, as `journal` reads it.
const alertGroups = gEndpoint | gKey | gAgent | gWatch | gJSON

func init() {
	register(&command{name: "alert add", groups: alertGroups, run: runAlertAdd, args: true,
		usage: "RULE... (btc > 100000, eth liq < 5%, margin > 80%, fills, stream down > 30s)",
		summary: "Add an alert definition to the journal of this network and account (`tradedesk alerts watch` and the console " +
			"fire it). The grammar: " + alert.Grammar + "."})
	register(&command{name: "alert list", groups: alertGroups, run: runAlertList,
		usage: "[--json]", summary: "List the alert definitions: id, rule, where it came from, when it last fired."})
	register(&command{name: "alert rm", groups: alertGroups, run: runAlertRemove, args: true,
		usage: "ID", summary: "Remove an alert definition by its id (alert list shows them)."})
}

// alertJournal opens the journal and seeds the config's [[alert]] rules into it.
func (r *runner) alertJournal(ctx context.Context) (*journal.Journal, error) {
	path, err := r.journalPath()
	if err != nil {
		return nil, err
	}
	j, err := journal.Open(path)
	if err != nil {
		return nil, err
	}
	if a := r.o.conn.Alerting; a != nil {
		if err := alert.Seed(ctx, j, a.Rules); err != nil {
			_ = j.Close()
			return nil, err
		}
	}
	return j, nil
}

func runAlertAdd(ctx context.Context, r *runner) error {
	if len(r.args) == 0 {
		return usagef("alert add needs a rule, such as: tradedesk alert add 'btc > 100000'")
	}
	rule, err := alert.Parse(strings.Join(r.args, " "))
	if err != nil {
		return usagef("%v", err)
	}
	j, err := r.alertJournal(ctx)
	if err != nil {
		return err
	}
	defer j.Close()
	added, err := alert.Save(ctx, j, rule, alert.OriginUser)
	if err != nil {
		return err
	}
	word := "added"
	if !added {
		word = "already there"
	}
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, alertJSON{ID: rule.ID, Rule: rule.Canon(), Origin: alert.OriginUser, Added: added})
	}
	_, err = fmt.Fprintf(r.env.Stdout, "alert %s %s: %s\n", rule.ID, word, text.Clean(rule.Canon()))
	return err
}

// alertJSON is one definition in `alert list --json` (and `alert add --json`).
type alertJSON struct {
	ID        string     `json:"id"`
	Rule      string     `json:"rule"`
	Origin    string     `json:"origin"`
	Created   time.Time  `json:"created"`
	LastFired *time.Time `json:"last_fired,omitempty"`
	Added     bool       `json:"added,omitempty"`
}

func runAlertList(ctx context.Context, r *runner) error {
	j, err := r.alertJournal(ctx)
	if err != nil {
		return err
	}
	defer j.Close()
	defs, err := j.Alerts(ctx)
	if err != nil {
		return err
	}
	out := make([]alertJSON, 0, len(defs))
	t := newTable("ID", "RULE", "FROM", "LAST FIRED")
	for _, d := range defs {
		a := alertJSON{ID: d.ID, Rule: text.Clean(d.Rule), Origin: d.Origin, Created: d.Created}
		fired := "never"
		if !d.LastFired.IsZero() {
			a.LastFired, fired = &d.LastFired, d.LastFired.Local().Format("2006-01-02 15:04:05")
		}
		out = append(out, a)
		t.add(a.ID, a.Rule, a.Origin, fired)
	}
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, out)
	}
	if len(defs) == 0 {
		_, err := fmt.Fprintln(r.env.Stdout, "no alerts; add one with: tradedesk alert add 'btc > 100000'")
		return err
	}
	return t.write(r.env.Stdout)
}

func runAlertRemove(ctx context.Context, r *runner) error {
	if len(r.args) != 1 {
		return usagef("alert rm takes one id (tradedesk alert list shows them)")
	}
	j, err := r.alertJournal(ctx)
	if err != nil {
		return err
	}
	defer j.Close()
	gone, err := j.RemoveAlert(ctx, r.args[0])
	if err != nil {
		return err
	}
	if !gone {
		return fmt.Errorf("no alert %s; tradedesk alert list shows the ids", text.Quote(r.args[0]))
	}
	_, err = fmt.Fprintf(r.env.Stdout, "alert %s removed\n", text.Clean(r.args[0]))
	return err
}
