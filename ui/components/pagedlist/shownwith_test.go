package pagedlist

import (
	"testing"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestHandleRefreshesOnWhatTheRowsAreShownWith: a change to a kind the pane shows its rows with
// (the funding and transfers panes' collateral names, the trades pane's funding) asks the pane to
// refresh, as its own kind does; another kind does not. The list's help is its navigation.
func TestHandleRefreshesOnWhatTheRowsAreShownWith(t *testing.T) {
	var asked []int
	l := onePageList(t, &asked, func(int) string { return "" })
	for _, tc := range []struct {
		kind      state.Kind
		shownWith []state.Kind
		want      bool
	}{
		{state.KindTransfers, nil, true},
		{state.KindCollateral, nil, false},
		{state.KindCollateral, []state.Kind{state.KindCollateral}, true},
		{state.KindFunding, []state.Kind{state.KindCollateral}, false},
	} {
		_, handled, refresh := l.Handle(common.DataMsg{Kind: tc.kind}, tc.shownWith...)
		if !handled || refresh != tc.want {
			t.Errorf("%s with %v shown: handled %v, refresh %v; want refresh %v", tc.kind, tc.shownWith, handled, refresh, tc.want)
		}
	}
	if h := l.ShortHelp(); len(h) != 2 || h[0].Help() != l.Keys.Up.Help() || h[1].Help() != l.Keys.Down.Help() || l.FullHelp() != nil {
		t.Errorf("help %v, %v: want the list's up and down only", h, l.FullHelp())
	}
}
