package sim

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// corkConn is a stream connection whose writes can be held and sent as one. The WebSocket library
// writes each frame to the connection as it is written; the writer holds the connection, writes a
// batch of frames, and sends them in one write, so a market step's dozen notifications cost the
// reader one wake-up, not a dozen (issue #34). While not held every write goes straight through.
type corkConn struct {
	net.Conn
	mu   sync.Mutex
	held bool
	buf  []byte
}

// corkCap is the most a held buffer keeps between batches; a larger one is let go.
const corkCap = 1 << 20

// Write writes p, or keeps it for send while the connection is held.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// hold keeps what is written until send (a nil c: nothing to hold).
func (c *corkConn) hold() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.held = true
	c.mu.Unlock()
}

// full reports whether what is kept has reached half corkCap (a nil c: never): a batch stops
// there, so its buffer, a frame over that at most, is kept for the next.
func (c *corkConn) full() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.buf) >= corkCap/2
}

// send writes what was kept in one write, within timeout, and lets later writes through.
func (c *corkConn) send(timeout time.Duration) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = false
	if len(c.buf) == 0 {
		return nil
	}
	_ = c.Conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := c.Conn.Write(c.buf)
	_ = c.Conn.SetWriteDeadline(time.Time{})
	c.buf = c.buf[:0]
	if cap(c.buf) > corkCap {
		c.buf = nil
	}
	return err
}

// corkWriter hands the WebSocket library a corkConn in place of the connection it hijacks.
type corkWriter struct {
	http.ResponseWriter
	cork *corkConn
}

// Hijack implements http.Hijacker: the connection wrapped in a corkConn, the buffered writer
// writing through it.
func (w *corkWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.cork = &corkConn{Conn: conn}
	return w.cork, bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(w.cork, brw.Writer.Size())), nil
}

// acceptWS upgrades a request to a WebSocket whose connection can be held (corkConn).
func acceptWS(w http.ResponseWriter, r *http.Request) (*websocket.Conn, *corkConn, error) {
	cw := &corkWriter{ResponseWriter: w}
	conn, err := websocket.Accept(cw, r, nil)
	if err != nil {
		return nil, nil, err
	}
	return conn, cw.cork, nil
}
