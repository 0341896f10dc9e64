package sim

import (
	"context"
	"encoding/json"
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

// TestAStepIsOneWrite (issue #34): every market step reaches a subscriber in one write to the
// socket, whatever the order in which the step's fan-out and the subscriber's writer run. The
// writer woke on the step's first frame and, finding the queue empty while the fan-out was
// still encoding the rest (the candles and books go through encoding/json), wrote it alone:
// about one step in six of the idle demo was two writes, two wake-ups of the console's reader.
func TestAStepIsOneWrite(t *testing.T) {
	t.Parallel()
	clock := NewTestClock(testStart)
	s := New(WithSeed(7), WithClock(clock))
	ln := &countingListener{}
	srv := httptest.NewUnstartedServer(s)
	ln.Listener = srv.Listener
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	e := &env{t: t, sim: s, clock: clock, srv: srv}
	c := e.wsDial(t)
	subs := []string{`"channel":"ticker","symbol":"all"`, `"channel":"mids","symbol":"all"`}
	for _, m := range defaultMarkets() {
		subs = append(subs, `"channel":"orderbook","symbol":"`+m.name+`"`,
			`"channel":"chart","symbol":"`+m.name+`","chart_type":"mark","resolution":"60"`)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := 0
	readUntil := func(id string) { // reads up to the answer to id, counting every frame
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			got++
			var m wsMsg
			if json.Unmarshal(b, &m) == nil && m.ID == id {
				return
			}
		}
	}
	for i, p := range subs {
		wsSend(t, c, `{"jsonrpc":"2.0","id":"`+strconv.Itoa(i)+`","method":"subscribe","params":{`+p+`}}`)
		readUntil(strconv.Itoa(i))
	}
	wsSend(t, c, `{"jsonrpc":"2.0","id":"ping","method":"ping"}`) // answered after every first state is queued
	readUntil("ping")
	for sent, _ := s.StreamStats(); uint64(got) < sent; got++ {
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatalf("read: %v", err)
		}
	}
	split := 0
	const steps = 200
	for range steps {
		sent0, _ := s.StreamStats()
		w0 := ln.writes.Load()
		s.Advance(time.Second)
		sent, _ := s.StreamStats()
		for n := sent - sent0; n > 0; n-- {
			if _, _, err := c.Read(ctx); err != nil {
				t.Fatalf("read: %v", err)
			}
		}
		if ln.writes.Load()-w0 > 1 {
			split++
		}
	}
	if split > 0 {
		t.Errorf("%d of %d market steps took more than one write to the socket, want none", split, steps)
	}
}
