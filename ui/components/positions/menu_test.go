package positions

import (
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestTheCloseMenuNamesTheBoundKeys (issue #33, 5): with close on z and dismiss on ctrl+g, the
// close menu's line names z for all and ctrl+g for leaving it. It fails if the line spells out
// esc again whatever the binding.
func TestTheCloseMenuNamesTheBoundKeys(t *testing.T) {
	clock := func() time.Time { return simStart }
	c := commontest.NewCommon(t, state.New(clock), clock)
	keys := commontest.Rebound(t, map[string][]string{"close": {"z"}, "dismiss": {"ctrl+g"}})
	c.Keys = &keys
	msg, ok := New(c).openMenu("BTC-PERP")().(common.NoticeMsg)
	if !ok || !strings.Contains(msg.Text, "4 or z all") || !strings.HasSuffix(msg.Text, "· ctrl+g") {
		t.Fatalf("the close menu's line: %q", msg.Text)
	}
}
