package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api"
)

// The simulator's stream: JSON-RPC 2.0 over WebSocket at /ws/, as protocol.md describes the real
// exchange's. Subscribers get every engine change of their channels: the tap (ws_tap.go) reads
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
}

// wsClient is one connection.
type wsClient struct {
	conn   *websocket.Conn
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc
	subs   map[string]bool // topics, by the reader only
	window time.Time
	count  int
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
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(wsMaxFrameIn)
	ctx, cancel := context.WithCancel(context.Background())
	c := &wsClient{conn: conn, out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel, subs: map[string]bool{}}
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

// writeBatch writes b and what is queued behind it (at most 256 more under one deadline), up to
// a pause; it reports whether the connection is still good. Nothing taken from the queue is left
// unwritten.
func (c *wsClient) writeBatch(b []byte) bool {
	ctx, cancel := context.WithTimeout(c.ctx, wsWriteTimeout)
	defer cancel()
	for n := 0; ; n++ {
		if b == nil {
			select {
			case <-c.ctx.Done():
				return false
			case <-time.After(wsSettle):
			}
			return true
		}
		if c.conn.Write(ctx, websocket.MessageText, b) != nil {
			return false
		}
		if n == 256 || len(c.out) == 0 {
			return true
		}
		b = <-c.out
	}
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

// fanOut marshals each message once and queues it to the topic's subscribers.
func (h *hub) fanOut(ps []pub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range ps {
		set := h.topics[p.topic]
		if len(set) == 0 {
			continue
		}
		b, err := notificationFrame(p.topic, p.data)
		if err != nil {
			continue
		}
		for c := range set {
			h.send(c, b)
		}
	}
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

// rpcIn is one client message.
type rpcIn struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// JSON-RPC error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcNoMethod       = -32601
	rpcInvalidParams  = -32602
)

type rpcErrorJSON struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// handleWS answers one client message.
func (s *Sim) handleWS(c *wsClient, b []byte) {
	var in rpcIn
	if err := json.Unmarshal(b, &in); err != nil {
		s.ws.reply(c, nil, nil, &rpcErrorJSON{rpcParseError, "not a JSON-RPC 2.0 object: " + trunc(err.Error(), 120)})
		return
	}
	if in.JSONRPC != "2.0" {
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcInvalidRequest, `jsonrpc must be "2.0"`})
		return
	}
	switch in.Method {
	case "subscribe":
		s.wsSubscribe(c, in)
	case "unsubscribe":
		s.wsUnsubscribe(c, in)
	case "ping":
		s.ws.reply(c, in.ID, map[string]int64{"timestamp": time.Now().UnixMilli()}, nil)
	case "post":
		s.wsPost(c, in)
	default:
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcNoMethod, fmt.Sprintf("unknown method %q: use subscribe, unsubscribe, ping or post", trunc(in.Method, 40))})
	}
}

// reply queues an answer to a request.
func (h *hub) reply(c *wsClient, id json.RawMessage, result any, e *rpcErrorJSON) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	out := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		out["error"] = e
	} else {
		out["result"] = result
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	h.send(c, b)
}

// wsSubscribe subscribes a client to one topic: the answer names the channel id its data comes
// on, then the topic's current state follows (an orderbook's snapshot).
func (s *Sim) wsSubscribe(c *wsClient, in rpcIn) {
	var p wsParams
	if err := json.Unmarshal(in.Params, &p); err != nil {
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcInvalidParams, "params: want an object {channel, ...}: " + trunc(err.Error(), 120)})
		return
	}
	if len(c.subs) >= wsMaxSubs {
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcInvalidParams, fmt.Sprintf("at most %d subscriptions a connection", wsMaxSubs)})
		return
	}
	s.mu.Lock()
	topic, first, err := s.tapAdd(p)
	if err != nil {
		s.mu.Unlock()
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcInvalidParams, trunc(err.Error(), maxErrorLen)})
		return
	}
	if c.subs[topic] {
		s.tapRemove(topic) // already subscribed: the tap counted it once
	}
	// The subscriber is counted before the engine's lock is released and before it is answered:
	// publish skips the tap while nobody is counted, so a change made between the answer and the
	// count (an order placed the moment the client saw the answer) was published only with the
	// next change. pubMu keeps every fan-out behind the answer and the first state.
	s.ws.pubMu.Lock()
	if !c.subs[topic] {
		c.subs[topic] = true
		s.ws.join(c, topic)
	}
	s.mu.Unlock()
	defer s.ws.pubMu.Unlock()
	s.ws.reply(c, in.ID, map[string]any{"status": "subscribed", "channels": []string{topic}}, nil)
	if len(first) > 0 {
		s.ws.settle(c)
	}
	for _, d := range first {
		if b, err := notificationFrame(topic, d); err == nil {
			s.ws.send(c, b)
		}
	}
}

func (s *Sim) wsUnsubscribe(c *wsClient, in rpcIn) {
	var ids []string
	if err := json.Unmarshal(in.Params, &ids); err != nil {
		var one struct {
			Channel string `json:"channel"`
		}
		if json.Unmarshal(in.Params, &one) != nil || one.Channel == "" {
			s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcInvalidParams, `params: want an array of channel ids, e.g. ["ticker:BTC-PERP"]`})
			return
		}
		ids = []string{one.Channel}
	}
	var done []string
	for _, id := range ids {
		if !c.subs[id] {
			continue
		}
		delete(c.subs, id)
		s.ws.mu.Lock()
		s.ws.leave(c, id)
		s.ws.mu.Unlock()
		s.mu.Lock()
		s.tapRemove(id)
		s.mu.Unlock()
		done = append(done, id)
	}
	if done == nil {
		done = []string{}
	}
	s.ws.reply(c, in.ID, map[string]any{"status": "unsubscribed", "channels": done}, nil)
}

// untap forgets a closed client's topics in the tap.
func (s *Sim) untap(c *wsClient) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range c.subs {
		s.tapRemove(id)
	}
}

// wsPost answers the newer generation's request over the socket: {type: info|action, payload}.
func (s *Sim) wsPost(c *wsClient, in rpcIn) {
	var p struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(in.Params, &p); err != nil || len(p.Payload) == 0 {
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcInvalidParams, "params: want {type: info or action, payload: the HTTP body}"})
		return
	}
	var status int
	var out any
	switch p.Type {
	case "info":
		status, out = s.info(p.Payload)
	case "action":
		status, out = s.exchange(p.Payload)
		defer s.publish(false)
	default:
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{rpcInvalidParams, fmt.Sprintf("params.type %q: want info or action", trunc(p.Type, 20))})
		return
	}
	if status >= 300 {
		msg := "request failed"
		if eb, ok := out.(errorBody); ok {
			msg = eb.Error
		} else if se, ok := out.(signedError); ok {
			msg = se.Error
		}
		s.ws.reply(c, in.ID, nil, &rpcErrorJSON{status, msg})
		return
	}
	s.ws.reply(c, in.ID, map[string]any{"data": out}, nil)
}

// wsParams is the union of both SDK generations' subscribe params.
type wsParams struct {
	Channel      string     `json:"channel"`
	Symbol       flexString `json:"symbol"`
	InstrumentID flexString `json:"instrument_id"`
	InstrumentId flexString `json:"instrumentId"` //nolint:revive // beta.13's name
	User         string     `json:"user"`
	Address      string     `json:"address"`
	ChartType    string     `json:"chart_type"`
	Resolution   flexString `json:"resolution"`
}

// channel names of beta.13 and their newer names.
var channelAliases = map[string]string{"trade": "trades", "order": "orders"}

// tapAdd registers a subscription with the tap (under Sim.mu) and returns its channel id and the
// topic's current state to send first.
func (s *Sim) tapAdd(p wsParams) (string, []any, error) {
	if s.ws.tap == nil {
		s.ws.tap = newTap()
	}
	t, e := s.ws.tap, s.eng
	ch := strings.ToLower(strings.TrimSpace(p.Channel))
	if a, ok := channelAliases[ch]; ok {
		ch = a
	}
	switch ch {
	case "ticker", "mids", "bbo", "orderbook", "trades":
		return s.tapMarket(ch, p)
	case "chart":
		return s.tapChart(p)
	case "orders", "fills", "position", "account_summary", "balance":
		user := p.User
		if user == "" {
			user = p.Address
		}
		addr, err := canonical(user)
		if err != nil {
			return "", nil, fmt.Errorf("%s: params.user: %v", ch, err)
		}
		w := t.users[addr]
		if w == nil {
			w = &userWatch{}
			t.users[addr] = w
		}
		var first []any
		a := e.accounts[addr]
		switch ch {
		case "orders":
			w.orders++
		case "fills":
			w.fills++
		case "position":
			w.positions++
			if a != nil {
				first = append(first, positionsOut(e.positions(a)))
			}
		case "account_summary":
			w.summary++
			first = append(first, summaryOut(e.summary(e.view(addr))))
		case "balance":
			w.balance++
			first = append(first, balanceOut(addr, e.summary(e.view(addr)), e.now()))
		}
		if !w.primed {
			if a != nil {
				w.prime(a)
			} else {
				w.primed, w.open = true, map[api.OrderID]orderSnap{} // a new account: everything it does is news
			}
		}
		return ch + ":" + addr, first, nil
	case "":
		return "", nil, fmt.Errorf("params.channel is missing: use ticker, mids, bbo, orderbook, trades, chart, orders, fills, position, account_summary")
	}
	return "", nil, fmt.Errorf("unknown channel %q: use ticker, mids, bbo, orderbook, trades, chart, orders, fills, position, account_summary (beta.13: trade, order, balance)", trunc(p.Channel, 40))
}

// tapMarket registers a market channel.
func (s *Sim) tapMarket(ch string, p wsParams) (string, []any, error) {
	t, e := s.ws.tap, s.eng
	sym := strings.TrimSpace(string(p.Symbol))
	if sym == "" {
		sym = strings.TrimSpace(string(p.InstrumentId))
	}
	if sym == "" {
		sym = strings.TrimSpace(string(p.InstrumentID))
	}
	if sym == "" {
		return "", nil, fmt.Errorf("%s: params.symbol is missing: send an instrument name such as BTC-PERP", ch)
	}
	if strings.EqualFold(sym, "all") && (ch == "ticker" || ch == "mids") {
		for _, m := range e.markets {
			t.watch(m).ticker += boolInt(ch == "ticker")
		}
		var first []any
		if ch == "ticker" {
			for _, m := range e.markets {
				first = append(first, tickerOut(e, m))
			}
		} else {
			t.mids["all"]++
			first = append(first, midsOut(e.markets))
		}
		return ch + ":all", first, nil
	}
	m, err := e.marketByName(sym)
	if err != nil {
		return "", nil, fmt.Errorf("%s: params.symbol: %v", ch, err)
	}
	w := t.watch(m)
	var first []any
	switch ch {
	case "ticker":
		w.ticker++
		first = append(first, tickerOut(e, m))
	case "mids":
		t.mids[m.name]++
		first = append(first, midsOut([]*market{m}))
	case "bbo":
		w.bbo++
		first = append(first, bboOut(e, m))
	case "orderbook":
		if w.book == 0 {
			w.bids, w.asks = levels(m, true), levels(m, false)
			w.seq++
		}
		w.book++
		first = append(first, w.snapshot(e, m))
	case "trades":
		if w.trades == 0 && len(m.trades) > 0 {
			w.lastTid = m.trades[len(m.trades)-1].id
		}
		w.trades++
	}
	return ch + ":" + m.name, first, nil
}

// tapChart registers a chart channel: instrument_id (or beta.13's symbol), chart_type, resolution.
func (s *Sim) tapChart(p wsParams) (string, []any, error) {
	e := s.eng
	sym := p.InstrumentID
	if sym == "" {
		sym = p.Symbol
	}
	if sym == "" {
		return "", nil, fmt.Errorf("chart: params.instrument_id is missing: send the instrument id")
	}
	m, err := e.marketByName(string(sym))
	if err != nil {
		return "", nil, fmt.Errorf("chart: params.instrument_id: %v", err)
	}
	ct := strings.ToLower(p.ChartType)
	if ct == "" {
		ct = "ltp"
	}
	kind, ok := chartTypeNames[ct]
	if !ok {
		return "", nil, fmt.Errorf("chart: params.chart_type %q: want mark, index or ltp", trunc(p.ChartType, 20))
	}
	res, err := resolutionIndex(string(p.Resolution))
	if err != nil {
		return "", nil, fmt.Errorf("chart: params.%v", err)
	}
	key := chartTopic{m, kind, res}
	w := s.ws.tap.charts[key]
	if w == nil {
		w = &chartWatch{}
		s.ws.tap.charts[key] = w
	}
	w.subs++
	var first []any
	if bars := m.charts.s[kind][res].bars; len(bars) > 0 {
		w.last = m.charts.candle(m, kind, bars[len(bars)-1])
		first = append(first, candleOut(w.last))
	}
	return key.key(), first, nil
}

func (t *tap) watch(m *market) *marketWatch {
	w := t.markets[m]
	if w == nil {
		w = &marketWatch{top: topOf(m)}
		t.markets[m] = w
	}
	return w
}

func midsOut(ms []*market) []api.Mid {
	out := make([]api.Mid, 0, len(ms))
	for _, m := range ms {
		out = append(out, api.Mid{Symbol: m.name, MidPrice: m.mid()})
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tapRemove forgets one subscription of a topic (under Sim.mu).
func (s *Sim) tapRemove(topic string) {
	t, e := s.ws.tap, s.eng
	if t == nil {
		return
	}
	ch, rest, _ := strings.Cut(topic, ":")
	switch ch {
	case "ticker", "mids", "bbo", "orderbook", "trades":
		if rest == "all" {
			if ch == "mids" {
				t.mids["all"]--
				return
			}
			for _, m := range e.markets {
				t.markets[m].ticker--
			}
			return
		}
		m, err := e.marketByName(rest)
		if err != nil || t.markets[m] == nil {
			return
		}
		w := t.markets[m]
		switch ch {
		case "ticker":
			w.ticker--
		case "mids":
			t.mids[m.name]--
		case "bbo":
			w.bbo--
		case "orderbook":
			w.book--
		case "trades":
			w.trades--
		}
	case "chart":
		for k, w := range t.charts {
			if k.key() == topic {
				if w.subs--; w.subs <= 0 {
					delete(t.charts, k)
				}
			}
		}
	default:
		w := t.users[rest]
		if w == nil {
			return
		}
		switch ch {
		case "orders":
			w.orders--
		case "fills":
			w.fills--
		case "position":
			w.positions--
		case "account_summary":
			w.summary--
		case "balance":
			w.balance--
		}
		if w.orders+w.fills+w.positions+w.summary+w.balance <= 0 {
			delete(t.users, rest)
		}
	}
}
