package common_test

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestPickKeysConflictOnlyWhereTheyAreRead (issue #33): the close menu's keys and the ladder's
// pick keys are read while their pick is open, which takes every key but the kill switch and
// the profiles key: they may share keys with the pane numbers and the positions and ladder keys,
// but not with one another within a pick, the kill switch, the profiles key, Dismiss (which
// leaves the pick) or, in the close menu, Close (all of it). It fails if a pick's keys are
// checked against keys it never reads, or not against one it does.
func TestPickKeysConflictOnlyWhereTheyAreRead(t *testing.T) {
	for _, c := range []struct {
		over map[string][]string
		want string
	}{
		{map[string][]string{"close_25": {"q"}, "close_mid": {"t"}, "ladder_pick": {"b", "s", "x"}}, ""}, // quit, position_tpsl, ladder_buy...
		{map[string][]string{"close_50": {"1"}}, `"1" is bound to both close_25 and close_50`},
		{map[string][]string{"close_best": {"x"}}, `"x" is bound to both close and close_best`},
		{map[string][]string{"close_typed": {"esc"}}, `"esc" is bound to both dismiss and close_typed`},
		{map[string][]string{"ladder_pick": {"1", "esc"}}, `"esc" is bound to both dismiss and ladder_pick`},
		{map[string][]string{"ladder_pick": {"1", "ctrl+k"}}, `"ctrl+k" is bound to both kill_switch and ladder_pick`},
		{map[string][]string{"close_mid": {"ctrl+a"}}, `"ctrl+a" is bound to both profiles and close_mid`},
		{map[string][]string{"ladder_pick": {"1", "1"}}, `"1" is bound to both ladder_pick and ladder_pick`},
	} {
		keys := commontest.DefaultKeys()
		for name, ks := range c.over {
			keys[name] = ks
		}
		_, err := common.NewKeyMap(keys)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: keys a pick never reads: %v", c.over, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: error %v, want %q", c.over, err, c.want)
		}
	}
}
