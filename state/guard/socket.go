package guard

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// SocketDir is the directory of the guards' sockets: $XDG_RUNTIME_DIR/tradedesk when the runtime
// directory is set, else run/ under the state directory.
func SocketDir(runtimeDir, stateDir string) string {
	if runtimeDir != "" {
		return filepath.Join(runtimeDir, "tradedesk")
	}
	return filepath.Join(stateDir, "run")
}

// SocketPath is the socket of the guard of one account (one guard an account, whatever the
// network). The name is a digest, so the path stays within a unix socket's length limit.
func SocketPath(dir, account string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(account))))
	return filepath.Join(dir, "guard-"+hex.EncodeToString(sum[:6])+".sock")
}

// ErrRunning is returned by Listen when a guard already answers on the socket.
var ErrRunning = errors.New("a guard is already running for this account")

// Listen makes the socket's directory (0700, the user's own) and listens on path (0600). A
// socket file nobody answers on (a guard that died) is replaced; one a live guard answers on is
// ErrRunning; anything else at the path is refused.
func Listen(path string) (*net.UnixListener, error) {
	if err := ownDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if st, err := os.Lstat(path); err == nil {
		if st.Mode().Type() != os.ModeSocket {
			return nil, fmt.Errorf("%s exists and is not a socket: remove it", path)
		}
		c, err := net.DialTimeout("unix", path, time.Second)
		if err == nil {
			_ = c.Close()
			return nil, fmt.Errorf("%w (socket %s): stop it first (tradedesk guard stop)", ErrRunning, path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("stale socket %s: %w", path, err)
		}
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	l.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		_ = l.Close()
		return nil, err
	}
	return l, nil
}

// ownDir makes dir 0700 if it is missing; an existing one must be the user's and not a symlink,
// and is made owner-only.
func ownDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory (a symbolic link?): give the socket a directory of your own", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d): set XDG_RUNTIME_DIR to a directory of your own", dir, sys.Uid)
	}
	if st.Mode().Perm() != 0o700 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// Peer is one connection to the guard: its number and the process at its other end.
type Peer struct {
	ID  uint64
	PID int
}

// Handler answers a guard's requests.
type Handler interface {
	// Handle answers one request of peer (its version already checked).
	Handle(Peer, Request) Response
	// Gone is told when peer's connection has closed.
	Gone(Peer)
}

// HandlerFunc is a Handler of a function that keeps nothing of its peers.
type HandlerFunc func(Request) Response

// Handle implements Handler.
func (f HandlerFunc) Handle(_ Peer, r Request) Response { return f(r) }

// Gone implements Handler.
func (HandlerFunc) Gone(Peer) {}

// Serve answers the connections on l until ctx ends or l is closed: each line a request, each
// answered with one line. A peer of another user is refused (its uid checked on the socket); a
// request of another version gets an error naming both versions.
func Serve(ctx context.Context, l *net.UnixListener, h Handler) {
	var wg sync.WaitGroup
	stop := context.AfterFunc(ctx, func() { _ = l.Close() })
	defer stop()
	var n uint64
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			break
		}
		n++
		wg.Add(1)
		go func(id uint64) {
			defer wg.Done()
			serveConn(ctx, c, h, id)
		}(n)
	}
	wg.Wait()
}

func serveConn(ctx context.Context, c *net.UnixConn, h Handler, id uint64) {
	defer c.Close()
	// The guard's end closes the connection, but not under a request being answered: a stop
	// request ends the guard's context inside h, and its answer must still reach the caller.
	var answering sync.Mutex
	stop := context.AfterFunc(ctx, func() { answering.Lock(); _ = c.Close(); answering.Unlock() })
	defer stop()
	w := bufio.NewWriter(c)
	uid, pid, err := peerCred(c)
	if err != nil || uid != os.Getuid() {
		_, _ = w.Write(encodeLine(Response{V: Version, Error: "refused: this guard answers only its own user"}))
		_ = w.Flush()
		return
	}
	peer := Peer{ID: id, PID: pid}
	defer h.Gone(peer)
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 4096), 64<<10)
	for sc.Scan() {
		answering.Lock()
		var req Request
		var resp Response
		switch err := json.Unmarshal(sc.Bytes(), &req); {
		case err != nil:
			resp = Response{Error: "not a request: send one JSON object a line, such as {\"v\":1,\"cmd\":\"status\"}"}
		case req.V != Version:
			resp = Response{Error: versionMismatch(req.V)}
		default:
			resp = h.Handle(peer, req)
		}
		resp.V = Version
		_, _ = w.Write(encodeLine(resp))
		failed := w.Flush() != nil
		answering.Unlock()
		if failed || req.V != Version {
			return
		}
	}
}

func versionMismatch(theirs int) string {
	return fmt.Sprintf("protocol version %d is not this guard's (%d): use the same tradedesk version as the guard, or restart the guard with this one", theirs, Version)
}

// Call sends one request to the guard on path and returns its answer. A guard of another
// protocol version, or one that refuses, is an error that says so.
func Call(ctx context.Context, path string, cmd string) (Response, error) {
	return Send(ctx, path, Request{Cmd: cmd})
}

// Send sends req (its version set) to the guard on path on a connection of its own and returns
// the answer, as Call.
func Send(ctx context.Context, path string, req Request) (Response, error) {
	c, err := Dial(ctx, path)
	if err != nil {
		return Response{}, err
	}
	defer c.Close()
	return c.Do(ctx, req)
}
