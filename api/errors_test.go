package api

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type errCase struct {
	name      string
	status    int
	header    map[string]string
	body      string
	kind      ErrorKind
	msg       string
	ambiguous bool // for /exchange
}

func errCases() []errCase {
	return []errCase{
		{name: "500 error body", status: 500, body: `{"error":"internal failure"}`, kind: KindHTTP, msg: "internal failure"},
		{name: "400 type error", status: 400, body: `{"type":"error","message":"bad params"}`, kind: KindHTTP, msg: "bad params"},
		{name: "401 text", status: 401, body: "unauthorized\n", kind: KindHTTP, msg: "unauthorized"},
		{name: "502 html", status: 502, body: "<html>bad gateway</html>", kind: KindHTTP, msg: "<html>bad gateway</html>", ambiguous: true},
		{name: "2xx error", status: 200, body: `{"error":"invalid order signer"}`, kind: KindServer, msg: "invalid order signer"},
		{name: "2xx type error", status: 200, body: `{"type":"error","message":"nonce too old"}`, kind: KindServer, msg: "nonce too old"},
		{name: "2xx not json", status: 200, body: "OK", kind: KindNotJSON, msg: "OK", ambiguous: true},
		{name: "2xx empty", status: 200, body: "", kind: KindNotJSON, msg: "empty body", ambiguous: true},
		{name: "oversize", status: 200, body: `{"x":"` + strings.Repeat("a", 300) + `"}`, kind: KindTooLarge, ambiguous: true},
		{name: "429", status: 429, header: map[string]string{"Retry-After": "7"}, body: `{"error":"slow down"}`, kind: KindHTTP, msg: "slow down"},
	}
}

func serve(c errCase) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		for k, v := range c.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(c.status)
		_, _ = w.Write([]byte(c.body))
	}
}

// TestErrorForms: each answer's error, from /info and from /exchange. Each endpoint is asked on
// a host of its own: the 429 cools its whole host for its Retry-After (TestA429CoolsTheWholeHost),
// which an /exchange call to the same host would wait out before meeting the same answer.
func TestErrorForms(t *testing.T) {
	for _, tc := range errCases() {
		t.Run(tc.name, func(t *testing.T) {
			info, exchange := newRecorder(t, serve(tc)), newRecorder(t, serve(tc))
			_, err := newTestClient(t, info.srv.URL, WithMaxBody(200)).Ticker(context.Background(), "")
			checkErr(t, err, tc, false)
			_, err = newTestClient(t, exchange.srv.URL, WithMaxBody(200)).CancelAll(context.Background())
			checkErr(t, err, tc, tc.ambiguous)
			if info.count() != 1 || exchange.count() != 1 {
				t.Fatalf("%d /info and %d /exchange requests, want one each", info.count(), exchange.count())
			}
		})
	}
}

func checkErr(t *testing.T, err error, tc errCase, ambiguous bool) {
	t.Helper()
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("error %v (%T), want *Error", err, err)
	}
	if e.Kind != tc.kind || e.Status != tc.status || (tc.msg != "" && e.Message != tc.msg) || e.Ambiguous() != ambiguous {
		t.Fatalf("got kind %v status %d msg %q ambiguous %v; want %v %d %q %v (%v)",
			e.Kind, e.Status, e.Message, e.Ambiguous(), tc.kind, tc.status, tc.msg, ambiguous, e)
	}
	if tc.status == 429 && (!e.RateLimited() || e.RetryAfter != 7*time.Second || !strings.Contains(e.Error(), "retry after 7s")) {
		t.Fatalf("429: %v retry after %v", e, e.RetryAfter)
	}
	if tc.status == 401 && !e.Unauthorized() {
		t.Fatal("401 not Unauthorized")
	}
}

func TestTxResponseErrorFieldIsAnError(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		_, _ = w.Write([]byte(`{"tx_hash":"","tx_type":1301,"error":"insufficient margin","data":{},"address":"` + testAddr + `"}`))
	})
	c := newTestClient(t, rec.srv.URL)
	resp, err := c.PlaceOrders(context.Background(), []OrderWire{{InstrumentID: 1, Side: "b", PositionSide: "BOTH", Price: "1", Size: "1", Tif: "GTC"}})
	e, ok := AsError(err)
	if !ok || e.Kind != KindServer || e.Message != "insufficient margin" || e.Ambiguous() || resp.TxType != 1301 {
		t.Fatalf("%v %+v", err, resp)
	}
	rec.handle = func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		_, _ = w.Write([]byte(`{"tx_hash":"0x1","tx_type":1302,"success":false,"data":{"status":[{"error":"order not found"}]}}`))
	}
	resp, err = c.CancelByOid(context.Background(), []CancelOid{{Oid: 1, InstrumentID: 1}})
	if e, ok := AsError(err); !ok || e.Kind != KindServer || e.Message != "1 of 1 cancels failed (cancel 1: order not found)" {
		t.Fatalf("success false: %v", err)
	}
	if sts, _ := resp.CancelStatuses(); len(sts) != 1 || sts[0].OK || sts[0].Error != "order not found" {
		t.Fatalf("statuses %+v", sts)
	}
}

func TestDecodeErrorIsStrict(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		_, _ = w.Write([]byte(`[{"symbol":"BTC-PERP","mid_price":"50,010"}]`))
	})
	c := newTestClient(t, rec.srv.URL)
	_, err := c.Mids(context.Background(), "")
	if e, ok := AsError(err); !ok || e.Kind != KindDecode || e.Status != 200 {
		t.Fatalf("malformed price: %v", err)
	}
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	arrived := make(chan struct{}, 10)
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		arrived <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	c := newTestClient(t, rec.srv.URL, WithTimeout(50*time.Millisecond))
	_, err := c.Mids(context.Background(), "")
	if e, ok := AsError(err); !ok || e.Kind != KindTimeout || e.Ambiguous() || !e.Temporary() {
		t.Fatalf("info timeout: %v", err)
	}
	_, err = c.CancelAll(context.Background())
	if e, ok := AsError(err); !ok || e.Kind != KindTimeout || !e.Ambiguous() || !IsAmbiguous(err) || !e.Lost() {
		t.Fatalf("exchange timeout: %v", err)
	}
	// Cancelled by the caller once the request is at the server, with a timeout far away: the
	// cancel, not the timeout, ends it however slow the machine is.
	for len(arrived) > 0 {
		<-arrived
	}
	patient := newTestClient(t, rec.srv.URL, WithTimeout(time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	_, err = patient.Mids(ctx, "")
	if e, ok := AsError(err); !ok || e.Kind != KindCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled: %v", err)
	}
}

func TestNetworkErrors(t *testing.T) {
	// Nothing listens: the request never left, so even /exchange is not ambiguous.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := newTestClient(t, "http://"+addr)
	_, err = c.CancelAll(context.Background())
	if e, ok := AsError(err); !ok || e.Kind != KindNetwork || e.Ambiguous() {
		t.Fatalf("refused: %v", err)
	}
	// The connection drops after the request was read: the order may be on the book.
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	c = newTestClient(t, rec.srv.URL)
	_, err = c.CancelAll(context.Background())
	if e, ok := AsError(err); !ok || e.Kind != KindNetwork || !e.Ambiguous() {
		t.Fatalf("dropped: %v", err)
	}
	if rec.count() != 1 {
		t.Fatalf("/exchange sent %d times, want once", rec.count())
	}
}

func TestInfoRetries(t *testing.T) {
	t.Parallel() // its own server and client; waits out its retries beside the others
	var hits atomic.Int32
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		switch hits.Add(1) {
		case 1:
			w.WriteHeader(503)
		case 2:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(429)
		default:
			_, _ = w.Write([]byte(`[]`))
		}
	})
	fast := RetryPolicy{Attempts: 3, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, MaxWait: time.Second}
	c := newTestClient(t, rec.srv.URL, WithRetry(fast))
	if _, err := c.Mids(context.Background(), ""); err != nil || hits.Load() != 3 {
		t.Fatalf("after %d tries: %v", hits.Load(), err)
	}
	// /exchange is never retried.
	hits.Store(0)
	_, err := c.CancelAll(context.Background())
	if e, ok := AsError(err); !ok || e.Status != 503 || hits.Load() != 1 {
		t.Fatalf("exchange: %v after %d tries", err, hits.Load())
	}
	// Attempts run out: the last error comes back.
	rec.handle = func(w http.ResponseWriter, _ *http.Request, _ []byte) { hits.Add(1); w.WriteHeader(502) }
	hits.Store(0)
	if _, err := c.Mids(context.Background(), ""); err == nil || hits.Load() != 3 {
		t.Fatalf("exhausted: %v after %d", err, hits.Load())
	}
	// 4xx other than 429 is not retried.
	rec.handle = func(w http.ResponseWriter, _ *http.Request, _ []byte) { hits.Add(1); w.WriteHeader(400) }
	hits.Store(0)
	if _, err := c.Mids(context.Background(), ""); err == nil || hits.Load() != 1 {
		t.Fatalf("400 retried: %d", hits.Load())
	}
}

// TestRetryAfterBeyondMaxWaitIsNotWaitedFor: a Retry-After of 2 minutes, over the policy's
// MaxWait, is not waited for: one try, the error gives the wait asked, and the call takes less
// than the same call answered with a Retry-After of half a second, which the client waits out
// (a ratio against the same work in the same test, not a time: load slows both).
func TestRetryAfterBeyondMaxWaitIsNotWaitedFor(t *testing.T) {
	t.Parallel() // its own servers and clients; waits out a Retry-After beside the others
	call := func(retryAfter string) (time.Duration, int32, error) {
		var hits atomic.Int32
		rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
			if hits.Add(1) > 1 && retryAfter != "120" {
				_, _ = w.Write([]byte(`[]`))
				return
			}
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(429)
		})
		c := newTestClient(t, rec.srv.URL, WithRetry(RetryPolicy{Attempts: 5, BaseDelay: time.Millisecond, MaxWait: time.Second}))
		start := time.Now()
		_, err := c.Mids(context.Background(), "")
		return time.Since(start), hits.Load(), err
	}
	took, hits, err := call("120")
	e, ok := AsError(err)
	if !ok || e.RetryAfter != 2*time.Minute || hits != 1 {
		t.Fatalf("%v after %d tries", err, hits)
	}
	waited, hits, err := call("0.5")
	if err != nil || hits != 2 {
		t.Fatalf("a Retry-After of 0.5 s within MaxWait: %v after %d tries, want success on the second", err, hits)
	}
	if took >= waited {
		t.Errorf("the 2-minute Retry-After call took %s, not less than the call that waited out 0.5 s (%s): it waited", took, waited)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"3": 3 * time.Second, "0.5": 500 * time.Millisecond, "": 0, "soon": 0, "-1": 0,
		"Thu, 01 Jan 2026 00:00:10 GMT": 10 * time.Second, "Wed, 31 Dec 2025 00:00:10 GMT": 0,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Kind: KindHTTP, Op: "info mids", Status: 500, Message: "boom"}
	if e.Error() != "info mids: HTTP 500: boom" {
		t.Fatal(e.Error())
	}
	e = &Error{Kind: KindTimeout, Op: "exchange placeOrder", Err: context.DeadlineExceeded, ambiguous: true}
	if !strings.Contains(e.Error(), "exchange placeOrder: timeout: context deadline exceeded") || !strings.Contains(e.Error(), "look it up") {
		t.Fatal(e.Error())
	}
	if ErrorKind(99).String() != "error kind 99" || KindTooLarge.String() != "response too large" {
		t.Fatal("kind names")
	}
}
