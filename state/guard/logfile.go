package guard

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// OpenLog opens the guard's log for appending, created owner-only, by the console's --log rules:
// an existing path is taken only as the user's own regular file, a symlink is not followed, a
// FIFO is refused without hanging, and a file others may read is made 0600.
func OpenLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, fmt.Errorf("%q is a symbolic link, which the log does not follow: give the file's own path", path)
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
	case !st.Mode().IsRegular():
		err = fmt.Errorf("%q is not a regular file (%s): give a file path", path, st.Mode().Type())
	case st.Sys() != nil && int(st.Sys().(*syscall.Stat_t).Uid) != os.Getuid():
		err = fmt.Errorf("%q belongs to another user: give a file of your own, or a new path", path)
	case st.Mode().Perm()&0o077 != 0:
		if cerr := f.Chmod(0o600); cerr != nil {
			err = fmt.Errorf("%q is readable by others (mode %s) and could not be made owner-only: %w", path, st.Mode().Perm(), cerr)
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}
