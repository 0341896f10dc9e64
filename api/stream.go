package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api/text"
)

// Stream defaults: the SDKs ping every 30 s and give up after 10 s without the answer;
// protocol.md's limit is 1000 subscriptions a connection.
const (
	DefaultPingEvery   = 30 * time.Second
	DefaultPingTimeout = 10 * time.Second
	DefaultMaxFrame    = 1 << 20
	MaxSubscriptions   = 1000
	maxUnknownChannels = 100
)

// StreamOption configures a Stream.
type StreamOption func(*streamConfig)

type streamConfig struct {
	maxFrame    int64
	pingEvery   time.Duration
	pingTimeout time.Duration
	backoffBase time.Duration
	backoffMax  time.Duration
	dialTimeout time.Duration
	inboxLimit  int
	hc          *http.Client
	logger      *slog.Logger
}

// WithStreamPing sets how often the stream pings and how long it waits for the answer.
func WithStreamPing(every, timeout time.Duration) StreamOption {
	return func(c *streamConfig) { c.pingEvery, c.pingTimeout = every, timeout }
}

// WithStreamBackoff sets the reconnection delay: base times the attempt, at most max, plus
// jitter.
func WithStreamBackoff(base, max time.Duration) StreamOption {
	return func(c *streamConfig) { c.backoffBase, c.backoffMax = base, max }
}

// WithStreamLimits bounds one frame's size in bytes and the records queued per subscription.
func WithStreamLimits(maxFrame int64, queue int) StreamOption {
	return func(c *streamConfig) { c.maxFrame, c.inboxLimit = maxFrame, queue }
}

// WithStreamLogger sets the logger the stream writes its dropped rows to. Without it (or nil) the
// stream logs as a Client without WithLogger does: to slog.Default(), once the program has set one.
func WithStreamLogger(l *slog.Logger) StreamOption {
	return func(c *streamConfig) { c.logger = l }
}

// Stream is a JSON-RPC 2.0 WebSocket connection to the exchange's /ws/, speaking as the official
// SDKs do. It keeps its subscriptions across reconnections: on a drop it reconnects with backoff
// and jitter and subscribes everything again, and an order-book sequence gap subscribes that book
// again for a fresh snapshot. Every record goes to one bounded Inbox, and a connection's records
// only after the status that says it is up (those read before are held: streamConn.goLive). Safe
// for concurrent use.
type Stream struct {
	url   string
	cfg   streamConfig
	inbox *Inbox

	mu     sync.Mutex
	subs   map[string]*Subscription // by topic key
	conn   *streamConn              // the live connection, nil when down
	epoch  uint64
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	nextID atomic.Uint64
	drops  atomic.Int64
}

// Subscription is one topic of a Stream: Unsubscribe ends it; Err delivers why the exchange
// refused it.
type Subscription struct {
	s     *Stream
	topic Topic
	errc  chan error
	once  sync.Once
	// Orderbook state, under the connection's lock: the sequence and the prices held a side.
	seq     uint64
	haveSeq bool
	levels  [2]map[string]struct{}
}

// Topic is what the subscription is to.
func (sub *Subscription) Topic() Topic { return sub.topic }

// Err delivers the error that ended the subscription (a refusal), then nothing.
func (sub *Subscription) Err() <-chan error { return sub.errc }

// Unsubscribe ends the subscription.
func (sub *Subscription) Unsubscribe() { sub.s.unsubscribe(sub) }

func (sub *Subscription) fail(err error) {
	sub.once.Do(func() { sub.errc <- err })
}

// NewStream connects to a stream URL (see StreamURL) in the background and keeps the connection
// up until Close. Records arrive in Inbox.
func NewStream(wsURL string, opts ...StreamOption) *Stream {
	cfg := streamConfig{maxFrame: DefaultMaxFrame, pingEvery: DefaultPingEvery, pingTimeout: DefaultPingTimeout,
		backoffBase: time.Second, backoffMax: 30 * time.Second, dialTimeout: 10 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.hc = sameOriginRedirects(&http.Client{})
	ctx, cancel := context.WithCancel(context.Background())
	s := &Stream{url: wsURL, cfg: cfg, inbox: NewInbox(cfg.inboxLimit), subs: map[string]*Subscription{},
		ctx: ctx, cancel: cancel, done: make(chan struct{})}
	go s.run()
	return s
}

// URL is the stream's WebSocket URL.
func (s *Stream) URL() string { return s.url }

// Inbox is where every subscription's records arrive.
func (s *Stream) Inbox() *Inbox { return s.inbox }

// Close ends the connection and every subscription, and waits for the connection to close.
func (s *Stream) Close() {
	s.cancel()
	<-s.done
}

// Subscribe adds a topic. While connected it waits for the exchange's answer and returns its
// refusal as an error; otherwise the topic is subscribed when the connection comes up (a later
// refusal arrives on Err). Subscribing a topic twice returns the first subscription.
func (s *Stream) Subscribe(ctx context.Context, t Topic) (*Subscription, error) {
	if err := t.check(); err != nil {
		return nil, &Error{Kind: KindInvalid, Op: "stream subscribe", Message: err.Error()}
	}
	s.mu.Lock()
	if sub := s.subs[t.key()]; sub != nil {
		s.mu.Unlock()
		return sub, nil
	}
	if len(s.subs) >= MaxSubscriptions {
		s.mu.Unlock()
		return nil, &Error{Kind: KindInvalid, Op: "stream subscribe", Message: fmt.Sprintf("at most %d subscriptions a connection", MaxSubscriptions)}
	}
	sub := &Subscription{s: s, topic: t, errc: make(chan error, 1)}
	s.subs[t.key()] = sub
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return sub, nil
	}
	if err := c.subscribe(ctx, sub); err != nil {
		var refused *refusedError
		if errors.As(err, &refused) {
			s.drop(sub)
			return nil, err
		}
	}
	return sub, nil
}

func (s *Stream) unsubscribe(sub *Subscription) {
	s.mu.Lock()
	if s.subs[sub.topic.key()] != sub {
		s.mu.Unlock()
		return
	}
	delete(s.subs, sub.topic.key())
	c := s.conn
	s.mu.Unlock()
	if c != nil {
		go c.unsubscribe(sub)
	}
}

// drop forgets a subscription the exchange refused.
func (s *Stream) drop(sub *Subscription) {
	s.mu.Lock()
	if s.subs[sub.topic.key()] == sub {
		delete(s.subs, sub.topic.key())
	}
	s.mu.Unlock()
}

// Topics are the topics subscribed now, sorted by their key.
func (s *Stream) Topics() []Topic {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]string, 0, len(s.subs))
	for k := range s.subs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Topic, len(keys))
	for i, k := range keys {
		out[i] = s.subs[k].topic
	}
	return out
}

// Status is the connection's status.
func (s *Stream) Status() StreamStatus { return s.inbox.Status() }

// Dropped is how many rows of the stream's notifications did not decode and were left out (the
// rest of their notification was kept), since the stream was made.
func (s *Stream) Dropped() int64 { return s.drops.Load() }

// dropRow counts and logs one row of a topic's notification that did not decode, and returns why,
// cleaned, for the console (StreamBatch.Dropped: see streamConn.dropRow).
func (s *Stream) dropRow(t Topic, err error) string {
	why := text.Clean(truncate(err.Error(), 200))
	s.drops.Add(1)
	if l := s.log(); l != nil {
		l.Warn("api stream row dropped", "topic", text.Clean(truncate(t.String(), 120)), "reason", why)
	}
	return why
}

// log is the stream's logger, nil when nothing is to be logged (see WithStreamLogger).
func (s *Stream) log() *slog.Logger {
	if s.cfg.logger != nil {
		return s.cfg.logger
	}
	if l := slog.Default(); l.Handler() != initialDefaultHandler {
		return l
	}
	return nil
}

// run keeps a connection up until Close: connect, subscribe everything, read; on a failure,
// wait (1 s × attempt, capped, with jitter) and again.
func (s *Stream) run() {
	defer close(s.done)
	attempt := 0
	for {
		wasUp, err := s.session()
		if s.ctx.Err() != nil {
			return
		}
		s.setStatus(StreamStatus{Err: err, Since: time.Now(), Epoch: s.epoch})
		if wasUp {
			attempt = 0
		}
		attempt++
		if sleepCtx(s.ctx, s.backoff(attempt)) != nil {
			return
		}
	}
}

// backoff is the wait before reconnection attempt n: base × n, capped, plus up to 25% jitter.
func (s *Stream) backoff(n int) time.Duration {
	d := s.cfg.backoffBase * time.Duration(n)
	if d > s.cfg.backoffMax || d <= 0 {
		d = s.cfg.backoffMax
	}
	return d + rand.N(d/4+1)
}

func (s *Stream) setStatus(st StreamStatus) { s.inbox.setStatus(st) }

// session runs one connection: it reports whether it came up, and why it ended.
func (s *Stream) session() (bool, error) {
	dctx, cancel := context.WithTimeout(s.ctx, s.cfg.dialTimeout)
	signal := &quietSignal{in: s.inbox}
	ws, resp, err := websocket.Dial(dctx, s.url, &websocket.DialOptions{HTTPClient: s.dialClient(signal)})
	cancel()
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return false, fmt.Errorf("the exchange has no stream at %s (404)", s.url)
		}
		return false, fmt.Errorf("stream connect: %v", shortErr(err))
	}
	ws.SetReadLimit(s.cfg.maxFrame)
	c := newStreamConn(s, ws)
	c.signal = signal
	defer c.close()
	go c.read()
	s.mu.Lock()
	s.conn = c // a Subscribe from now on goes to this connection
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.conn = nil
		s.mu.Unlock()
	}()
	if err := s.subscribeAll(c); err != nil {
		return false, err
	}
	s.mu.Lock()
	s.epoch++
	epoch := s.epoch
	s.mu.Unlock()
	c.goLive(epoch)
	return true, c.keepAlive()
}

// subscribeAll subscribes every topic on a new connection; a refused one ends with its error.
func (s *Stream) subscribeAll(c *streamConn) error {
	s.mu.Lock()
	subs := make([]*Subscription, 0, len(s.subs))
	for _, sub := range s.subs {
		subs = append(subs, sub)
	}
	s.mu.Unlock()
	for _, sub := range subs {
		ctx, cancel := context.WithTimeout(c.ctx, s.cfg.pingTimeout)
		err := c.subscribe(ctx, sub)
		cancel()
		var refused *refusedError
		switch {
		case errors.As(err, &refused):
			s.drop(sub)
			sub.fail(err)
		case err != nil:
			return err
		}
	}
	return nil
}

// refusedError is a subscribe the exchange answered with a failure.
type refusedError struct {
	topic Topic
	msg   string
}

func (e *refusedError) Error() string {
	return "stream subscribe " + e.topic.String() + " refused: " + truncate(e.msg, 200)
}

// streamConn is one WebSocket connection: its pending requests and its server channel routes.
type streamConn struct {
	s       *Stream
	ws      *websocket.Conn
	ctx     context.Context
	cancel  context.CancelCauseFunc
	readCtx context.Context // what frames are read with: never cancelled (see newStreamConn)
	mu      sync.Mutex
	pending map[string]*pendingCall
	routes  map[string]*Subscription // server channel id -> subscription
	leaving map[string]bool          // server channel ids unsubscribed, the answer not yet read
	unknown int
	// gate guards held: the records (and dropped rows) read before the connection is up, nil
	// once it is (see goLive). It is its own lock, taken inside mu (inBook drops rows under mu).
	gate sync.Mutex
	held *Inbox
	// signal is what the reader owes the inbox for records it queued without one (nil: each
	// notification's records are signalled as they are queued; see quietSignal).
	signal *quietSignal
}

// newStreamConn makes the connection's state. Its context's end (Close, a failure, the
// keep-alive's ping timeout) closes the WebSocket once, here, which ends a read under way: the
// reader reads with readCtx, which is never cancelled, because coder/websocket registers a read's
// context (context.AfterFunc) twice a frame, on the header and on the payload, and a cancellable
// one costs a lock and a map entry on the connection's context each time (issue #34).
func newStreamConn(s *Stream, ws *websocket.Conn) *streamConn {
	ctx, cancel := context.WithCancelCause(s.ctx)
	context.AfterFunc(ctx, func() { _ = ws.CloseNow() })
	return &streamConn{s: s, ws: ws, ctx: ctx, cancel: cancel, readCtx: context.Background(), pending: map[string]*pendingCall{},
		routes: map[string]*Subscription{}, leaving: map[string]bool{}, held: NewInbox(s.cfg.inboxLimit)}
}

// fail ends the connection with a reason.
func (c *streamConn) fail(err error) { c.cancel(err) }

func (c *streamConn) close() {
	c.cancel(errors.New("closed"))
	_ = c.ws.CloseNow()
}

// pendingCall is a request waiting for its answer; onAnswer runs in the reader before the next
// frame is read (a subscribe routes its channel before the channel's first notification).
type pendingCall struct {
	ch       chan frame
	onAnswer func(frame) frame
}

// call sends one request and waits for its answer.
func (c *streamConn) call(ctx context.Context, method string, params any) (frame, error) {
	return c.callThen(ctx, method, params, nil)
}

// callThen is call with a function the reader runs on the answer.
func (c *streamConn) callThen(ctx context.Context, method string, params any, onAnswer func(frame) frame) (frame, error) {
	id := strconv.FormatUint(c.s.nextID.Add(1), 10)
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	b, err := json.Marshal(req)
	if err != nil {
		return frame{}, err
	}
	ch := make(chan frame, 1)
	c.mu.Lock()
	c.pending[id] = &pendingCall{ch: ch, onAnswer: onAnswer}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		return frame{}, fmt.Errorf("stream %s: %v", method, shortErr(err))
	}
	select {
	case f := <-ch:
		return f, f.Err
	case <-ctx.Done():
		if c.ctx.Err() != nil {
			return frame{}, context.Cause(c.ctx) // the connection failed: that is the reason
		}
		return frame{}, fmt.Errorf("stream %s: no answer (%v)", method, ctx.Err())
	case <-c.ctx.Done():
		return frame{}, context.Cause(c.ctx)
	}
}

// subscribe sends one subscribe; the reader routes the server's channel ids to sub as the answer
// arrives.
func (c *streamConn) subscribe(ctx context.Context, sub *Subscription) error {
	f, err := c.callThen(ctx, "subscribe", sub.topic.params(), func(f frame) frame {
		if f.Err != nil {
			return f
		}
		var r subscribeResult
		if err := json.Unmarshal(f.Result, &r); err != nil {
			f.Err = fmt.Errorf("stream subscribe %s: malformed answer: %v", sub.topic, shortErr(err))
			return f
		}
		if r.Status != "subscribed" || len(r.Channels) == 0 {
			msg := r.Error
			if msg == "" {
				msg = "status " + truncate(r.Status, 20)
			}
			f.Err = &refusedError{sub.topic, msg}
			return f
		}
		c.mu.Lock()
		for _, id := range r.Channels {
			c.routes[truncate(id, 200)] = sub
		}
		sub.haveSeq = false // a book starts again from the snapshot this subscribe brings
		c.mu.Unlock()
		return f
	})
	var rpcErr *RPCError
	if errors.As(err, &rpcErr) {
		return &refusedError{sub.topic, rpcErr.Message}
	}
	_ = f
	return err
}

// unsubscribe sends unsubscribe for the server channel ids of sub. Until its answer is read, a
// notification on those ids is one the exchange sent before it saw the request (a busy book may
// have hundreds in flight): it is dropped, not counted as a channel never subscribed.
func (c *streamConn) unsubscribe(sub *Subscription) {
	var ids []string
	c.mu.Lock()
	for id, s := range c.routes {
		if s == sub {
			ids = append(ids, id)
			delete(c.routes, id)
			c.leaving[id] = true
		}
	}
	c.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	left := func() {
		c.mu.Lock()
		for _, id := range ids {
			delete(c.leaving, id)
		}
		c.mu.Unlock()
	}
	defer left() // no answer: the ids count as unknown again
	ctx, cancel := context.WithTimeout(c.ctx, c.s.cfg.pingTimeout)
	defer cancel()
	_, _ = c.callThen(ctx, "unsubscribe", ids, func(f frame) frame { left(); return f })
}

// resubscribe subscribes a topic again on this connection (unsubscribe, then subscribe): a book
// after a sequence gap, for a fresh snapshot; a channel gone silent. why says what happened, for
// the error that ends the connection when the exchange does not answer.
func (c *streamConn) resubscribe(sub *Subscription, why string) {
	c.unsubscribe(sub)
	ctx, cancel := context.WithTimeout(c.ctx, c.s.cfg.pingTimeout)
	defer cancel()
	if err := c.subscribe(ctx, sub); err != nil {
		c.fail(fmt.Errorf("%s: subscribing again after %s: %v", sub.topic, why, err))
	}
}

// Resubscribe subscribes every topic of channel again on the live connection (unsubscribe, then
// subscribe): for a market channel that went silent while the connection still answers pings
// (the exchange's side of it may have stalled). It returns once the exchange answered; while
// the connection is down it does nothing (everything is subscribed when it comes up).
func (s *Stream) Resubscribe(channel string) {
	s.mu.Lock()
	c := s.conn
	var subs []*Subscription
	for _, sub := range s.subs {
		if sub.topic.Channel == channel {
			subs = append(subs, sub)
		}
	}
	s.mu.Unlock()
	if c == nil {
		return
	}
	for _, sub := range subs {
		c.resubscribe(sub, "it went silent")
	}
}
