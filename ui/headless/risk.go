package headless

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/risk"
)

func riskFlags(fs *flagSet, o *opts) {
	fs.StringVar(&o.riskWhy, "why", "", "halt: why, shown with HALTED on the status line and in refusals")
}

func init() {
	register(&command{name: "risk", groups: gEndpoint | gKey | gAgent | gWatch | gJSON, flags: riskFlags, run: runRisk, args: true,
		complete: []string{"halt", "resume"},
		usage:    "[halt [--why TEXT] | resume] [--json]",
		summary: "Show the [risk] limits, their use and the trading state (ACTIVE, REDUCING after a loss limit tripped, HALTED); " +
			"halt stops every order but cancels, resume ends a halt (refused while a loss limit has tripped today). No flag overrides a limit."})
}

// runRisk is risk, risk halt and risk resume, on the engine over the account's journal (the one
// every executor of the account enforces).
func runRisk(ctx context.Context, r *runner) error {
	what := ""
	switch {
	case len(r.args) > 1:
		return usagef("risk takes at most one of halt, resume")
	case len(r.args) == 1:
		what = r.args[0]
		if what != "halt" && what != "resume" {
			return usagef("risk %s: unknown; one of halt, resume", text.Quote(what))
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
	eng, err := risk.New(ctx, j, r.o.conn.limits(), r.env.Now)
	if err != nil {
		return err
	}
	switch what {
	case "halt":
		err = eng.Halt(ctx, text.Clean(r.o.riskWhy))
	case "resume":
		err = eng.Resume(ctx)
	}
	if err != nil {
		return err
	}
	var src risk.Source
	if x, ok := r.client.(risk.Exchange); ok {
		src = risk.ExchangeSource(x, r.client.Address())
	}
	rep, err := eng.Report(ctx, src)
	if err != nil {
		return err
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, rep)
	}
	return writeRisk(r, rep)
}

// writeRisk prints the state and each limit's use as a table.
func writeRisk(r *runner, rep risk.Report) error {
	line := "trading state: " + string(rep.State)
	if rep.Why != "" {
		line += " (" + rep.Why + ")"
	}
	if _, err := fmt.Fprintln(r.env.Stdout, line); err != nil {
		return err
	}
	if len(rep.Limits) == 0 {
		_, err := fmt.Fprintln(r.env.Stdout, "no limits set: add a [risk] table to the config file")
		return err
	}
	t := newTable("LIMIT", "VALUE>", "USED>", "PENDING")
	for _, u := range rep.Limits {
		pending := ""
		if u.Pending != nil {
			pending = fmt.Sprintf("%s from %s", u.Pending, u.PendingAt.UTC().Format(time.TimeOnly))
		}
		t.add(strings.ReplaceAll(u.Name, "_", " "), u.Limit.String(), u.Used.String(), pending)
	}
	return t.write(r.env.Stdout)
}
