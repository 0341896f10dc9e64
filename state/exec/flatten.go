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
		name := ""
		if i < len(plan.Closes) {
			name = plan.Closes[i].Position.Instrument
		}
		out = append(out, state.FlattenChild{Instrument: name, Status: o.Kind.String(), Reason: text.Clean(o.Reason),
			Filled:  o.Kind == Filled,
			Refused: o.Kind == Rejected || o.Kind == NotPlaced || o.Kind == Refused})
	}
	return out
}
