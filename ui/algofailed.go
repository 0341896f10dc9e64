package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
)

// algoFailed says on the status line why an algorithm this console ran ended failed (a child
// refused by the risk limits names the limit), as its row in the Algos view does; nil for any
// other progress.
func algoFailed(r algos.Row) tea.Cmd {
	if r.Live || r.State != algo.StateFailed {
		return nil
	}
	return common.Notice(common.LevelError, r.Kind+" "+text.Clean(r.ID)+" failed: "+text.Clean(r.Detail))
}
