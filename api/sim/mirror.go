package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	pathpkg "path"
	"strings"
	"sync"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// MirrorConfig says which live exchange a Mirror follows and how.
type MirrorConfig struct {
	// Upstream is the live exchange's API base URL.
	Upstream string
	// Latency is how long a paper action waits before it reaches the book; below zero, the round
	// trip to the live exchange measured at start.
	Latency time.Duration
	// Poll is how often the market is read over /info when the live exchange's stream cannot be
	// used (default 1 s).
	Poll time.Duration
	// StreamWait is how long the mirror waits for the live stream at start before it polls
	// instead (default 5 s).
	StreamWait time.Duration
	// User, when not "", is the account whose fee schedule (user_fees) the paper accounts pay.
	User string
}

// Mirror is the simulator fed the live market: it takes its instruments, collaterals, fee
// schedule, marks, index prices and funding rates from a live exchange's /info and stream, and
// its book and trades from the live book (see applyBook and applyTrade for the fill rules). Paper
// accounts trade on it over the simulator's /info, /exchange and /ws/. It holds no key and sends
// nothing to the live exchange's /exchange: its client of the live exchange cannot sign.
type Mirror struct {
	// Sim is the simulator the paper accounts trade on.
	Sim *Sim

	cfg   MirrorConfig
	up    *api.Client
	wsURL string
	mkts  map[string]*mirrorMarket // by upper-case name; under Sim.mu

	mu sync.Mutex
	st MirrorStatus
}

// MirrorStatus is how a mirror stands with the live exchange: /info {"method":"mirror_status"}
// answers it, and the stream's "mirror" channel sends it on every change.
type MirrorStatus struct {
	Upstream string `json:"upstream"`
	// Live is whether the live market flows in. While it does not, no paper order is taken or
	// filled: the mirrored book is empty until a fresh snapshot arrives.
	Live      bool      `json:"live"`
	Source    string    `json:"source"` // "stream", or "poll" when the live stream cannot be used
	Reason    string    `json:"reason,omitempty"`
	Since     time.Time `json:"since"`
	LatencyMs int64     `json:"latency_ms"`
	// SentUpstream is the actions sent to the live exchange: always 0.
	SentUpstream int `json:"actions_sent_upstream"`
}

func withMirror(ms *mirrorSetup) Option { return func(c *config) { c.mirror, c.quiet = ms, true } }

// NewMirror reads the live exchange's terms and book, and makes the simulator that mirrors it.
// opts configure the simulator (its clock, the faucet's balance); its market is the live one.
// Run (or Serve) keeps it in step.
func NewMirror(ctx context.Context, cfg MirrorConfig, opts ...Option) (*Mirror, error) {
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.StreamWait <= 0 {
		cfg.StreamWait = 5 * time.Second
	}
	up := api.New(cfg.Upstream, api.WithTimeout(10*time.Second))
	if err := up.Err(); err != nil {
		return nil, err
	}
	wsURL, err := api.StreamURL(cfg.Upstream)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if _, err := up.Mids(ctx, "all"); err != nil {
		return nil, fmt.Errorf("the live exchange at %s does not answer: %w", text.Quote(cfg.Upstream), err)
	}
	if cfg.Latency < 0 {
		cfg.Latency = time.Since(t0)
	}
	setup, err := fetchSetup(ctx, up, cfg.User)
	if err != nil {
		return nil, err
	}
	mr := &Mirror{cfg: cfg, up: up, wsURL: wsURL, mkts: map[string]*mirrorMarket{}}
	mr.Sim = New(append(opts, withMirror(setup))...)
	mr.Sim.mirror = mr
	for _, m := range mr.Sim.eng.markets {
		if !m.delisted {
			mr.mkts[strings.ToUpper(m.name)] = newMirrorMarket(m)
		}
	}
	mr.st = MirrorStatus{Upstream: cfg.Upstream, Source: "stream", Since: time.Now(), LatencyMs: cfg.Latency.Milliseconds(),
		Reason: "waiting for the live market's stream"}
	if err := mr.resync(ctx, true); err != nil {
		return nil, err
	}
	return mr, nil
}

// Status is how the mirror stands with the live exchange.
func (mr *Mirror) Status() MirrorStatus {
	mr.mu.Lock()
	defer mr.mu.Unlock()
	return mr.st
}

// Latency is the wait before a paper action reaches the book.
func (mr *Mirror) Latency() time.Duration { return mr.cfg.Latency }

func (mr *Mirror) live() bool { return mr.Status().Live }

// setStatus changes the status and says so on the stream's "mirror" channel.
func (mr *Mirror) setStatus(f func(*MirrorStatus)) {
	mr.mu.Lock()
	was := mr.st
	f(&mr.st)
	st := mr.st
	mr.mu.Unlock()
	if was.Live != st.Live || was.Source != st.Source || was.Reason != st.Reason {
		s := mr.Sim
		s.ws.pubMu.Lock()
		s.ws.fanOut([]pub{{topic: "mirror", data: st}})
		s.ws.pubMu.Unlock()
	}
}

// lose stops filling: the live market no longer flows in, so the mirrored book is emptied.
func (mr *Mirror) lose(why string) {
	if !mr.live() {
		return
	}
	s := mr.Sim
	s.mu.Lock()
	for _, mm := range mr.mkts {
		s.eng.clearBook(mm)
	}
	s.mu.Unlock()
	mr.setStatus(func(st *MirrorStatus) { st.Live, st.Reason, st.Since = false, why, time.Now() })
	s.publish(true)
}

// tapMirror registers a subscription to the "mirror" channel (under Sim.mu): the mirror's status.
func (s *Sim) tapMirror() (string, []any, error) {
	if s.mirror == nil {
		return "", nil, fmt.Errorf("mirror: this simulator mirrors no live exchange (tradedesk sim --mirror)")
	}
	return "mirror", []any{s.mirror.Status()}, nil
}

// ServeHTTP serves the simulator's API with the mirror's differences: /info answers
// mirror_status, POST /control is refused (the market is the live one), and an action waits
// the latency before it reaches the book; while the live market is lost, placeOrder is refused.
func (mr *Mirror) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(pathpkg.Clean("/"+r.URL.Path), "/")
	switch path {
	case "/control":
		writeJSON(w, http.StatusConflict, errorBody{"this simulator mirrors " + mr.cfg.Upstream +
			": its market is the live one, and POST /control moves nothing here"})
		return
	case "/info", "/exchange":
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, errorBody{"could not read the request body: " + err.Error()})
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if path == "/info" && bodyMethod(body) == "mirror_status" {
			writeJSON(w, http.StatusOK, mr.Status())
			return
		}
		if path == "/exchange" && !mr.admit(w, r, body) {
			return
		}
	}
	mr.Sim.ServeHTTP(w, r)
}

// admit waits the latency before an action reaches the book, and refuses an order while the
// live market is lost. It reports whether the action goes on.
func (mr *Mirror) admit(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if d := mr.cfg.Latency; d > 0 {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return false
		}
	}
	if st := mr.Status(); !st.Live && isPlaceOrder(body) {
		writeJSON(w, http.StatusServiceUnavailable, errorBody{"the mirror has lost the live market (" + st.Reason +
			"): no paper order is taken or filled until it is back; see /info {\"method\":\"mirror_status\"}"})
		return false
	}
	return true
}

func bodyMethod(body []byte) string {
	var b struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &b)
	return b.Method
}

func isPlaceOrder(body []byte) bool {
	var b struct {
		Action struct {
			Type json.RawMessage `json:"type"`
		} `json:"action"`
	}
	_ = json.Unmarshal(body, &b)
	t := strings.Trim(string(b.Action.Type), `" `)
	return t == api.ActionPlaceOrder || t == fmt.Sprint(api.TxPlaceOrder)
}
