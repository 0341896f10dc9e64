package latency

import (
	"context"
	"log/slog"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/ui/action"
)

// Routes follows each order sent from a keystroke along its route to the screen (issue #41):
// the keystroke (the last key before the action went out), the executor's signing and answer
// (exec.Result.Route), the first streamed record of the order (the feed's time of the batch that
// brought it) and the first frame drawn after it (the root's View). Every stamp is on the console's clock,
// the engine's. A complete route is kept for the session's :latency view and written to the
// journal on the next Update.
type Routes struct {
	now     func() time.Time
	keyAt   time.Time
	open    map[string]*record.Route // by client id: sent, not yet complete
	done    []record.Route           // complete, this session
	toWrite []record.Route
}

// maxOpenRoutes bounds the routes waiting for their stream record (an order the exchange
// rejected never streams); the oldest go first.
const maxOpenRoutes = 64

// maxDoneRoutes bounds the session's routes kept for the :latency view (the journal keeps all).
const maxDoneRoutes = 10_000

// NewRoutes follows routes on the clock now (the console's, the engine's).
func NewRoutes(now func() time.Time) *Routes {
	return &Routes{now: now, open: map[string]*record.Route{}}
}

// Key notes a keystroke.
func (r *Routes) Key() { r.keyAt = r.now() }

// Sent starts the routes of a's orders from the last keystroke, which it takes; it returns the
// keystroke's time (zero: no order, or no keystroke since the last action, nothing is followed).
func (r *Routes) Sent(a *action.Action) time.Time {
	if r.keyAt.IsZero() {
		return time.Time{}
	}
	var ids []string
	if a.Order.Wire.Cloid != "" {
		ids = append(ids, a.Order.Wire.Cloid)
	}
	for _, w := range a.Bracket.Wires {
		if w.Cloid != "" && w.Cloid != a.Order.Wire.Cloid {
			ids = append(ids, w.Cloid)
		}
	}
	for _, id := range ids {
		r.evictOldest()
		r.open[id] = &record.Route{ID: id, Keystroke: r.keyAt}
	}
	if len(ids) == 0 {
		return time.Time{}
	}
	at := r.keyAt
	r.keyAt = time.Time{} // one key sends one action: a later one without a key is not timed from it
	return at
}

func (r *Routes) evictOldest() {
	if len(r.open) < maxOpenRoutes {
		return
	}
	var oldest string
	for id, rt := range r.open {
		if oldest == "" || rt.Keystroke.Before(r.open[oldest].Keystroke) {
			oldest = id
		}
	}
	delete(r.open, oldest)
}

// Answered takes the executor's stamps of an action's orders.
func (r *Routes) Answered(d action.DoneMsg) {
	take := func(id string, got record.Route) {
		if rt, ok := r.open[id]; ok && !got.Answered.IsZero() {
			rt.Signed, rt.Answered = got.Signed, got.Answered
			r.complete(id)
		}
	}
	take(d.Out.Cloid, d.Out.Route)
	for _, l := range d.Out.Legs {
		take(l.Cloid, d.Out.Route) // one placeOrder: the legs share the entry's signing and answer
	}
}

// Streamed stamps the first streamed record of each followed order among a stream's batch.
func (r *Routes) Streamed(msgs []state.Msg) {
	if len(r.open) == 0 {
		return
	}
	for _, m := range msgs {
		var id string
		var at time.Time
		switch m := m.(type) {
		case state.OrderUpdateMsg:
			id, at = m.Record.Cloid, m.At
		case state.FillMsg:
			id, at = m.Fill.Cloid, m.At
		default:
			continue
		}
		if rt, ok := r.open[id]; ok && rt.Streamed.IsZero() {
			rt.Streamed = at
		}
	}
}

// Shown stamps the frame being drawn on every followed order whose streamed record it shows.
func (r *Routes) Shown() {
	if len(r.open) == 0 {
		return
	}
	var now time.Time
	for id, rt := range r.open {
		if !rt.Streamed.IsZero() && rt.Shown.IsZero() {
			if now.IsZero() {
				now = r.now()
			}
			rt.Shown = now
			r.complete(id)
		}
	}
}

// complete moves a route with every stamp to the session's and the journal's.
func (r *Routes) complete(id string) {
	rt := r.open[id]
	for _, t := range rt.Stamps() {
		if t.IsZero() {
			return
		}
	}
	delete(r.open, id)
	if len(r.done) >= maxDoneRoutes {
		r.done = r.done[1:]
	}
	r.done = append(r.done, *rt)
	r.toWrite = append(r.toWrite, *rt)
}

// Session is this session's complete routes, and how many are still on their way.
func (r *Routes) Session() ([]record.Route, int) { return r.done, len(r.open) }

// RouteBook is where routes are kept: *journal.Journal is one (journal.Journal.SetRoute).
type RouteBook interface {
	SetRoute(ctx context.Context, r record.Route) error
}

// Flush writes the routes completed since the last flush to j (nil: nowhere).
func (r *Routes) Flush(j RouteBook) tea.Cmd {
	if len(r.toWrite) == 0 || j == nil {
		r.toWrite = nil
		return nil
	}
	rs := r.toWrite
	r.toWrite = nil
	return func() tea.Msg {
		for _, rt := range rs {
			if err := j.SetRoute(context.Background(), rt); err != nil {
				slog.Warn("latency route not kept", "cloid", rt.ID, "err", err)
			}
		}
		return nil
	}
}

// Open are the routes still on their way, by client id (for a test's log).
func (r *Routes) Open() map[string]*record.Route { return r.open }
