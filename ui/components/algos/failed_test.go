package algos

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api/text"

	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestOnlyAnEndedFailureIsNoticed: a failed algorithm's ended row says why on the status line as
// an error, its text cleaned; a running, done or stopped row, or a failed one still in the live
// list, says nothing.
func TestOnlyAnEndedFailureIsNoticed(t *testing.T) {
	failed := Row{Progress: algo.Progress{ID: "c1\x1b[2J", Kind: "chase", State: algo.StateFailed, Detail: "refused: max_order_notional"}}
	cmd := Failed(failed)
	if cmd == nil {
		t.Fatal("a failed algorithm says nothing")
	}
	n, ok := cmd().(common.NoticeMsg)
	if !ok || n.Level != common.LevelError || n.Text != "chase "+text.Clean("c1\x1b[2J")+" failed: refused: max_order_notional" || strings.Contains(n.Text, "\x1b") {
		t.Fatalf("notice %#v", cmd())
	}
	live := failed
	live.Live = true
	for _, r := range []Row{live, {Progress: algo.Progress{State: journal.AlgoRunning}}, {Progress: algo.Progress{State: algo.StateDone}},
		{Progress: algo.Progress{State: algo.StateStopped}}} {
		if Failed(r) != nil {
			t.Errorf("row %+v is noticed", r)
		}
	}
}
