package api

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestExchangeRedirectNotFollowed: an https exchange answers every signed action with a 307 or
// 308 to a plain-http server on another port (or to its own other path). Nothing reaches the
// target; each call fails as ambiguous with a message that says to look the action up by cloid
// and not to resend. Guards the /exchange client's CheckRedirect (Go follows 307/308 with the
// body by default).
func TestExchangeRedirectNotFollowed(t *testing.T) {
	var hits atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"tx_hash":"0x1","data":{"status":[{"resting":{"oid":1}}]}}`))
	}))
	t.Cleanup(target.Close)
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, to := range []string{target.URL + "/exchange", "/elsewhere"} {
			src := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/elsewhere" { // /info follows redirects on the same host
					if body, _ := io.ReadAll(r.Body); strings.Contains(string(body), "signature") {
						hits.Add(1)
					}
					_, _ = w.Write([]byte(`[]`))
					return
				}
				http.Redirect(w, r, to, status)
			}))
			c := newTestClient(t, src.URL, WithHTTPClient(src.Client()))
			for method, err := range everyCall(c) {
				if !exchangeCalls[method] {
					continue
				}
				e, ok := AsError(err)
				if !ok || !e.Ambiguous() || e.Status != status {
					t.Fatalf("%d to %s, %s: %v, want an ambiguous %d", status, to, method, err, status)
				}
				msg := err.Error()
				for _, want := range []string{"redirected", "may or may not have been executed", "look it up by its cloid", "never resend"} {
					if !strings.Contains(msg, want) {
						t.Errorf("%s: message %q does not say %q", method, msg, want)
					}
				}
			}
			src.Close()
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the redirect's target", n)
	}
}

// TestInfoRedirectStaysOnOrigin: /info follows a redirect on the same scheme and host, and
// refuses one to another port or to plain http, without retrying it.
func TestInfoRedirectStaysOnOrigin(t *testing.T) {
	var hits atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(target.Close)
	src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/info":
			http.Redirect(w, r, target.URL+"/info", http.StatusTemporaryRedirect)
		case "/moved/info":
			_, _ = w.Write([]byte(`[]`))
		}
	}))
	t.Cleanup(src.Close)
	c := New(src.URL, WithRetry(RetryPolicy{Attempts: 3}))
	_, err := c.Ticker(context.Background(), "all")
	e, ok := AsError(err)
	if !ok || e.Temporary() || !strings.Contains(err.Error(), "another host or scheme") {
		t.Fatalf("redirect to another port: %v", err)
	}
	if hits.Load() != 0 {
		t.Errorf("the redirect's target was asked")
	}
	same := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/info" {
			http.Redirect(w, r, "/moved/info", http.StatusPermanentRedirect)
			return
		}
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(same.Close)
	if _, err := New(same.URL).Ticker(context.Background(), "all"); err != nil {
		t.Errorf("a redirect on the same host: %v", err)
	}
}
