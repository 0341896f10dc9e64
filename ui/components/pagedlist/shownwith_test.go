package pagedlist

import (
	"context"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestHandleRefreshesOnWhatTheRowsAreShownWith: a change to a kind the pane shows its rows with
// (the funding and transfers panes' collateral names, the trades pane's funding) asks the pane to
// refresh, as its own kind does; another kind does not. The list's help is its navigation.
func TestHandleRefreshesOnWhatTheRowsAreShownWith(t *testing.T) {
	t0 := time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return t0 }
	c := commontest.NewCommon(t, state.New(clock), clock)
	src := Source{Kind: state.KindTransfers, Every: func(iv state.Intervals) time.Duration { return iv.Transfers },
		Page: func(api.Exchange, string, int) feed.Request {
			return func(context.Context, uint64, time.Time) (state.Msg, error) { return nil, nil }
		}}
	l := New(c, nil, src, []common.Column{common.Col("Row", 4, false, 0)},
		func(int, int) (string, common.Paint) { return "", c.Styles.Text }, "none")
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
	if h := l.ShortHelp(); len(h) != 2 || h[0].Help() != c.Keys.Up.Help() || h[1].Help() != c.Keys.Down.Help() || l.FullHelp() != nil {
		t.Errorf("help %v, %v: want the list's up and down only", h, l.FullHelp())
	}
}
