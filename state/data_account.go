package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindAccount is the account summary.
var KindAccount = newKind("account", 10*time.Second, func() any { return &accountData{} })

type accountData struct{ summary api.AccountSummary }

// account is the account summary, without the lock.
func (s *Store) account() api.AccountSummary { return s.data(KindAccount).(*accountData).summary }

// AccountMsg carries the account summary (it replaces the summary).
type AccountMsg struct {
	Gen     uint64
	At      time.Time
	Summary api.AccountSummary
}

// Kind implements Msg.
func (AccountMsg) Kind() Kind { return KindAccount }

// Order implements Msg.
func (m AccountMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m AccountMsg) apply(s *Store, _ Order) bool {
	return replace(&s.data(KindAccount).(*accountData).summary, m.Summary)
}

// Account returns the account summary (the zero value until one arrives).
func (s *Store) Account() api.AccountSummary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.account()
}
