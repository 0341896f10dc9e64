package guard

import (
	"context"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperDialAsAnotherUser is not a test on its own: run by TestAnotherUserCannotAttach as
// another user, it asks the guard named by GUARD_TEST_DIAL for its status and prints the result.
func TestHelperDialAsAnotherUser(t *testing.T) {
	path := os.Getenv("GUARD_TEST_DIAL")
	if path == "" {
		t.Skip("run by TestAnotherUserCannotAttach")
	}
	_, err := Call(context.Background(), path, CmdStatus)
	fmt.Printf("RESULT: %v\n", err)
}

// TestAnotherUserCannotAttach: another user's process cannot reach the guard through the 0700
// directory and 0600 socket; with both opened to everyone it reaches the socket and the guard
// refuses it by its uid (SO_PEERCRED). Runs as root, which can start a process as nobody.
func TestAnotherUserCannotAttach(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a process as another user")
	}
	base := shortDir(t)
	dir := filepath.Join(base, "tradedesk")
	path := SocketPath(dir, "0xabc")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, l, HandlerFunc(func(Request) Response { return Response{OK: true, Status: &Status{Account: "0xabc"}} }))
	// A copy of this test binary everyone may run, in a directory everyone may enter.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "guard.test")
	copyFile(t, self, bin)
	for _, p := range []string{base, bin} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	asNobody := func() string {
		cmd := osexec.Command(bin, "-test.run=^TestHelperDialAsAnotherUser$", "-test.v")
		cmd.Env = append(os.Environ(), "GUARD_TEST_DIAL="+path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Dir = base
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the other user's process: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := asNobody(); !strings.Contains(out, "permission denied") {
		t.Fatalf("through the 0700 directory: %s", out)
	}
	for p, mode := range map[string]os.FileMode{dir: 0o777, path: 0o777} {
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	if out := asNobody(); !strings.Contains(out, "answers only its own user") {
		t.Fatalf("with the socket opened to everyone: %s", out)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	if resp, err := Call(ctx2, path, CmdStatus); err != nil || resp.Status.Account != "0xabc" {
		t.Fatalf("its own user: %+v %v", resp, err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
