package feed

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api"
)

// hostileWS is a WebSocket server a test drives: it answers every subscribe (the server channel
// id is channel:symbol), unsubscribe and ping as the exchange would, tells the test of each
// subscribe on subs, and sends what the test pushes with send, nothing else.
type hostileWS struct {
	url  string
	subs chan string
	mu   sync.Mutex
	conn *websocket.Conn
	ctx  context.Context
}

func newHostileWS(t *testing.T) *hostileWS {
	h := &hostileWS{subs: make(chan string, 64)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		h.mu.Lock()
		h.conn, h.ctx = c, r.Context()
		h.mu.Unlock()
		for {
			_, b, err := c.Read(r.Context())
			if err != nil {
				return
			}
			var req struct {
				ID     string          `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			if json.Unmarshal(b, &req) != nil {
				return
			}
			result, id := `{"timestamp":1769688000000}`, ""
			switch req.Method {
			case "subscribe":
				var p struct{ Channel, Symbol string }
				_ = json.Unmarshal(req.Params, &p)
				id = p.Channel + ":" + p.Symbol
				result = `{"status":"subscribed","channels":["` + id + `"]}`
			case "unsubscribe":
				result = `{"status":"unsubscribed","channels":[]}`
			}
			h.send(`{"jsonrpc":"2.0","id":"` + req.ID + `","result":` + result + `}`)
			if id != "" {
				h.subs <- id // after the answer: what the test sends next follows it
			}
		}
	}))
	t.Cleanup(srv.Close)
	h.url, _ = api.StreamURL(srv.URL)
	return h
}

// subscribed waits for n subscribes (the stream connects in the background).
func (h *hostileWS) subscribed(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-h.subs:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d subscribes arrived", i, n)
		}
	}
}

// send writes frames on the live connection.
func (h *hostileWS) send(frames ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range frames {
		if h.conn == nil || h.conn.Write(h.ctx, websocket.MessageText, []byte(f)) != nil {
			return
		}
	}
}

// notify is a notification of data on a server channel id.
func notify(channel, data string) string {
	return `{"jsonrpc":"2.0","method":"subscription","params":{"channel":"` + channel + `","data":` + data + `}}`
}
