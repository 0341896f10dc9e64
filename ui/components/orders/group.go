package orders

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/action"
)

// groupOf is the other open orders of the algorithm o belongs to (a scale's rungs, by their
// shared client id prefix ID-n), o included; none when o is no algorithm's or alone.
func (p *Pane) groupOf(o api.OrderRecord) (string, []api.OrderRecord) {
	g := record.GroupOf(o.Cloid)
	if g == "" {
		return "", nil
	}
	var out []api.OrderRecord
	for _, x := range p.orders {
		if record.GroupOf(x.Cloid) == g {
			out = append(out, x)
		}
	}
	if len(out) < 2 {
		return "", nil
	}
	return g, out
}

// cancelGroup offers, for X on a rung, the algorithm's open orders as one: a confirmation naming
// them, then one cancel each through the executor (its journal, its lookup of a lost answer).
func cancelGroup(id string, rungs []api.OrderRecord, cancelAll string) tea.Cmd {
	what := fmt.Sprintf("cancel the %d open orders of %s", len(rungs), text.Clean(id))
	var done, failed []string
	a := &action.Action{Kind: action.KindCancelInstrument, Confirm: true, Instrument: rungs[0].InstrumentID,
		Title: "Cancel an algorithm's orders", What: what,
		Lines: []string{"Cancel the " + state.Count(len(rungs), "open order") + " of " + text.Clean(id) + " (" + text.Clean(rungs[0].Instrument) +
			", client ids " + text.Clean(id) + "-n) as one?", "", "Other orders stay; " + cancelAll + " cancels every order."},
		Refresh: []state.Kind{state.KindOrders}}
	a.Run = func(ctx context.Context, e action.Executor, ask send.Ask) (action.Outcome, error) {
		var last send.Result
		for _, o := range rungs {
			ask.What = "cancel " + o.Cloid + " of " + id
			r, err := e.Cancel(ctx, send.Cancel{InstrumentID: o.InstrumentID, Cloid: o.Cloid}, ask)
			if err != nil {
				return action.Outcome{Result: r}, err
			}
			if r.Kind == send.Cancelled {
				done = append(done, o.Cloid)
			} else {
				failed = append(failed, o.Cloid+" "+r.Kind.String())
			}
			last = r
		}
		return action.Outcome{Result: last}, nil
	}
	a.Read = func(d action.DoneMsg) (string, bool) {
		if d.Err != nil {
			return what + ": " + text.Clean(d.Err.Error()), true
		}
		s := fmt.Sprintf("cancelled %d of %d orders of %s", len(done), len(rungs), text.Clean(id))
		if len(failed) > 0 {
			return s + "; not: " + text.Clean(strings.Join(failed, ", ")), true
		}
		return s, false
	}
	return action.Request(a)
}
