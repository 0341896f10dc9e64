package algos

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Failed says on the status line why an algorithm this console ran ended failed (a child
// refused by the risk limits names the limit), as its row in the view does; nil for any other
// progress (running, done, stopped, or a row of the live list).
func Failed(r Row) tea.Cmd {
	if r.Live || r.State != algo.StateFailed {
		return nil
	}
	return common.Notice(common.LevelError, r.Kind+" "+text.Clean(r.ID)+" failed: "+text.Clean(r.Detail))
}
