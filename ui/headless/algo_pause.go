package headless

import (
	"context"
	"fmt"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
)

func init() {
	for _, c := range []struct{ name, summary string }{
		{"pause", "Pause a running algorithm: the process running it (a chase in another terminal, the console) cancels its working order " +
			"and sends nothing more until resumed; a restart leaves it paused."},
		{"resume", "Resume a paused algorithm: the process running it goes on; one that no process runs waits for the next start " +
			"(tradedesk algos --on-restart resume runs it)."},
	} {
		verb := c.name
		register(&command{name: "algos " + verb, groups: gEndpoint | gKey | gAgent | gWatch | gJSON, args: true, summary: c.summary, usage: "ID",
			run: func(ctx context.Context, r *runner) error { return runAlgoSwitch(ctx, r, verb) }})
	}
}

// runAlgoSwitch pauses or resumes the algorithm named by the one argument, in the journal: the
// process running it sees it at its next look.
func runAlgoSwitch(ctx context.Context, r *runner, verb string) error {
	if len(r.args) != 1 {
		return usagef("algos %s takes one algorithm id (tradedesk algos lists them)", verb)
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
	id := r.args[0]
	switchIt := algo.Pause
	if verb == "resume" {
		switchIt = algo.Resume
	}
	if err := switchIt(ctx, j, id); err != nil {
		return usagef("%v", err)
	}
	st, _ := j.AlgoState(ctx, id)
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, map[string]string{"id": id, "state": st})
	}
	_, err = fmt.Fprintf(r.env.Stdout, "%s %s: %s\n", text.Clean(id), st, switchWords[verb])
	return err
}

var switchWords = map[string]string{
	"pause":  "the process running it cancels its working order and sends nothing more until resumed",
	"resume": "the process running it goes on; if none does, the next start offers to resume it",
}
