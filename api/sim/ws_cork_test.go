package sim

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// countingListener counts the writes to the connections it accepts.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return &countingConn{Conn: c, n: &l.writes}, err
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}

// TestABatchIsOneWrite (issue #34): the notifications queued to a subscriber together (a market
// step's dozen: tickers, mids, books, the account's) leave in one write to the socket, in order,
// so the reader is woken once for them; each was its own write, and its own wake-up of the
// console's reader.
func TestABatchIsOneWrite(t *testing.T) {
	t.Parallel()
	const queued = 14
	ln := &countingListener{}
	done := make(chan error, 1)
	var before int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, cork, err := acceptWS(w, r)
		if err != nil {
			done <- err
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := &wsClient{conn: conn, cork: cork, out: make(chan []byte, queued), ctx: ctx, cancel: cancel}
		for i := 1; i < queued; i++ {
			c.out <- []byte(strconv.Itoa(i))
		}
		before = ln.writes.Load()
		if !c.writeBatch([]byte("0")) {
			done <- errors.New("the connection failed")
			return
		}
		done <- nil
		<-r.Context().Done()
	}))
	ln.Listener = srv.Listener
	srv.Listener = ln
	srv.Start()
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
			t.Fatalf("message %d arrived where %d belongs", got, want)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := ln.writes.Load() - before; n != 1 {
		t.Errorf("%d notifications queued together took %d writes to the socket, want 1", queued, n)
	}
}
