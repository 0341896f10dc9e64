//go:build !unix

package api

import "net"

// newQuietConn cannot tell a read that would wait here: c is used as it is, and the stream
// signals each notification's records as it queues them.
func newQuietConn(c net.Conn, _ func()) (net.Conn, bool) { return c, false }
