package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindBrokers is the account's broker approvals. (The shortest kind: copy this file to add one;
// see Store.)
var KindBrokers = newKind("brokers", 15*time.Minute, func() any { return &brokerData{} })

type brokerData struct{ list []api.BrokerApproval }

// BrokersMsg carries one page of the account's broker approvals (page 1 replaces, later pages append).
type BrokersMsg struct {
	Gen  uint64
	At   time.Time
	Page api.Page[api.BrokerApproval]
}

// Kind implements Msg.
func (BrokersMsg) Kind() Kind { return KindBrokers }

// Order implements Msg.
func (m BrokersMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m BrokersMsg) apply(s *Store, _ Order) bool {
	d := s.data(KindBrokers).(*brokerData)
	if m.Page.Page <= 1 {
		d.list = m.Page.Data
		return true
	}
	out := make([]api.BrokerApproval, 0, len(d.list)+len(m.Page.Data))
	d.list = append(append(out, d.list...), m.Page.Data...)
	return true
}

// Brokers returns the broker approvals loaded so far.
func (s *Store) Brokers() []api.BrokerApproval {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindBrokers).(*brokerData).list
}
