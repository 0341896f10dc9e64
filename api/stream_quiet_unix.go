//go:build unix

package api

import (
	"net"
	"syscall"
)

// quietConn is a connection that calls idle before a read that would wait: it first reads what
// the socket already holds without waiting, and only when that is nothing calls idle and waits.
type quietConn struct {
	net.Conn
	raw  syscall.RawConn
	idle func()
}

// newQuietConn wraps c when its socket can be read without waiting; ok is false (and c returned
// as it is) when it cannot.
func newQuietConn(c net.Conn, idle func()) (net.Conn, bool) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c, false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return c, false
	}
	return &quietConn{Conn: c, raw: raw, idle: idle}, true
}

// Read implements net.Conn.
func (c *quietConn) Read(p []byte) (int, error) {
	if len(p) > 0 {
		if n := c.readHeld(p); n > 0 {
			return n, nil
		}
		c.idle()
	}
	return c.Conn.Read(p)
}

// readHeld reads what the socket holds now, without waiting: 0 when it holds nothing or the read
// failed (the waiting read that follows reports the end or the error as the connection would).
func (c *quietConn) readHeld(p []byte) int {
	n := 0
	_ = c.raw.Read(func(fd uintptr) bool {
		for {
			m, err := syscall.Read(int(fd), p)
			if err == syscall.EINTR {
				continue
			}
			if err == nil {
				n = m
			}
			return true // done either way: never wait here
		}
	})
	return n
}
