package ui

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/feed"
)

// TestConfigGuardBeatIsTheLinksBeat: Config.GuardBeat is how often the console heartbeats its
// account's guard (the root package's dead-man process test sets it short in the console it
// runs); 0 leaves the link's own second.
func TestConfigGuardBeatIsTheLinksBeat(t *testing.T) {
	t.Parallel()
	for _, beat := range []time.Duration{0, 200 * time.Millisecond} {
		m := New(Config{Exchange: api.New("http://127.0.0.1:1/"), Timers: feed.NewFakeClock(simStart), Keys: mustKeys(t), Theme: testTheme,
			Mode: ModeDemo, Network: "demo", GuardDir: t.TempDir(), GuardBeat: beat})
		if m.guard.Beat != beat || m.guard.Dir == "" {
			t.Errorf("GuardBeat %s: the link beats every %s (dir %q)", beat, m.guard.Beat, m.guard.Dir)
		}
	}
}
