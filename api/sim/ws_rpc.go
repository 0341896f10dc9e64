package sim

import (
	"encoding/json"
	"fmt"
	"time"
)

// The stream's JSON-RPC side: a client's messages (subscribe, unsubscribe, post) and the replies.

// rpcIn is one client message.
type rpcIn struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

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

// JSON-RPC error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcNoMethod       = -32601
	rpcInvalidParams  = -32602
)
