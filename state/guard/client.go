package guard

import (
	"bufio"
	"context"
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

// Conn is one connection to a guard: requests go one at a time, each answered by one line.
type Conn struct {
	mu sync.Mutex
	c  net.Conn
	rd *bufio.Reader
}

// Dial connects to the guard on path; no guard there is an error that says how to start one.
func Dial(ctx context.Context, path string) (*Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("no guard is running for this account (no answer on %s): start one with tradedesk guard", path)
		}
		return nil, err
	}
	return &Conn{c: c, rd: bufio.NewReader(c)}, nil
}

// Do sends req (its version set) and returns the answer. A guard of another protocol version,
// or one that refuses, is an error that says so.
func (c *Conn) Do(ctx context.Context, req Request) (Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(30 * time.Second)
	}
	_ = c.c.SetDeadline(dl)
	req.V = Version
	_, werr := c.c.Write(encodeLine(req))
	// A guard that refuses the peer answers before it reads: its line may be there even when
	// the write found the connection closed.
	line, err := c.rd.ReadBytes('\n')
	if err != nil && werr != nil {
		return Response{}, fmt.Errorf("the guard is gone: %w", werr)
	}
	if err != nil {
		return Response{}, fmt.Errorf("the guard did not answer: %w", err)
	}
	var resp Response
	if err := json.Unmarshal(line, &resp); err != nil {
		return Response{}, fmt.Errorf("the guard's answer is not this protocol's: %w", err)
	}
	if resp.V != Version {
		return resp, fmt.Errorf("the guard speaks protocol version %d, this tradedesk %d: use the same tradedesk version as the guard", resp.V, Version)
	}
	if !resp.OK {
		return resp, errors.New(resp.Error)
	}
	return resp, nil
}

// Close closes the connection (a console detaches).
func (c *Conn) Close() error { return c.c.Close() }

// Attach connects a console (who) for account to the guard on path. A guard for another account
// refuses.
func Attach(ctx context.Context, path, account, who string) (*Conn, Status, error) {
	c, err := Dial(ctx, path)
	if err != nil {
		return nil, Status{}, err
	}
	resp, err := c.Do(ctx, Request{Cmd: CmdAttach, Account: account, Who: who})
	if err != nil {
		_ = c.Close()
		return nil, Status{}, err
	}
	if resp.Status == nil {
		_ = c.Close()
		return nil, Status{}, errors.New("the guard answered the attach without its status")
	}
	return c, *resp.Status, nil
}

// Beat sends a heartbeat and returns the guard's status.
func (c *Conn) Beat(ctx context.Context) (Status, error) {
	resp, err := c.Do(ctx, Request{Cmd: CmdHeartbeat})
	if err != nil || resp.Status == nil {
		return Status{}, errors.Join(err, errors.New("no status"))
	}
	return *resp.Status, nil
}

// Start starts an algorithm of kind with params (its parameters struct) in the guard and
// returns its id.
func (c *Conn) Start(ctx context.Context, kind string, params any) (string, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(ctx, Request{Cmd: CmdStart, Kind: kind, Params: raw})
	return resp.ID, err
}

// StopAlgo stops the guard's algorithm id.
func (c *Conn) StopAlgo(ctx context.Context, id string) error {
	_, err := c.Do(ctx, Request{Cmd: CmdStopAlgo, ID: id})
	return err
}

// Switch pauses (verb pause) or resumes (resume) the guard's algorithm id.
func (c *Conn) Switch(ctx context.Context, id, verb string) error {
	_, err := c.Do(ctx, Request{Cmd: verb, ID: id})
	return err
}

// Running is a guard found answering in a socket directory.
type Running struct {
	Path    string
	Account string
}

// Find looks in dir for a guard: the one for account when it answers (mine), else any other
// that answers (for another account). Neither found is two zero values. The account's guard
// answering but refusing (another protocol version, another user) is the error that says why.
func Find(ctx context.Context, dir, account string) (mine, other Running, err error) {
	path := SocketPath(dir, account)
	resp, err := Call(ctx, path, CmdStatus)
	switch {
	case err == nil && resp.Status != nil:
		return Running{Path: path, Account: resp.Status.Account}, Running{}, nil
	case err != nil && resp.V != 0:
		return Running{}, Running{}, err
	}
	socks, _ := filepath.Glob(filepath.Join(dir, "guard-*.sock"))
	for _, s := range socks {
		if s == path {
			continue
		}
		if resp, err := Call(ctx, s, CmdStatus); err == nil && resp.Status != nil && !strings.EqualFold(resp.Status.Account, account) {
			return Running{}, Running{Path: s, Account: resp.Status.Account}, nil
		}
	}
	return Running{}, Running{}, nil
}
