package cmdline

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// historyMax is how many lines the history keeps (the file is cut back to it when it is read).
const historyMax = 500

// History is the command line's past lines, oldest first, kept in a file when it has one: ↑ and ↓
// walk it. A line that holds what looks like a key is never kept.
type History struct {
	path  string
	lines []string
	at    int    // the line shown while walking (len(lines): the line being typed)
	draft string // the line being typed when the walk began
}

// DefaultHistoryPath is where the history files go in the user's state directory:
// $XDG_STATE_HOME, else ~/.local/state, then tradedesk/command_history ("" when there is no home
// directory); each network keeps its own file beside it (NetworkHistoryPath).
func DefaultHistoryPath() string {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "tradedesk", "command_history")
}

// NetworkHistoryPath is the history file of network (demo, mainnet, testnet, a URL's host) for
// the base path base: "command_history.mainnet". A line entered on one network never comes back
// on another (a demo order recalled in a live console would be sent live). base "" keeps the
// history in memory only.
func NetworkHistoryPath(base, network string) string {
	if base == "" {
		return ""
	}
	word := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		}
		return '_'
	}, strings.ToLower(network))
	if strings.Trim(word, "._") == "" {
		word = "unnamed"
	}
	return base + "." + word
}

// OpenHistory reads the history kept at path ("" for one kept in memory only). A file that cannot
// be read gives an empty history: the command line works without one.
func OpenHistory(path string) *History {
	h := &History{path: path}
	if path == "" {
		return h
	}
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); keepable(l) {
			h.lines = append(h.lines, l)
		}
	}
	if len(h.lines) > historyMax {
		h.lines = h.lines[len(h.lines)-historyMax:]
		h.rewrite()
	}
	h.Rewind()
	return h
}

// keepable reports whether a line may be kept: printable, not too long, and holding nothing that
// looks like a key.
func keepable(l string) bool {
	return l != "" && len(l) <= 200 && text.Safe(l) && text.HideKeys(l) == l
}

// Lines is the history, oldest first.
func (h *History) Lines() []string { return h.lines }

// Add keeps a line entered (not twice in a row) and appends it to the file.
func (h *History) Add(line string) {
	if !keepable(line) || len(h.lines) > 0 && h.lines[len(h.lines)-1] == line {
		return
	}
	h.lines = append(h.lines, line)
	if len(h.lines) > historyMax {
		h.lines = h.lines[1:]
	}
	if h.path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(line + "\n")
	_ = f.Close()
}

// rewrite writes the kept lines over the file.
func (h *History) rewrite() {
	tmp := h.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(h.lines, "\n")+"\n"), 0o600); err == nil {
		_ = os.Rename(tmp, h.path)
	}
}

// Rewind ends a walk: the next ↑ starts from the newest line.
func (h *History) Rewind() { h.at, h.draft = len(h.lines), "" }

// Back is the line before the one shown (typed: the line being typed, kept for Forward).
func (h *History) Back(typed string) string {
	if h.at == len(h.lines) {
		h.draft = typed
	}
	if h.at > 0 {
		h.at--
	}
	if h.at == len(h.lines) {
		return typed
	}
	return h.lines[h.at]
}

// Forward is the line after the one shown; past the newest, the line that was being typed.
func (h *History) Forward() string {
	if h.at < len(h.lines) {
		h.at++
	}
	if h.at == len(h.lines) {
		return h.draft
	}
	return h.lines[h.at]
}
