//go:build !unix

package launch

import (
	"fmt"
	"os"

	"github.com/tradedesk/tradedesk/api/text"
)

// openLogFile opens the log for appending, created owner-only; a symlink is refused.
func openLogFile(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link, which the log does not follow: give the file's own path", text.Quote(path))
	}
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}
