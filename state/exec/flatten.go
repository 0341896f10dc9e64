package exec

import (
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// FlattenChildren is what became of each order of a flatten (res, sent from plan's closes in
// their order): the console's and the headless result lines, one a child, and their sum
// (state.FlattenSummary).
func FlattenChildren(plan state.FlattenPlan, res BatchResult) []state.FlattenChild {
	out := make([]state.FlattenChild, 0, len(res.Orders))
	for i, o := range res.Orders {
		c := state.FlattenChild{Status: o.Kind.String(), Reason: text.Clean(o.Reason), Filled: o.Kind == Filled,
			Refused: o.Kind == Rejected || o.Kind == NotPlaced || o.Kind == Refused}
		if i < len(plan.Closes) {
			c.Instrument, c.PnL, c.Fee = plan.Closes[i].Position.Instrument, plan.Closes[i].PnL, plan.Closes[i].Fee
		}
		out = append(out, c)
	}
	return out
}
