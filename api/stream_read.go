package api

import (
	"context"
	"errors"
	"fmt"
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

// read reads frames until the connection fails.
func (c *streamConn) read() {
	for {
		typ, b, err := c.ws.Read(c.ctx)
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
	evs, err := decodeData(sub.topic, f.Data, func(_ int, err error) { c.s.dropRow(sub.topic, err) })
	if err != nil {
		return fmt.Errorf("stream %s: %v", sub.topic, err)
	}
	if sub.topic.Channel == ChanOrderBook && len(evs) > 0 && !c.inBook(sub, evs[0].Data.(*BookUpdate)) {
		return nil
	}
	if !c.s.inbox.put(evs) {
		return fmt.Errorf("stream %s: over %d records queued and not read; dropped the connection to resynchronise", sub.topic, c.s.inbox.max)
	}
	return nil
}
