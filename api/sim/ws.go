package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// The simulator's stream: JSON-RPC 2.0 over WebSocket at /ws/, as protocol.md describes the real
// exchange's. Subscribers get every engine change of their channels: the tap (type tap) reads
// what changed after each action and market step, each message is marshalled once and queued to
// every subscriber without waiting: a subscriber whose queue is full is dropped, so a slow or dead
// reader never holds up matching.

// Stream limits, as protocol.md gives the real exchange's.
const (
	wsMaxSubs      = 1000
	wsMaxMessages  = 2000 // client messages a minute
	wsQueue        = 8192 // messages queued to one subscriber before it is dropped
	wsMaxFrameIn   = 64 << 10
	wsWriteTimeout = 5 * time.Second
)

// hub is the stream's subscribers and topics. Its zero value is ready.
type hub struct {
	// pubMu orders the fan-outs: it is taken before the engine's lock is released and held to the
	// end of the fan-out, so subscribers get messages in the engine's order.
	pubMu   sync.Mutex
	mu      sync.Mutex
	topics  map[string]map[*wsClient]struct{}
	clients map[*wsClient]struct{}
	tap     *tap // under Sim.mu
	subs    atomic.Int64
	refuse  atomic.Bool
	sent    atomic.Uint64
	dropped atomic.Uint64
	// frameBytes is the last fan-out's hand-written frames' length (under mu): the next one's
	// buffer starts an eighth larger, so a step a little longer than the last does not copy all
	// it wrote into a buffer twice the size (a 500-market step's 280 kB, every other step).
	frameBytes int
	// frames is the last fan-out's list of frames, emptied, for the next (under mu).
	frames []hubFrame
}

// wsClient is one connection.
type wsClient struct {
	conn   *websocket.Conn
	cork   *corkConn // conn's connection (nil: each frame is its own write)
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc
	subs   map[string]bool // topics, by the reader only
	window time.Time
	count  int
	// fill is held while a fan-out queues its frames to the client: the writer, finding the
	// queue empty, waits for it before it sends, so a market step leaves in one write (the
	// writer woken by the step's first frame wrote it alone, about one step in six: two wake-ups
	// of the reader, issue #34). filling says this fan-out holds it (under hub.mu).
	fill    sync.Mutex
	filling bool
}

// StreamStats reports the messages queued to subscribers and the subscribers dropped for being
// slow, since the simulator started.
func (s *Sim) StreamStats() (sent, dropped uint64) { return s.ws.sent.Load(), s.ws.dropped.Load() }

// RefuseStreams makes /ws/ refuse new connections (503) and drops every open one while on: the
// stream "dies", the HTTP API goes on. For tests of the console's fallback.
func (s *Sim) RefuseStreams(on bool) {
	s.ws.refuse.Store(on)
	if on {
		s.DropStreams()
	}
}

// DropStreams closes every stream connection (their clients reconnect).
func (s *Sim) DropStreams() {
	s.ws.mu.Lock()
	cs := make([]*wsClient, 0, len(s.ws.clients))
	for c := range s.ws.clients {
		cs = append(cs, c)
	}
	s.ws.mu.Unlock()
	for _, c := range cs {
		_ = c.conn.Close(websocket.StatusGoingAway, "the simulator dropped the stream")
		c.cancel()
	}
}

// serveWS upgrades a request on /ws/ and serves the connection until it ends.
func (s *Sim) serveWS(w http.ResponseWriter, r *http.Request) {
	if s.ws.refuse.Load() {
		writeJSON(w, http.StatusServiceUnavailable, errorBody{"the stream is down (the simulator was told to refuse it)"})
		return
	}
	conn, cork, err := acceptWS(w, r)
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(wsMaxFrameIn)
	ctx, cancel := context.WithCancel(context.Background())
	c := &wsClient{conn: conn, cork: cork, out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel, subs: map[string]bool{}}
	s.ws.add(c)
	defer func() {
		cancel()
		s.ws.remove(c)
		s.untap(c)
		_ = conn.CloseNow()
	}()
	go c.write()
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			return
		}
		if !c.allow(time.Now()) {
			_ = conn.Close(websocket.StatusPolicyViolation, fmt.Sprintf("over %d messages a minute", wsMaxMessages))
			return
		}
		s.handleWS(c, b)
	}
}

// allow counts a client message against the per-minute limit.
func (c *wsClient) allow(now time.Time) bool {
	if now.Sub(c.window) > time.Minute {
		c.window, c.count = now, 0
	}
	c.count++
	return c.count <= wsMaxMessages
}

// wsSettle is the pause between a subscribe's answer and the topic's first state (an order
// book's snapshot). The official TypeScript SDK routes a channel's data only once its subscribe
// call has returned, so a snapshot that arrives in the same read as the answer reaches no
// listener and the SDK's book starts from updates alone.
const wsSettle = 10 * time.Millisecond

// write sends the client's queue until it ends: whatever is queued goes out under one deadline.
// A nil entry is a pause of wsSettle (see settle).
func (c *wsClient) write() {
	for {
		select {
		case <-c.ctx.Done():
			return
		case b := <-c.out:
			if !c.writeBatch(b) {
				c.cancel()
				return
			}
		}
	}
}

// wsBatch is the most frames one batch takes from the queue (and corkConn.full the most
// bytes): a 500-market step's 509 tickers and the rest are one batch.
const wsBatch = 2048

// writeBatch writes b and what is queued behind it (at most wsBatch more under one deadline),
// up to a pause; it reports whether the connection is still good. Nothing taken from the queue
// is left unwritten. The batch's frames leave in one write to the socket (corkConn): a market
// step's notifications wake the reader once, not once each (issue #34); a fan-out still
// queueing is waited for (fill).
func (c *wsClient) writeBatch(b []byte) bool {
	ctx, cancel := context.WithTimeout(c.ctx, wsWriteTimeout)
	defer cancel()
	c.cork.hold()
	for n := 0; ; n++ {
		if b == nil {
			if c.cork.send(wsWriteTimeout) != nil {
				return false
			}
			select {
			case <-c.ctx.Done():
				return false
			case <-time.After(wsSettle):
			}
			return true
		}
		if c.conn.Write(ctx, websocket.MessageText, b) != nil {
			_ = c.cork.send(wsWriteTimeout)
			return false
		}
		if n == wsBatch || c.cork.full() || len(c.out) == 0 && !c.filled() {
			return c.cork.send(wsWriteTimeout) == nil
		}
		b = <-c.out
	}
}

// filled waits for a fan-out that is queueing to the client and reports whether it queued
// more.
func (c *wsClient) filled() bool {
	c.fill.Lock()
	more := len(c.out) > 0
	c.fill.Unlock()
	return more
}

// settle queues a pause (wsSettle) before what is queued next.
func (h *hub) settle(c *wsClient) {
	select {
	case c.out <- nil:
	default: // a full queue drops the client at the next send
	}
}

// send queues one message; a client whose queue is full is dropped, never waited for.
func (h *hub) send(c *wsClient, b []byte) {
	select {
	case c.out <- b:
		h.sent.Add(1)
	default:
		if c.ctx.Err() == nil {
			h.dropped.Add(1)
			c.cancel()
			go c.conn.Close(websocket.StatusPolicyViolation, "too slow: messages were not read")
		}
	}
}

func (h *hub) add(c *wsClient) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.clients == nil {
		h.clients, h.topics = map[*wsClient]struct{}{}, map[string]map[*wsClient]struct{}{}
	}
	h.clients[c] = struct{}{}
}

func (h *hub) remove(c *wsClient) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.clients, c)
	for k := range c.subs {
		h.leave(c, k)
	}
}

func (h *hub) join(c *wsClient, topic string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.topics[topic]
	if set == nil {
		set = map[*wsClient]struct{}{}
		h.topics[topic] = set
	}
	set[c] = struct{}{}
	h.subs.Add(1)
}

// leave takes c off a topic (under h.mu).
func (h *hub) leave(c *wsClient, topic string) {
	if set := h.topics[topic]; set != nil {
		if _, ok := set[c]; ok {
			delete(set, c)
			h.subs.Add(-1)
		}
		if len(set) == 0 {
			delete(h.topics, topic)
		}
	}
}

// fanOut marshals each message once and queues it to the topic's subscribers. The hand-written
// frames share one buffer a call, sized as the last call's (each queued as its own capped slice:
// later frames are written past it, or into new memory when the buffer grows). Every frame is
// made before the first is queued, and each subscriber's fill is held while its frames are
// queued, so its writer takes them in one batch.
func (h *hub) fanOut(ps []pub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	buf := make([]byte, 0, h.frameBytes+h.frameBytes/8)
	frames := h.frames[:0]
	if cap(frames) < len(ps) {
		frames = make([]hubFrame, 0, len(ps))
	}
	for _, p := range ps {
		set := h.topics[p.topic]
		if len(set) == 0 {
			continue
		}
		var b []byte
		var err error
		if _, ok := p.data.(jsonAppender); ok {
			start := len(buf)
			buf, err = appendFrame(buf, p.topic, p.data)
			b = buf[start:len(buf):len(buf)]
		} else {
			b, err = notificationFrame(p.topic, p.data)
		}
		if err == nil {
			frames = append(frames, hubFrame{b, set})
		}
	}
	h.frameBytes = min(len(buf), 8<<20)
	var held []*wsClient
	for _, f := range frames {
		for c := range f.set {
			if !c.filling {
				c.fill.Lock()
				c.filling = true
				held = append(held, c)
			}
			h.send(c, f.b)
		}
	}
	for _, c := range held {
		c.filling = false
		c.fill.Unlock()
	}
	clear(frames) // the frames are the subscribers' now
	h.frames = frames
}

// hubFrame is one message as fanOut queues it: its frame and the topic's subscribers.
type hubFrame struct {
	b   []byte
	set map[*wsClient]struct{}
}

func notificationFrame(channel string, data any) ([]byte, error) {
	return json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  struct {
			Channel string `json:"channel"`
			Data    any    `json:"data"`
		} `json:"params"`
	}{JSONRPC: "2.0", Method: "subscription", Params: struct {
		Channel string `json:"channel"`
		Data    any    `json:"data"`
	}{channel, data}})
}

// publish sends what changed in the engine to its subscribers (nothing to do while nobody
// subscribes). step says a market step ran. Call it after every change, without Sim.mu held.
func (s *Sim) publish(step bool) {
	if s.ws.subs.Load() == 0 {
		return
	}
	s.mu.Lock()
	var ps []pub
	if s.ws.tap != nil {
		ps = s.ws.tap.collect(s.eng, step)
	}
	s.ws.pubMu.Lock()
	s.mu.Unlock()
	s.ws.fanOut(ps)
	s.ws.pubMu.Unlock()
}
