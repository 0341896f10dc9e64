//go:build unix

package launch

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/tradedesk/tradedesk/api/text"
)

// openLogFile opens the log for appending, created owner-only. An existing path is taken only as
// the user's own regular file: a symlink is not followed (it could point the log at a file the
// user did not mean), a file of another user or a FIFO is refused (O_NONBLOCK: a FIFO with no
// reader fails at once instead of hanging the start), and a file others may read is made 0600.
func openLogFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, fmt.Errorf("%s is a symbolic link, which the log does not follow: give the file's own path", text.Quote(path))
	}
	if err != nil {
		return nil, err
	}
	if err := checkLogFile(f, path); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

func checkLogFile(f *os.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s): give a file path", text.Quote(path), st.Mode().Type())
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d): give a file of your own, or a new path", text.Quote(path), sys.Uid)
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return fmt.Errorf("%s is readable by others (mode %s) and could not be made owner-only: %w", text.Quote(path), st.Mode().Perm(), err)
		}
	}
	return nil
}
