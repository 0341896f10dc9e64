package api

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// frameServer is a WebSocket server on loopback that sends frames in order, over and over
// (forever: the benchmarks read as many as they need), and a client connected to it.
func frameServer(tb testing.TB, forever bool, frames ...[]byte) *websocket.Conn {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for ctx := r.Context(); ; {
			for _, f := range frames {
				if c.Write(ctx, websocket.MessageText, f) != nil {
					return
				}
			}
			if !forever {
				<-ctx.Done()
				return
			}
		}
	}))
	tb.Cleanup(srv.Close)
	ws, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	ws.SetReadLimit(DefaultMaxFrame)
	tb.Cleanup(func() { _ = ws.CloseNow() })
	return ws
}

// readDecoded reads one frame into buf through readMessage and decodes it as the stream does.
func readDecoded(tb testing.TB, ws *websocket.Conn, buf []byte, t Topic) ([]byte, []StreamEvent) {
	tb.Helper()
	_, b, err := readMessage(context.Background(), ws, buf)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := decodeFrame(b)
	if err != nil {
		tb.Fatal(err)
	}
	evs, err := decodeData(t, f.Data, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return b, evs
}

// TestStreamReadReusesItsBufferAndKeepsNoBytes: two frames of the same length are read into one
// buffer, and what the first decoded to (symbols, prices, the time) is intact after the second
// overwrote its bytes, for tickers and for mids. Guards: a decoder keeping a slice of the frame
// (a string made without a copy, a json.RawMessage kept) instead of copying it.
func TestStreamReadReusesItsBufferAndKeepsNoBytes(t *testing.T) {
	mids := midsFrame(5)
	otherMids := bytes.ReplaceAll(bytes.ReplaceAll(mids, []byte("SYN"), []byte("ZZZ")), []byte("800"), []byte("900"))
	for _, c := range []struct {
		first, second []byte
		topic         Topic
	}{
		{tickerFrame(1), bytes.ReplaceAll(bytes.ReplaceAll(tickerFrame(2), []byte("871"), []byte("999")), []byte("SYN"), []byte("QQQ")), Topic{Channel: ChanTicker, Symbol: "all"}},
		{mids, otherMids, Topic{Channel: ChanMids, Symbol: "all"}},
	} {
		ws := frameServer(t, false, c.first, c.second)
		b1, first := readDecoded(t, ws, nil, c.topic)
		want := describe(first)
		b2, second := readDecoded(t, ws, b1[:0], c.topic)
		if &b1[:1][0] != &b2[:1][0] {
			t.Fatalf("%s: the second frame was not read into the first's buffer", c.topic)
		}
		if !bytes.Equal(b2, c.second) || describe(second) == want {
			t.Fatalf("%s: the second frame read as %.80s", c.topic, b2)
		}
		if got := describe(first); got != want {
			t.Errorf("%s: the first frame's records changed when the second was read:\n got %s\nwant %s", c.topic, got, want)
		}
	}
}

// describe prints records deeply, strings and decimals as text.
func describe(evs []StreamEvent) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.Key)
		switch d := e.Data.(type) {
		case *Ticker:
			b.WriteString(d.Symbol + d.Type + d.MarkPrice.String() + d.LastPrice.String() + d.LastUpdated.String())
		case []Mid:
			for _, m := range d {
				b.WriteString(m.Symbol + m.MidPrice.String())
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// readPaths are the two ways a frame is read: websocket.Conn.Read's new buffer per message (the
// stream's reader before issue #34's change) and readMessage into a reused buffer (now).
var readPaths = []struct {
	name string
	read func(ws *websocket.Conn, buf []byte) ([]byte, error)
}{
	{"alloc", func(ws *websocket.Conn, _ []byte) ([]byte, error) {
		_, b, err := ws.Read(context.Background())
		return b, err
	}},
	{"reused", func(ws *websocket.Conn, buf []byte) ([]byte, error) {
		_, b, err := readMessage(context.Background(), ws, buf)
		return b, err
	}},
}

// BenchmarkStreamReadFrame reads and decodes one ticker notification, and one mids list of 509
// instruments, from a WebSocket server on loopback, both ways (readPaths), in one run. The
// allocations include the server's writes, which are in the same process.
func BenchmarkStreamReadFrame(b *testing.B) {
	for _, c := range []struct {
		name  string
		frame []byte
		topic Topic
	}{
		{"ticker", tickerFrame(1), Topic{Channel: ChanTicker, Symbol: "all"}},
		{"mids509", midsFrame(509), Topic{Channel: ChanMids, Symbol: "all"}},
	} {
		for _, p := range readPaths {
			b.Run(c.name+"/"+p.name, func(b *testing.B) {
				ws := frameServer(b, true, c.frame)
				var buf []byte
				b.ReportAllocs()
				b.SetBytes(int64(len(c.frame)))
				for b.Loop() {
					m, err := p.read(ws, buf)
					if err != nil {
						b.Fatal(err)
					}
					f, err := decodeFrame(m)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := decodeData(c.topic, f.Data, nil); err != nil {
						b.Fatal(err)
					}
					buf = m[:0]
				}
			})
		}
	}
}

// TestStreamReadAllocatesNoFrame: a mids list of 509 instruments (about 20 KB) read into a
// reused buffer allocates a small part of the frame's size (the server's writes and the
// library's per-read bookkeeping, in the same process), where websocket.Conn.Read, measured in
// the same test, allocates more than the frame itself. Guards: the reader back on a new buffer
// per frame, or the buffer dropped after every frame.
func TestStreamReadAllocatesNoFrame(t *testing.T) {
	frame := midsFrame(509)
	per := map[string]float64{}
	for _, p := range readPaths {
		ws := frameServer(t, true, frame)
		var buf []byte
		per[p.name] = bytesPerRun(200, func() {
			m, err := p.read(ws, buf)
			if err != nil || len(m) != len(frame) {
				t.Fatalf("read %d bytes, %v", len(m), err)
			}
			buf = m[:0]
		})
	}
	t.Logf("bytes a %d-byte frame: %.0f reused, %.0f websocket.Conn.Read", len(frame), per["reused"], per["alloc"])
	if per["alloc"] < float64(len(frame)) {
		t.Fatalf("websocket.Conn.Read allocated %.0f bytes a %d-byte frame: the measure is off", per["alloc"], len(frame))
	}
	if per["reused"] > float64(len(frame))/8 {
		t.Errorf("%.0f bytes allocated a %d-byte frame read into a reused buffer: want under an eighth of it", per["reused"], len(frame))
	}
}

// BenchmarkStreamReadContext reads one ticker notification from a WebSocket server on loopback
// with the context the stream's reader used before issue #34's change (the connection's, a
// cancellable child of the stream's: coder/websocket registers on it twice a frame) and with the
// one it uses now (never cancelled), in one run.
func BenchmarkStreamReadContext(b *testing.B) {
	for _, name := range []string{"cancellable", "never"} {
		b.Run(name, func(b *testing.B) {
			ws := frameServer(b, true, tickerFrame(1))
			ctx := context.Background()
			if name == "cancellable" {
				stream, cancel := context.WithCancel(ctx)
				defer cancel()
				conn, cancelConn := context.WithCancelCause(stream)
				defer cancelConn(nil)
				ctx = conn
			}
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				_, m, err := readMessage(ctx, ws, buf)
				if err != nil {
					b.Fatal(err)
				}
				buf = m[:0]
			}
		})
	}
}
