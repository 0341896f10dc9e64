package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// The reading side of a stream connection: its pings, its frames, and where each goes.

// keepAlive pings until the connection fails, and returns why it did.
func (c *streamConn) keepAlive() error {
	t := time.NewTicker(c.s.cfg.pingEvery)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return context.Cause(c.ctx)
		case <-t.C:
			ctx, cancel := context.WithTimeout(c.ctx, c.s.cfg.pingTimeout)
			_, err := c.call(ctx, "ping", nil)
			cancel()
			if err != nil && c.ctx.Err() == nil {
				c.fail(fmt.Errorf("stream stalled: no answer to ping within %s", c.s.cfg.pingTimeout))
			}
		}
	}
}

// read reads frames until the connection fails. Each frame is read into one buffer, reused for
// the next (handle keeps no reference to a frame's bytes: every decoder copies what it keeps), so
// a frame costs no allocation of its own size (issue #34). The stream's liveness is keepAlive's
// ping, not a deadline per read; a read under way ends when the connection's context does, which
// closes the WebSocket (newStreamConn).
func (c *streamConn) read() {
	var buf []byte
	for {
		typ, b, err := readMessage(c.readCtx, c.ws, buf)
		if err != nil {
			if c.ctx.Err() == nil {
				c.fail(readError(err, c.s.cfg.maxFrame))
			}
			return
		}
		if typ != websocket.MessageText {
			c.fail(errors.New("stream sent a binary frame: want JSON text"))
			return
		}
		if err := c.handle(b); err != nil {
			c.fail(err)
			return
		}
		if buf = b[:0]; cap(buf) > maxKeptFrameBuffer {
			buf = nil // one rare big frame does not pin its buffer for the connection's life
		}
	}
}

// maxKeptFrameBuffer is the largest frame buffer read keeps for the next frame.
const maxKeptFrameBuffer = 256 << 10

// readMessage reads the next message into buf's memory, grown as needed, and returns it; the
// connection's read limit (SetReadLimit) applies as it does to websocket.Conn.Read, with the same
// error.
func readMessage(ctx context.Context, ws *websocket.Conn, buf []byte) (websocket.MessageType, []byte, error) {
	typ, r, err := ws.Reader(ctx)
	if err != nil {
		return 0, buf[:0], err
	}
	b := buf[:0]
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, max(4<<10, len(b)))
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			return typ, b, nil
		case err != nil:
			return typ, b, err
		}
	}
}

func readError(err error, maxFrame int64) error {
	var ce websocket.CloseError
	switch {
	case errors.As(err, &ce) && ce.Code == websocket.StatusMessageTooBig, strings.Contains(err.Error(), "message too big"):
		return fmt.Errorf("stream sent a frame over %d bytes; dropped the connection", maxFrame)
	case errors.As(err, &ce):
		return fmt.Errorf("stream closed by the exchange (%d %s)", ce.Code, truncate(ce.Reason, 80))
	}
	return fmt.Errorf("stream read: %v", shortErr(err))
}

// handle takes one frame: an answer goes to its caller, a notification to its subscription.
func (c *streamConn) handle(b []byte) error {
	f, err := decodeFrame(b)
	if err != nil {
		return err
	}
	if f.ID != "" {
		c.mu.Lock()
		p := c.pending[f.ID]
		delete(c.pending, f.ID)
		c.mu.Unlock()
		if p != nil {
			if p.onAnswer != nil {
				f = p.onAnswer(f)
			}
			p.ch <- f
		}
		return nil
	}
	c.mu.Lock()
	sub, leaving := c.routes[f.Channel], c.leaving[f.Channel]
	c.mu.Unlock()
	if sub == nil && leaving {
		return nil // sent before the exchange read our unsubscribe
	}
	if sub == nil {
		if c.unknown++; c.unknown >= maxUnknownChannels {
			return fmt.Errorf("stream sent %d notifications for channels not subscribed (last %q)", c.unknown, truncate(f.Channel, 40))
		}
		return nil
	}
	evs, err := decodeData(sub.topic, f.Data, func(_ int, err error) { c.dropRow(sub.topic, err) })
	if err != nil {
		return fmt.Errorf("stream %s: %v", sub.topic, err)
	}
	if sub.topic.Channel == ChanOrderBook && len(evs) > 0 && !c.inBook(sub, evs[0].Data.(*BookUpdate)) {
		return nil
	}
	if !c.deliver(evs) {
		return errQueued(sub.topic, c.s.inbox.max)
	}
	return nil
}

// errQueued is why a connection was dropped when topic t's queue was full.
func errQueued(t Topic, max int) error {
	return fmt.Errorf("stream %s: over %d records queued and not read; dropped the connection to resynchronise", t, max)
}
