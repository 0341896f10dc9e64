package exec

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// routing stamps an order's way from the keystroke (the report's latency route): the keystroke
// the caller saw, the signing and the answer, on the caller's clock. nil: no keystroke, nothing
// is stamped.
type routing struct {
	now    func() time.Time
	cloids []string
	mu     sync.Mutex
	r      journal.Route
}

// routing is the route of the orders cloids an ask sends (nil without a keystroke).
func (e *Executor) routing(ask Ask, cloids ...string) *routing {
	if ask.Keystroke.IsZero() || len(cloids) == 0 {
		return nil
	}
	now := ask.Clock
	if now == nil {
		now = e.cfg.Now
	}
	return &routing{now: now, cloids: cloids, r: journal.Route{ID: cloids[0], Keystroke: ask.Keystroke}}
}

// watch is ctx with the signing stamped.
func (rt *routing) watch(ctx context.Context) context.Context {
	if rt == nil {
		return ctx
	}
	return api.WithSigned(ctx, func() {
		at := rt.now()
		rt.mu.Lock()
		rt.r.Signed = at
		rt.mu.Unlock()
	})
}

// answered stamps the exchange's answer (or its failure) and records the route of each order in
// the journal; it returns the first order's. A journal that cannot write it loses a measurement,
// never an order: the failure is logged.
func (rt *routing) answered(ctx context.Context, j *journal.Journal) journal.Route {
	if rt == nil {
		return journal.Route{}
	}
	at := rt.now()
	rt.mu.Lock()
	rt.r.Answered = at
	r := rt.r
	rt.mu.Unlock()
	if r.Signed.IsZero() {
		return r // never signed: there is no route to keep
	}
	for _, id := range rt.cloids {
		one := r
		one.ID = id
		if err := j.SetRoute(context.WithoutCancel(ctx), one); err != nil {
			slog.Warn("latency route not kept", "cloid", id, "err", err)
		}
	}
	return r
}
