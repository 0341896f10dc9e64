//go:build unix

package api_test

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestAWriteOfManyNotificationsIsOneBatch: notifications the exchange writes at once (a market
// step) reach the consumer as one batch: the inbox is signalled only once the reader has read all
// the network delivered. The burst's second notification has a bad row, whose log holds the
// reader in the middle of the burst: before the change the first notification's records had
// already signalled the inbox by then (a step was two or more batches, each applied and drawn),
// so the check does not depend on timing.
func TestAWriteOfManyNotificationsIsOneBatch(t *testing.T) {
	bursts := make(chan string)
	logged, release := make(chan struct{}), make(chan struct{})
	st := api.NewStream(burstServer(t, bursts), api.WithStreamBackoff(time.Hour, time.Hour),
		api.WithStreamPing(time.Hour, time.Hour), api.WithStreamLogger(slog.New(heldHandler{logged, release})))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrders, User: "0x0000000000000000000000000000000000000001"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second) // guards a hang only
	wait := func(c <-chan struct{}, what string) {
		select {
		case <-c:
		case <-deadline:
			t.Fatalf("%s never happened (status %+v)", what, st.Status())
		}
	}
	for !st.Inbox().Drain().Status.Up {
		wait(st.Inbox().Ready(), "the stream coming up")
	}
	order := func(id, price string) string {
		return `{"order_id":"` + id + `","instrument":"BTC-PERP","limit_price":"` + price + `","size":"1","state":"open"}`
	}
	for round := range 3 {
		p := func(i int) string { return fmt.Sprint(100*round + i) }
		bursts <- ordersNote(order(p(1), p(1))) + ordersNote(order(p(2), p(2)), order(p(9), "ninety"), order(p(3), p(3))) + ordersNote(order(p(4), p(4)))
		wait(logged, "the bad row's log")
		select {
		case <-st.Inbox().Ready():
			t.Fatalf("round %d: the inbox was signalled while the reader was in the middle of one write's notifications", round)
		default:
		}
		release <- struct{}{}
		wait(st.Inbox().Ready(), "the burst's signal")
		b := st.Inbox().Drain()
		var got []string
		for _, ev := range b.Events {
			got = append(got, ev.Data.(*api.OrderRecord).LimitPrice.String())
		}
		if want := p(1) + " " + p(2) + " " + p(3) + " " + p(4); strings.Join(got, " ") != want || b.Dropped != 1 {
			t.Fatalf("round %d: one batch of %v and %d dropped rows: want %s and the bad row in one batch", round, got, b.Dropped, want)
		}
	}
}

// heldHandler is a log handler that says when a record is logged, then holds the logging
// goroutine (the stream's reader) until released.
type heldHandler struct{ logged, release chan struct{} }

func (heldHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h heldHandler) Handle(context.Context, slog.Record) error {
	h.logged <- struct{}{}
	<-h.release
	return nil
}
func (h heldHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h heldHandler) WithGroup(string) slog.Handler      { return h }

// ordersNote is a notification of the orders channel's subscription ("first") with rows.
func ordersNote(rows ...string) string {
	return wsFrame(`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"first","data":[` + strings.Join(rows, ",") + `]}}`)
}

// burstServer is a WebSocket server written by hand, so that it can write several frames in one
// write as the exchange writes a market step: it answers every subscribe (channel "first") and
// writes each string from bursts (frames: wsFrame) in one write.
func burstServer(t *testing.T, bursts <-chan string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
		conn, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		var mu sync.Mutex
		write := func(b string) {
			mu.Lock()
			defer mu.Unlock()
			_, _ = io.WriteString(conn, b)
		}
		write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
			base64.StdEncoding.EncodeToString(accept[:]) + "\r\n\r\n")
		done := make(chan struct{})
		defer close(done)
		go func() {
			for {
				select {
				case b := <-bursts:
					write(b)
				case <-done:
					return
				}
			}
		}()
		for {
			msg, err := readClientFrame(rw.Reader)
			if err != nil {
				return
			}
			id := between(msg, `"id":"`, `"`)
			write(wsFrame(`{"jsonrpc":"2.0","id":"` + id + `","result":{"status":"subscribed","channels":["first"]}}`))
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	return u
}

// wsFrame is a server's text frame carrying s.
func wsFrame(s string) string {
	var h []byte
	switch n := len(s); {
	case n < 126:
		h = []byte{0x81, byte(n)}
	case n < 1<<16:
		h = binary.BigEndian.AppendUint16([]byte{0x81, 126}, uint16(n))
	default:
		h = binary.BigEndian.AppendUint64([]byte{0x81, 127}, uint64(n))
	}
	return string(h) + s
}

// readClientFrame reads a client's (masked) frame and returns its payload.
func readClientFrame(r *bufio.Reader) (string, error) {
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return "", err
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", err
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return "", err
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	var mask [4]byte
	if _, err := io.ReadFull(r, mask[:]); err != nil {
		return "", err
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return "", err
	}
	for i := range p {
		p[i] ^= mask[i%4]
	}
	return string(p), nil
}
