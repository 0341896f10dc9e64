package sim

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestFirstStateWaitsForTheAnswer: a subscribe's answer and the topic's first state (the book's
// snapshot) are queued with a pause between them. The official TypeScript SDK (0.0.1-beta.13)
// routes a channel's data only after its subscribe call returns; run against this simulator
// with the snapshot in the same read as the answer, its orderbook listener saw "update:6
// update:7" and never the snapshot; with the pause, "snapshot:3 update:4 update:5".
func TestFirstStateWaitsForTheAnswer(t *testing.T) {
	t.Parallel()
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

// TestLongBurstsLoseNothing: a subscriber that fell behind gets every queued message, in order,
// none lost between write batches (a batch of 257 once dropped the message it had taken from the
// queue but had no room to write: BenchmarkStreamFanOut stalled at 2k msgs/s, 339k before).
func TestLongBurstsLoseNothing(t *testing.T) {
	t.Parallel()
	const queued = 1000
	done := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			done <- err
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := &wsClient{conn: conn, out: make(chan []byte, queued), ctx: ctx, cancel: cancel}
		for i := range queued {
			c.out <- []byte(strconv.Itoa(i))
		}
		for len(c.out) > 0 {
			if !c.writeBatch(<-c.out) {
				done <- errors.New("the connection failed")
				return
			}
		}
		done <- nil
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	for want := range queued {
		_, b, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read message %d of %d: %v", want, queued, err)
		}
		if got, _ := strconv.Atoi(string(b)); got != want {
			t.Fatalf("message %d arrived where %d belongs: one was lost", got, want)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
