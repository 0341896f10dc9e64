//go:build unix

package launch

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLogFileOpenedSafely: --log creates an owner-only file; an existing file readable by others
// is made 0600; a symlink is not followed (its target is left untouched), and a file of another
// user or a FIFO is refused with what to do, without hanging. Guards the log opened as found.
func TestLogFileOpenedSafely(t *testing.T) {
	dir := t.TempDir()
	check := func(path string) (os.FileMode, error) {
		_, closeLog, err := OpenLog(path)
		if err != nil {
			return 0, err
		}
		closeLog()
		st, err := os.Stat(path)
		return st.Mode().Perm(), err
	}
	if mode, err := check(filepath.Join(dir, "new.log")); err != nil || mode != 0o600 {
		t.Fatalf("new log: mode %v, %v", mode, err)
	}
	open := filepath.Join(dir, "open.log")
	if err := os.WriteFile(open, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if mode, err := check(open); err != nil || mode != 0o600 {
		t.Fatalf("a log readable by others: mode %v, %v", mode, err)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := check(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a symlink: %v", err)
	}
	if st, _ := os.Stat(target); st.Size() != 0 || st.Mode().Perm() != 0o644 {
		t.Fatalf("the symlink's target was touched: %v, %d bytes", st.Mode(), st.Size())
	}
	fifo := filepath.Join(dir, "fifo.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := check(fifo); err == nil {
		t.Fatal("a FIFO was taken as the log")
	}
	if os.Getuid() != 0 {
		return // only root can give a file to another user
	}
	theirs := filepath.Join(dir, "theirs.log")
	if err := os.WriteFile(theirs, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := check(theirs); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Fatalf("another user's file: %v", err)
	}
}
