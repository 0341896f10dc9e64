package sim

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestFirstStateWaitsForTheAnswer: a subscribe's answer and the topic's first state (the book's
// snapshot) are queued with a pause between them. The official TypeScript SDK (0.0.1-beta.13)
// routes a channel's data only after its subscribe call returns; run against this simulator
// with the snapshot in the same read as the answer, its orderbook listener saw "update:6
// update:7" and never the snapshot; with the pause, "snapshot:3 update:4 update:5".
func TestFirstStateWaitsForTheAnswer(t *testing.T) {
	s := New(WithSeed(3), WithQuietMarkets())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &wsClient{out: make(chan []byte, 16), ctx: ctx, cancel: cancel, subs: map[string]bool{}}
	s.ws.add(c)
	defer s.ws.remove(c)
	s.wsSubscribe(c, rpcIn{JSONRPC: "2.0", ID: json.RawMessage(`"1"`), Method: "subscribe",
		Params: json.RawMessage(`{"channel":"orderbook","symbol":"BTC-PERP"}`)})
	var got []string
	for len(c.out) > 0 {
		b := <-c.out
		switch {
		case b == nil:
			got = append(got, "pause")
		case strings.Contains(string(b), `"result"`):
			got = append(got, "answer")
		case strings.Contains(string(b), `"snapshot"`):
			got = append(got, "snapshot")
		default:
			got = append(got, string(b))
		}
	}
	if strings.Join(got, " ") != "answer pause snapshot" {
		t.Fatalf("queued %q, want the answer, a pause, then the snapshot", got)
	}
}
