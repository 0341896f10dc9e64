package api

import (
	"net/http/httptest"
	"net/url"
	"testing"
)

// ForgetBudgetAfter drops the request budget of srv's host:port when the test ends: budgets are
// per host for the process, and a later test's server may be given the same loopback port, which
// must not inherit a cool-down a 429 of this one left.
func ForgetBudgetAfter(t *testing.T, srv *httptest.Server) {
	t.Cleanup(func() {
		if u, err := url.Parse(srv.URL); err == nil {
			budgets.Delete(u.Host)
		}
	})
}

// ReadsArmNothing reports whether the live connection of s reads its frames with a context that
// is never cancelled (so coder/websocket registers nothing on a cancellable context a read), and
// whether s has a live connection at all.
func ReadsArmNothing(s *Stream) (never, live bool) {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return false, false
	}
	return c.readCtx.Done() == nil, true
}
