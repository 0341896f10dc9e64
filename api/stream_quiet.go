package api

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// The exchange writes a market step as many notifications in one write (a ticker, the mids, a
// book per market, trades), and the reader queues each notification's records as it decodes it.
// Signalling the inbox at the first would hand the consumer the step in two or more batches, each
// applied and drawn (issue #34: the idle demo drew twice a step, the 500-market one up to four
// times). So a connection whose socket can say so (quietConn) signals its records when the reader
// has taken everything the network delivered: just before a read that would wait. The signal is
// never later than that: every record queued is signalled before the reader waits on the network
// again, and a connection that ends says so with its status, which signals too.

// quietSignal is the signal a connection's reader owes the stream's inbox for records it queued
// without one.
type quietSignal struct {
	in   *Inbox
	on   atomic.Bool // the connection can tell a read that would wait (newQuietConn)
	owed atomic.Bool
}

// holds reports whether records should be queued without a signal, owed until the reader waits.
func (q *quietSignal) holds() bool { return q != nil && q.on.Load() }

// owe notes records queued without a signal.
func (q *quietSignal) owe() { q.owed.Store(true) }

// pay signals the records owed, if any: the reader is about to wait on the network.
func (q *quietSignal) pay() {
	if q.owed.Swap(false) {
		q.in.signalWaiting()
	}
}

// dialClient is the HTTP client a connection is opened with: the stream's, with a transport whose
// connections pay q before a read that would wait (on a platform or connection that cannot tell,
// the connection is used as it is and q never holds: see streamConn.deliver).
func (s *Stream) dialClient(q *quietSignal) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		qc, ok := newQuietConn(c, q.pay)
		q.on.Store(ok)
		return qc, nil
	}
	hc := *s.cfg.hc
	hc.Transport = t
	return &hc
}
