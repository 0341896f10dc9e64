package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
	"github.com/tradedesk/tradedesk/api/sim"
)

// captureTransport records every request body the client sends.
type captureTransport struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (t *captureTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.bodies = append(t.bodies, b)
	t.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(b))
	return http.DefaultTransport.RoundTrip(r)
}

// signatures returns the signatures of every /exchange body sent.
func (t *captureTransport) signatures(tb testing.TB) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, b := range t.bodies {
		var env struct {
			Signature string `json:"signature"`
		}
		if json.Unmarshal(b, &env) == nil && env.Signature != "" {
			out = append(out, env.Signature)
		}
	}
	if len(out) == 0 {
		tb.Fatal("no signed request was sent")
	}
	return out
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// records parses JSON log lines.
func records(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// find returns the records whose fields have the given values.
func find(recs []map[string]any, kv map[string]any) []map[string]any {
	var out []map[string]any
next:
	for _, r := range recs {
		for k, v := range kv {
			if r[k] != v {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

type simEnv struct {
	srv   *httptest.Server
	clock *sim.TestClock
	key   string
}

func newSim(t *testing.T) simEnv {
	t.Helper()
	clock := sim.NewTestClock(time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC))
	s := sim.New(sim.WithSeed(3), sim.WithClock(clock), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	key := hex.EncodeToString(secp.Keccak256([]byte("api log test")))
	signer, err := api.SignerFromHex(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	return simEnv{srv: srv, clock: clock, key: key}
}

func (e simEnv) client(t *testing.T, opts ...api.Option) (*api.Client, *captureTransport) {
	t.Helper()
	s, err := api.SignerFromHex(e.key)
	if err != nil {
		t.Fatal(err)
	}
	tr := &captureTransport{}
	base := []api.Option{api.WithSigner(s), api.WithClock(e.clock.Now), api.WithHTTPClient(&http.Client{Transport: tr}),
		api.WithRetry(api.RetryPolicy{Attempts: 1}), api.WithTimeout(5 * time.Second)}
	c := api.New(e.srv.URL, append(base, opts...)...)
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	return c, tr
}

func TestLoggerRecordsSignedOrderWithoutSecrets(t *testing.T) {
	e := newSim(t)
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, tr := e.client(t, api.WithLogger(logger))
	ctx := context.Background()

	const cloid = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9"
	order := api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
		Price: "97000", Size: "0.1", Tif: api.TifGTC, Cloid: cloid}
	if _, err := c.PlaceOrders(ctx, []api.OrderWire{order}); err != nil {
		t.Fatal(err)
	}
	bad := order
	bad.Price, bad.Cloid = "97000.01", "bad-tick" // off the tick: the simulator rejects it
	if _, err := c.PlaceOrders(ctx, []api.OrderWire{bad}); err == nil {
		t.Fatal("an order off the tick was accepted")
	}
	if _, err := c.CancelByCloid(ctx, []api.CancelCloid{{Cloid: cloid, InstrumentID: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.OpenOrders(ctx, "", api.PageParams{}); err != nil {
		t.Fatal(err)
	}

	text := buf.String()
	recs := records(t, text)
	placed := find(recs, map[string]any{"msg": "api request", "action": "placeOrder", "level": "INFO"})
	if len(placed) != 1 {
		t.Fatalf("want one successful placeOrder record, got %d in\n%s", len(placed), text)
	}
	p := placed[0]
	if p["status"] != 200.0 || p["path"] != "/exchange" || p["tx_type"] != 1301.0 || p["latency"] == nil ||
		p["request_bytes"].(float64) <= 0 || p["response_bytes"].(float64) <= 0 || p["nonce"].(float64) <= 0 {
		t.Errorf("placeOrder record lacks fields: %v", p)
	}
	if cl, _ := p["cloids"].([]any); len(cl) != 1 || cl[0] != cloid {
		t.Errorf("cloids = %v, want [%s]", p["cloids"], cloid)
	}
	sigs := tr.signatures(t)
	if got, want := p["signature"], sigs[0][:8]+"…(132 chars)"; got != want {
		t.Errorf("signature logged as %v, want %v", got, want)
	}
	rejected := find(recs, map[string]any{"msg": "api request", "action": "placeOrder", "level": "WARN"})
	if len(rejected) != 1 || rejected[0]["error_kind"] == nil || rejected[0]["error"] == nil || rejected[0]["status"].(float64) < 400 {
		t.Errorf("want one WARN record of the rejected order with status and error kind, got %v", rejected)
	}
	if len(find(recs, map[string]any{"action": "cancelByCloid", "level": "INFO"})) != 1 {
		t.Errorf("no cancelByCloid record in\n%s", text)
	}
	if len(find(recs, map[string]any{"method": "open_orders", "path": "/info", "status": 200.0})) != 1 {
		t.Errorf("no open_orders record in\n%s", text)
	}
	bodies := find(recs, map[string]any{"msg": "api body", "level": "DEBUG", "action": "placeOrder"})
	if len(bodies) != 2 || !strings.Contains(bodies[0]["request"].(string), cloid) || bodies[0]["response"] == "" {
		t.Errorf("want two DEBUG body records of placeOrder with the request and the answer, got %v", bodies)
	}
	assertNoSecrets(t, text, e.key, sigs)
}

// assertNoSecrets checks a log for the key and the signatures in any case, with or without 0x.
func assertNoSecrets(t *testing.T, text, key string, sigs []string) {
	t.Helper()
	low := strings.ToLower(text)
	if strings.Contains(low, strings.ToLower(key)) {
		t.Error("the log holds the private key hex")
	}
	for _, s := range sigs {
		if strings.Contains(low, strings.ToLower(strings.TrimPrefix(s, "0x"))) {
			t.Errorf("the log holds the signature %s…", s[:10])
		}
		if strings.Contains(low, strings.ToLower(s[2:40])) {
			t.Errorf("the log holds a large part of the signature %s…", s[:10])
		}
	}
	if m := regexp.MustCompile(`[0-9a-fA-F]{100,}`).FindString(text); m != "" {
		t.Errorf("the log holds a long hex run %s…", m[:20])
	}
}

// TestLoggerDefaultAtCallTime: without WithLogger the client writes to slog.Default() as it is
// when the call is made, and not at all while the program never set a default.
func TestLoggerDefaultAtCallTime(t *testing.T) {
	e := newSim(t)
	c, _ := e.client(t)
	ctx := context.Background()
	orig := slog.Default()
	origOut := log.Writer()
	t.Cleanup(func() { slog.SetDefault(orig); log.SetOutput(origOut) })

	var stdlog syncBuffer
	log.SetOutput(&stdlog)
	if _, err := c.Mids(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if stdlog.String() != "" {
		t.Errorf("the client logged through the standard library's initial default:\n%s", stdlog.String())
	}

	var buf syncBuffer
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	if _, err := c.Mids(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PlaceOrders(ctx, []api.OrderWire{{InstrumentID: 1, Side: api.SideSell, PositionSide: api.PositionSideBoth,
		Price: "99000", Size: "0.1", Tif: api.TifGTC, Cloid: "after-set-default"}}); err != nil {
		t.Fatal(err)
	}
	recs := records(t, buf.String())
	if len(find(recs, map[string]any{"method": "mids", "status": 200.0})) != 1 ||
		len(find(recs, map[string]any{"action": "placeOrder", "status": 200.0})) != 1 {
		t.Errorf("want the mids and placeOrder records in the new default logger, got\n%s", buf.String())
	}
	if len(find(recs, map[string]any{"msg": "api body"})) != 0 {
		t.Error("an Info-level handler got Debug body records")
	}
	assertNoSecrets(t, buf.String(), e.key, nil)
}

// TestLoggerFailures: transport failures, retries and hostile bodies are logged with their kind,
// and a signature echoed by a server is shortened in the error text and the Debug body.
func TestLoggerFailures(t *testing.T) {
	echo := strings.Repeat("ab", 65)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/info" {
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, `{"error":"upstream down"}`)
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":"bad signature 0x`+echo+`","signature":"0x`+echo+`"}`)
	}))
	defer srv.Close()
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s, err := api.SignerFromHex(hex.EncodeToString(secp.Keccak256([]byte("fail"))))
	if err != nil {
		t.Fatal(err)
	}
	c := api.New(srv.URL, api.WithSigner(s), api.WithLogger(logger),
		api.WithRetry(api.RetryPolicy{Attempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}))
	ctx := context.Background()
	if _, err := c.Ticker(ctx, ""); err == nil {
		t.Fatal("want an error")
	}
	if _, err := c.CancelAll(ctx); err == nil {
		t.Fatal("want an error")
	}
	text := buf.String()
	recs := records(t, text)
	tick := find(recs, map[string]any{"msg": "api request", "method": "ticker", "status": 502.0, "error_kind": "HTTP error"})
	if len(tick) != 2 || tick[0]["attempt"] != 1.0 || tick[1]["attempt"] != 2.0 {
		t.Errorf("want two ticker attempts logged, got %v", tick)
	}
	if len(find(recs, map[string]any{"action": "cancelAll", "status": 400.0, "level": "WARN"})) != 1 {
		t.Errorf("no cancelAll failure record in\n%s", text)
	}
	if strings.Contains(text, echo) {
		t.Errorf("an echoed signature reached the log:\n%s", text)
	}
}
