package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindAccount is the account summary.
var KindAccount = newKind("account", 10*time.Second, func() any { return &accountData{} })

type accountData struct {
	summary  api.AccountSummary
	streamed time.Time // when the last streamed summary was received (see Order)
}

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

func (m AccountMsg) apply(s *Store, o Order) bool {
	d := s.data(KindAccount).(*accountData)
	if d.streamed.After(o.At) {
		return false // the poll was sent before the streamed summary arrived: it is older
	}
	return replace(&d.summary, m.Summary)
}

// Account returns the account summary (the zero value until one arrives).
func (s *Store) Account() api.AccountSummary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.account()
}

// AccountUpdateMsg carries the account summary as the stream sent it: it replaces the summary, and
// a poll sent before it was received cannot take it back.
type AccountUpdateMsg struct {
	At      time.Time // when it was received
	Summary api.AccountSummary
}

// Kind implements Msg.
func (AccountUpdateMsg) Kind() Kind { return KindAccount }

// Order implements Msg.
func (m AccountUpdateMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m AccountUpdateMsg) apply(s *Store, o Order) bool {
	d := s.data(KindAccount).(*accountData)
	d.streamed = o.At
	return replace(&d.summary, m.Summary)
}
