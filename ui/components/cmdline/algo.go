package cmdline

import (
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// AlgoMsg asks the root to preview and start an algorithm command (chase, twap, scale, trail),
// or to settle one an earlier run left running (algos resume|cancel ID).
type AlgoMsg struct{ Cmd state.AlgoCommand }

// checkAlgo is check's reading of an algorithm line: it reports whether the line is one.
func (m *Model) checkAlgo(line string) bool {
	c, ok, err := state.ParseAlgoCommand(line)
	switch {
	case !ok:
		return false
	case err != nil:
		if ce, isCE := err.(*state.CommandError); isCE && ce.Word == 0 {
			return true // incomplete so far: the grammar's hint stays
		}
		m.live = "… " + text.Clean(text.HideKeys(err.Error()))
	case c.Kind == "algos":
		m.live = "✓ " + m.enterKey() + " does algos " + c.Choice + " " + text.Clean(c.ID)
	default:
		m.live = "✓ " + m.enterKey() + " previews the " + c.Kind + " (nothing is sent before you confirm)"
	}
	return true
}

// algoLine reads an algorithm's line (state.ParseAlgoCommand) as the root's message.
func algoLine(line string) (AlgoMsg, bool, error) {
	c, ok, err := state.ParseAlgoCommand(line)
	return AlgoMsg{Cmd: c}, ok, err
}

// The algorithm commands' grammar, shown while one is typed.
func init() {
	for _, v := range state.AlgoVerbs {
		verbUsage[v] = state.AlgoUsage(v)
	}
}
