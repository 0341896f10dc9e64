package profile

import (
	"fmt"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

// DeadMan is the [dead_man] table: the guard (tradedesk guard) arms its dead-man's switch at
// start with it; --dead-man and --dead-man-flatten override it.
type DeadMan struct {
	After   string `toml:"after"`   // how long without a heartbeat, e.g. "30s" ("": not armed)
	Flatten bool   `toml:"flatten"` // also close every position when it fires
}

// Span is After as a duration (0: not armed); a bad one says what to give.
func (d DeadMan) Span() (time.Duration, error) {
	s := strings.TrimSpace(d.After)
	if s == "" {
		if d.Flatten {
			return 0, fmt.Errorf("config [dead_man] flatten = true needs after, such as after = \"30s\"")
		}
		return 0, nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < time.Second {
		return 0, fmt.Errorf("config [dead_man] after = %s: give a span of at least 1s, such as \"30s\"", text.Quote(d.After))
	}
	return v, nil
}
