package cmdline

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// LatencyMsg asks the root to show the latency view (`:latency`).
type LatencyMsg struct{}

// isLatency reports whether line is the latency command.
func isLatency(line string) bool { return strings.EqualFold(strings.TrimSpace(line), "latency") }

// checkLatency is check's reading of the latency command.
func (m *Model) checkLatency(line string) bool {
	if !isLatency(line) {
		return false
	}
	m.live = "✓ " + m.enterKey() + " shows each leg's latency this session"
	return true
}

// enterLatency is enter's handling of the latency command.
func (m *Model) enterLatency(line string) (tea.Cmd, bool) {
	if !isLatency(line) {
		return nil, false
	}
	return func() tea.Msg { return LatencyMsg{} }, true
}

func init() {
	verbUsage["latency"] = "latency: p50/p95/p99 of each leg from the keystroke to the screen, this session"
}
