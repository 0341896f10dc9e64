package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api"
)

// stallMidMessage sends the first fragment of a notification (enough to be flushed) and never
// the rest, nor an answer to anything: the stream's reader waits inside a message.
func stallMidMessage(sent chan<- struct{}) func(ctx context.Context, c *websocket.Conn) {
	return func(ctx context.Context, c *websocket.Conn) {
		w, err := c.Writer(ctx, websocket.MessageText)
		if err == nil {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"book","data":"` + strings.Repeat("x", 64<<10)))
		}
		close(sent)
	}
}

// waitUp waits until the stream is up, and fails the test after 10 s.
func waitUp(t *testing.T, st *api.Stream) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !st.Status().Up; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the stream never came up: %+v", st.Status())
		}
	}
}

// TestStreamReadsArmNothingAFrame: the stream reads its frames with a context that is never
// cancelled, so coder/websocket registers nothing on the connection's context twice a frame
// (issue #34); TestStreamStallMidMessage and TestStreamCloseMidMessage show a read under way
// still ends on the ping timeout and on Close.
func TestStreamReadsArmNothingAFrame(t *testing.T) {
	u := hostileServer(t, func(context.Context, *websocket.Conn) {})
	st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	waitUp(t, st)
	never, live := api.ReadsArmNothing(st)
	if !live || !never {
		t.Fatalf("live %v, read context never cancelled %v: want both", live, never)
	}
}

// TestStreamStallMidMessage: a server that stops inside a message and answers no ping ends the
// connection on the keep-alive's timeout, with its reason, though the reader is mid-message.
func TestStreamStallMidMessage(t *testing.T) {
	t.Parallel()
	sent := make(chan struct{})
	u := hostileServer(t, stallMidMessage(sent))
	st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour), api.WithStreamPing(50*time.Millisecond, 200*time.Millisecond))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	<-sent
	waitDown(t, st)
	if msg := st.Status().Err.Error(); !strings.Contains(msg, "no answer to ping") {
		t.Fatalf("reason %q: want the ping timeout", msg)
	}
}

// TestStreamCloseMidMessage: Close returns while the reader waits inside a message.
func TestStreamCloseMidMessage(t *testing.T) {
	sent := make(chan struct{})
	u := hostileServer(t, stallMidMessage(sent))
	st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour))
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	<-sent
	waitUp(t, st)
	closed := make(chan struct{})
	go func() { st.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return with the reader inside a message")
	}
}
