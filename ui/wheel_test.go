package ui

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
	"github.com/tradedesk/tradedesk/ui/components/transfers"
)

// TestTheWheelFollowsTheBoundKeys (issue #33, 5): with up bound to k and down to j only, the
// mouse wheel moves a list's cursor as j and k do. It fails if the wheel sends the arrow keys
// whatever the bindings (the cursor then stays put once they are rebound).
func TestTheWheelFollowsTheBoundKeys(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return benchNow }
	s := state.New(clock)
	deposits := make([]api.TransferRecord, 3)
	for i := range deposits {
		deposits[i] = api.TransferRecord{Type: api.TransferDeposit, CollateralID: 1, Amount: decimal.NewFromInt(100), Time: api.Time{Time: benchNow.Add(-time.Duration(i) * time.Minute)}}
	}
	s.Apply(state.TransfersMsg{Gen: 1, At: benchNow, Transfers: deposits})
	c := commontest.NewCommon(t, s, clock)
	keys := commontest.Rebound(t, map[string][]string{"up": {"k"}, "down": {"j"}})
	c.Keys = &keys
	p := transfers.New(c, nil)
	p.SetSize(120, 8)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindTransfers})
	wheel(p, keys.Down)
	wheel(p, keys.Down)
	if got := p.Tbl.Selected(); got != 2 {
		t.Fatalf("after two turns down the cursor is on row %d, want 2", got)
	}
	wheel(p, keys.Up)
	if got := p.Tbl.Selected(); got != 1 {
		t.Fatalf("after a turn up the cursor is on row %d, want 1", got)
	}
}
