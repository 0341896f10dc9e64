package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api"
)

// hostileServer answers every subscribe as the exchange would, then runs misbehave on the
// connection. It stands in for a broken or hostile exchange, which the simulator is not.
func hostileServer(t *testing.T, misbehave func(ctx context.Context, c *websocket.Conn)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		_, b, err := c.Read(ctx)
		if err != nil {
			return
		}
		id := between(string(b), `"id":"`, `"`)
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":"`+id+`","result":{"status":"subscribed","channels":["book"]}}`))
		go func() { // keep reading so pings and closes are seen
			for {
				if _, _, err := c.Read(ctx); err != nil {
					return
				}
			}
		}()
		misbehave(ctx, c)
		<-ctx.Done()
	}))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	return u
}

func between(s, a, b string) string {
	_, rest, _ := strings.Cut(s, a)
	v, _, _ := strings.Cut(rest, b)
	return v
}

func send(ctx context.Context, c *websocket.Conn, frames ...string) {
	for _, f := range frames {
		if c.Write(ctx, websocket.MessageText, []byte(f)) != nil {
			return
		}
	}
}

func note(data string) string {
	return `{"jsonrpc":"2.0","method":"subscription","params":{"channel":"book","data":` + data + `}}`
}

func book(kind string, seq int, price string) string {
	return note(`{"update_type":"` + kind + `","instrument_name":"BTC-PERP","books":{"bids":[{"price":` + price +
		`,"size":1}],"asks":[],"sequence_number":` + fmt.Sprint(seq) + `,"timestamp":1769688000000}}`)
}

// TestStreamHostileServers: each way a server can break the stream ends the connection with a
// clear message, without a panic and with memory bounded; numbers sent as strings (and the
// reverse) decode exactly, and an out-of-order sequence number is never applied.
func TestStreamHostileServers(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 10<<20)
	cases := []struct {
		name      string
		misbehave func(ctx context.Context, c *websocket.Conn)
		want      string // in the reason the connection went down
	}{
		{"malformed JSON", func(ctx context.Context, c *websocket.Conn) { send(ctx, c, `{"jsonrpc":"2.0","method":`) }, "malformed frame"},
		{"10 MB frame", func(ctx context.Context, c *websocket.Conn) { send(ctx, c, note(`"`+big+`"`)) }, "over"},
		{"unknown channels", func(ctx context.Context, c *websocket.Conn) {
			for i := 0; i < 200; i++ {
				send(ctx, c, `{"jsonrpc":"2.0","method":"subscription","params":{"channel":"zz`+fmt.Sprint(i)+`","data":{}}}`)
			}
		}, "not subscribed"},
		{"huge exponent", func(ctx context.Context, c *websocket.Conn) { send(ctx, c, book("snapshot", 1, "1e999999999")) }, "exponent"},
		{"string where a number goes", func(ctx context.Context, c *websocket.Conn) {
			send(ctx, c, note(`{"update_type":"snapshot","books":{"bids":[],"asks":[],"sequence_number":"seven"}}`))
		}, "orderbook"},
		{"a flood of 1M messages", func(ctx context.Context, c *websocket.Conn) {
			send(ctx, c, book("snapshot", 1, "100"))
			for i := 2; i < 1_000_000; i++ {
				if c.Write(ctx, websocket.MessageText, []byte(book("update", i, "100"))) != nil {
					return
				}
			}
		}, "queued and not read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := hostileServer(t, tc.misbehave)
			st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour), api.WithStreamLimits(1<<20, 1000))
			t.Cleanup(st.Close)
			if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
				t.Fatal(err)
			}
			waitDown(t, st)
			if msg := st.Status().Err.Error(); !strings.Contains(msg, tc.want) {
				t.Fatalf("reason %q does not say %q", msg, tc.want)
			}
			if n := len(st.Inbox().Drain().Events); n > 1000 {
				t.Fatalf("%d records queued: the inbox must stay bounded", n)
			}
		})
	}
}

// waitDown waits (without reading the inbox) until the connection went down after connecting.
func waitDown(t *testing.T, st *api.Stream) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		s := st.Status()
		if !s.Up && s.Err != nil && !strings.HasPrefix(s.Err.Error(), "stream connect") {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("the connection never went down: %+v", s)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestStreamFloodKeepsMemoryBounded: a server that floods a reader which does not drain holds at
// most the inbox's limit, whatever it sends.
func TestStreamFloodKeepsMemoryBounded(t *testing.T) {
	u := hostileServer(t, func(ctx context.Context, c *websocket.Conn) {
		send(ctx, c, book("snapshot", 1, "100"))
		for i := 2; i < 200_000; i++ {
			if c.Write(ctx, websocket.MessageText, []byte(book("update", i, "100"))) != nil {
				return
			}
		}
	})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour), api.WithStreamLimits(1<<20, 500))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	waitDown(t, st)
	b := st.Inbox().Drain()
	if len(b.Events) > 500 {
		t.Fatalf("%d records queued past the limit of 500", len(b.Events))
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 32<<20 {
		t.Fatalf("heap grew by %d MB under the flood", grew>>20)
	}
}

// TestStreamSequenceGapResubscribes: an update that skips a sequence number, or goes back, is
// never delivered; the client asks for the book again and gets a fresh snapshot.
func TestStreamSequenceGapResubscribes(t *testing.T) {
	resubscribed := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		subs := 0
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			id := between(string(b), `"id":"`, `"`)
			switch {
			case strings.Contains(string(b), `"unsubscribe"`):
				send(ctx, c, `{"jsonrpc":"2.0","id":"`+id+`","result":{"status":"unsubscribed","channels":["book"]}}`)
			case strings.Contains(string(b), `"subscribe"`):
				subs++
				send(ctx, c, `{"jsonrpc":"2.0","id":"`+id+`","result":{"status":"subscribed","channels":["book"]}}`)
				if subs == 1 {
					send(ctx, c, book("snapshot", 10, "100"), book("update", 11, "101"), book("update", 13, "999"), book("update", 12, "998"))
				} else {
					resubscribed <- id
					send(ctx, c, book("snapshot", 20, "200"), book("update", 21, "201"))
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	st := api.NewStream(u)
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	c := &collector{in: st.Inbox()}
	c.until(t, "the second snapshot's update", func() bool {
		return c.find(api.ChanOrderBook, func(d any) bool { return d.(*api.BookUpdate).Sequence == 21 }) != nil
	})
	var got []uint64
	for _, ev := range c.events {
		got = append(got, ev.Data.(*api.BookUpdate).Sequence)
	}
	if fmt.Sprint(got) != "[10 11 20 21]" {
		t.Fatalf("delivered sequence %v: want [10 11 20 21] (13 and 12 are a gap and a step back)", got)
	}
}

// TestStreamRefusesRedirectElsewhere: a redirect of the WebSocket handshake to another host is
// not followed (the same rule as /info); the connection stays down and says so.
func TestStreamRefusesRedirectElsewhere(t *testing.T) {
	reached := make(chan struct{}, 1)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
	}))
	t.Cleanup(other.Close)
	srv := httptest.NewServer(http.RedirectHandler(strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/ws/", http.StatusFound))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(st.Close)
	deadline := time.After(10 * time.Second)
	for st.Status().Err == nil {
		select {
		case <-deadline:
			t.Fatal("no failure reported")
		case <-time.After(5 * time.Millisecond):
		}
	}
	if msg := st.Status().Err.Error(); !strings.Contains(msg, "another scheme or host") {
		t.Fatalf("reason %q should say the redirect was refused", msg)
	}
	select {
	case <-reached:
		t.Fatal("the redirect was followed to the other host")
	default:
	}
}

// TestStreamDropsOneBadRow: a notification whose one row of three does not decode (a word where
// the price goes) keeps the other two, counts and says why the third was left out, and the
// connection stays up; one with most rows bad is not a list of records at all and ends the
// connection with the reason. Guards: a bad row costing the whole notification (or the
// connection), a row dropped without being counted, the more-than-half rule dropped.
func TestStreamDropsOneBadRow(t *testing.T) {
	t.Parallel()
	const user = "0x0000000000000000000000000000000000000001"
	rows := func(rs ...string) string { return note(`[` + strings.Join(rs, ",") + `]`) }
	good := func(id, price string) string {
		return `{"order_id":"` + id + `","instrument":"BTC-PERP","limit_price":"` + price + `","size":"1","state":"open"}`
	}
	bad := `{"order_id":"3","instrument":"BTC-PERP","limit_price":"ninety","size":"1","state":"open"}`
	u := hostileServer(t, func(ctx context.Context, c *websocket.Conn) {
		send(ctx, c, rows(good("1", "100"), bad, good("2", "101.5")))
		time.Sleep(200 * time.Millisecond) // the first notification is read on its own
		send(ctx, c, rows(bad, bad, good("4", "102")))
	})
	st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrders, User: user}); err != nil {
		t.Fatal(err)
	}
	var kept []string
	dropped, why, topic := 0, "", api.Topic{}
	deadline := time.After(10 * time.Second)
	for len(kept) < 2 || dropped == 0 {
		select {
		case <-st.Inbox().Ready():
			b := st.Inbox().Drain()
			for _, ev := range b.Events {
				o := ev.Data.(*api.OrderRecord)
				kept = append(kept, fmt.Sprint(o.OrderID)+"@"+o.LimitPrice.String())
			}
			if b.Dropped > 0 && why == "" {
				why, topic = b.DropReason, b.DropTopic
			}
			dropped += b.Dropped
		case <-deadline:
			t.Fatalf("kept %v, dropped %d: want the two good rows and the bad one counted", kept, dropped)
		}
	}
	if fmt.Sprint(kept) != "[1@100 2@101.5]" || dropped != 1 || st.Dropped() != 1 {
		t.Fatalf("kept %v, dropped %d (stream counts %d): want [1@100 2@101.5] and 1", kept, dropped, st.Dropped())
	}
	if topic.Channel != api.ChanOrders || !strings.Contains(why, "row 1") || !strings.Contains(why, "ninety") {
		t.Fatalf("drop of %v for %q: want the orders topic, and the reason naming the row and its bad value", topic, why)
	}
	waitDown(t, st) // the second notification: two rows of three bad
	if msg := st.Status().Err.Error(); !strings.Contains(msg, "2 of 3 rows do not decode") {
		t.Fatalf("reason %q should say most rows did not decode", msg)
	}
	if st.Dropped() != 1 {
		t.Fatalf("the failed notification's rows were counted as dropped: %d", st.Dropped())
	}
}
