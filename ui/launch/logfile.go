package launch

import (
	"fmt"
	"log/slog"
)

// OpenLog opens the --log file (a JSON slog handler; the api client logs every request to it with
// signatures shortened and no key); without one, nothing is logged or even formatted. The file is
// opened by openLogFile's rules: the user's own regular file, not through a symlink, owner-only.
func OpenLog(path string) (*slog.Logger, func(), error) {
	if path == "" {
		return slog.New(slog.DiscardHandler), func() {}, nil
	}
	f, err := openLogFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--log: %w", err)
	}
	return slog.New(slog.NewJSONHandler(f, nil)), func() { _ = f.Close() }, nil
}
