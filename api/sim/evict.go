package sim

import (
	"fmt"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// DefaultMaxAccounts is how many user accounts the simulator holds unless WithMaxAccounts says
// otherwise.
const DefaultMaxAccounts = 10000

// accountIdle is how long an account must have gone unused (no signed action, no query) before
// it may be forgotten.
const accountIdle = time.Hour

// evictRescan is how long the simulator waits before it looks for idle accounts again after a
// look found none, so a full simulator does not scan every account on every request.
const evictRescan = time.Minute

// accountLimit bounds the number of user accounts.
type accountLimit struct {
	max      int
	lastScan time.Time // when a scan last found nothing to forget
}

// WithMaxAccounts bounds how many user accounts the simulator holds (default DefaultMaxAccounts;
// less than 1 means the default). When a request would open one more, the simulator first
// forgets idle accounts (see evictable); when none is idle, the request is refused with 503
// and the accounts already open go on working.
func WithMaxAccounts(n int) Option { return func(c *config) { c.maxAccounts = n } }

// evictable reports whether an account may be forgotten: it has no position and no open or
// trigger order, nobody used it for accountIdle, and every nonce it signed with is older than
// the nonce window, so a replay of its old requests is refused even after it is forgotten.
// Its balance and history go with it; the address is unknown again until it is funded.
func (e *engine) evictable(a *account, now time.Time) bool {
	return !a.internal && len(a.pos) == 0 && len(a.open) == 0 && now.Sub(a.seen) >= accountIdle &&
		a.nonces.max < uint64(now.Add(-nonceBehind).UnixMilli()) && !inDebt(a)
}

// inDebt reports whether an account owes anything (a negative balance): forgetting it would
// forgive the debt.
func inDebt(a *account) bool {
	for _, m := range []map[api.CollateralID]decimal.Decimal{a.spot, a.deriv} {
		for _, v := range m {
			if v.IsNegative() {
				return true
			}
		}
	}
	return false
}

// openAccount returns the account of a canonical address for a request that acts on it (its
// funding, a transfer's destination), opening it on first sight within the account limit.
func (e *engine) openAccount(addr string) (*account, error) {
	if a := e.accounts[addr]; a != nil {
		a.seen = e.now()
		a.dirty = true
		return a, nil
	}
	if len(e.users) >= e.limit.max && !e.evictIdle() {
		return nil, &httpError{status: http.StatusServiceUnavailable, msg: fmt.Sprintf(
			"the simulator holds its limit of %d accounts and none is idle: it opens no new account now; try again later", e.limit.max)}
	}
	return e.account(addr), nil
}

// evictIdle forgets every evictable account and reports whether any was.
func (e *engine) evictIdle() bool {
	now := e.now()
	if !e.limit.lastScan.IsZero() && now.Sub(e.limit.lastScan) < evictRescan && now.After(e.limit.lastScan) {
		return false
	}
	kept := e.users[:0]
	for _, a := range e.users {
		if e.evictable(a, now) {
			e.ledger.forget(a)
			delete(e.accounts, a.addr)
			e.forgotten(a)
			continue
		}
		kept = append(kept, a)
	}
	n := len(e.users) - len(kept)
	clear(e.users[len(kept):])
	e.users = kept
	if n == 0 {
		e.limit.lastScan = now
		return false
	}
	e.limit.lastScan = time.Time{}
	return true
}
