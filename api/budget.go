package api

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// BudgetLimits is a host's request budget: Capacity weight units held at most, refilled at
// PerSecond, of which Reserve only trading and reconciliation (signed /exchange requests) may
// spend, so a place or cancel never waits behind polls. PerSecond 0 leaves requests unmetered
// (the 429 cool-down still holds).
type BudgetLimits struct {
	Capacity, PerSecond, Reserve float64
}

// DefaultBudget is every exchange client's budget (Resolved.Options, so the console and the
// headless commands alike): a console's cold start (about 30 requests) goes out at once, its polls
// keep well under the rate, and a quarter of the capacity is kept for orders and cancels.
var DefaultBudget = BudgetLimits{Capacity: 60, PerSecond: 20, Reserve: 15}

// WithRequestBudget meters the client's requests to its host with limits, a budget shared by
// every client of that host in the process (the console's polls, its orders, a second client).
func WithRequestBudget(l BudgetLimits) Option { return func(c *Client) { c.budgetLimits = &l } }

// hostBudget is one host's shared budget: the weight left, and the 429 cool-down every request
// to the host waits out.
type hostBudget struct {
	mu     sync.Mutex
	limits BudgetLimits
	level  float64
	last   time.Time
	until  time.Time // no request goes out before (a 429's Retry-After)
}

var budgets sync.Map // host -> *hostBudget

// budgetFor is the budget of baseURL's host, created on first use; limits, when given, replace
// the host's.
func budgetFor(baseURL string, limits *BudgetLimits) *hostBudget {
	host := baseURL
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		host = u.Host
	}
	v, _ := budgets.LoadOrStore(host, &hostBudget{})
	b := v.(*hostBudget)
	if limits != nil {
		b.mu.Lock()
		b.limits, b.level, b.last = *limits, limits.Capacity, time.Now()
		b.mu.Unlock()
	}
	return b
}

// defaultCoolDown is the wait after a 429 that names none.
const defaultCoolDown = time.Second

// take waits until the host is out of its cool-down and weight is left above the floor (zero for
// trading, the reserve for the rest), and spends it. A cool-down with more than maxWait left is not
// waited for: the request is not sent, and the error says so with the time left (RetryAfter), for
// the caller's backoff; ctx ending first is its error.
func (b *hostBudget) take(ctx context.Context, op string, weight float64, trading bool, maxWait time.Duration) *Error {
	for {
		wait, cooling := b.try(weight, trading)
		if wait <= 0 {
			return nil
		}
		if cooling && wait > maxWait {
			return &Error{Kind: KindHTTP, Op: op, Status: http.StatusTooManyRequests, RetryAfter: wait,
				Message: "not sent: the exchange rate-limited this host (HTTP 429) and asked for a pause"}
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return transportError(ctx, op, err)
		}
	}
}

// try spends weight if it can, else says how long to wait before trying again, and whether that
// is the 429 cool-down.
func (b *hostBudget) try(weight float64, trading bool) (time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if now.Before(b.until) {
		return b.until.Sub(now), true
	}
	l := b.limits
	if l.PerSecond <= 0 {
		return 0, false
	}
	b.level = min(l.Capacity, b.level+now.Sub(b.last).Seconds()*l.PerSecond)
	b.last = now
	floor := l.Reserve
	if trading {
		floor = 0
	}
	if b.level-weight >= floor {
		b.level -= weight
		return 0, false
	}
	return max(time.Duration((floor+weight-b.level)/l.PerSecond*float64(time.Second)), time.Millisecond), false
}

// coolDown holds every request to the host until d from now (a 429's Retry-After; a 429 without
// one waits defaultCoolDown).
func (b *hostBudget) coolDown(d time.Duration) {
	if d <= 0 {
		d = defaultCoolDown
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if until := time.Now().Add(d); until.After(b.until) {
		b.until = until
	}
}

// requestWeight is what one request costs: a page of records or candles more than a point query.
func requestWeight(op string) float64 {
	switch op {
	case "info " + MethodFills, "info " + MethodOrderHistory, "info " + MethodChart:
		return 2
	}
	return 1
}
