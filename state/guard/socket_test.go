package guard

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shortDir is a directory whose paths fit a unix socket's limit.
func shortDir(t *testing.T) string {
	d, err := os.MkdirTemp("", "gd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

// TestSocketModesStaleAndRunning: the socket's directory is made 0700 and the socket 0600; a
// request is answered; a second Listen while the guard answers is ErrRunning; a socket file
// left by a dead guard is replaced; a file that is not a socket is refused.
func TestSocketModesStaleAndRunning(t *testing.T) {
	dir := filepath.Join(shortDir(t), "tradedesk")
	path := SocketPath(dir, "0xAbC")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
			t.Fatalf("%s: %v %v, want %v", p, st.Mode(), err, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		Serve(ctx, l, HandlerFunc(func(r Request) Response {
			return Response{OK: true, Status: &Status{Account: "0xabc"}}
		}))
		close(done)
	}()
	resp, err := Call(ctx, path, CmdStatus)
	if err != nil || resp.Status == nil || resp.Status.Account != "0xabc" {
		t.Fatalf("status: %+v %v", resp, err)
	}
	if _, err := Listen(path); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second guard on a live socket: %v", err)
	}
	cancel()
	<-done
	// A dead guard's socket file: bound, never closed by its owner.
	stale, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	stale.SetUnlinkOnClose(false)
	_ = stale.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("the stale socket is not there: %v", err)
	}
	if _, err := Call(context.Background(), path, CmdStatus); err == nil || !strings.Contains(err.Error(), "no guard is running") {
		t.Fatalf("calling a dead guard: %v", err)
	}
	l2, err := Listen(path)
	if err != nil {
		t.Fatalf("the stale socket was not replaced: %v", err)
	}
	_ = l2.Close()
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("a plain file at the socket's path: %v", err)
	}
}

// TestAnotherProtocolVersionIsRefused: a client of another version gets an error naming both
// versions and nothing else; a client seeing a guard of another version says so.
func TestAnotherProtocolVersionIsRefused(t *testing.T) {
	path := SocketPath(shortDir(t), "0xabc")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, l, HandlerFunc(func(Request) Response { return Response{OK: true, Status: &Status{}} }))
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.Write([]byte(`{"v":2,"cmd":"status"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.Contains(line, `"ok":false`) || !strings.Contains(line, "protocol version 2 is not this guard's (1)") || strings.Contains(line, "status\":{") {
		t.Fatalf("a version 2 client: %q %v", line, err)
	}
	// The guard's side of a mismatch, as a client sees it.
	fake := SocketPath(shortDir(t), "0xabc")
	fl, err := Listen(fake)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		c, err := fl.Accept()
		if err == nil {
			_, _ = bufio.NewReader(c).ReadString('\n')
			_, _ = c.Write([]byte(`{"v":7,"ok":true}` + "\n"))
			_ = c.Close()
		}
	}()
	if _, err := Call(ctx, fake, CmdStatus); err == nil || !strings.Contains(err.Error(), "protocol version 7, this tradedesk 1") {
		t.Fatalf("a guard of version 7: %v", err)
	}
}
