package pagedlist

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
	"github.com/tradedesk/tradedesk/ui/export"
)

// TestTheExportLineNamesTheBoundStopKey (issue #33, 5): with export_stop on ctrl+x, a running
// export's status line says ctrl+x stops it. It fails if the line spells out Esc again.
func TestTheExportLineNamesTheBoundStopKey(t *testing.T) {
	keys := commontest.Rebound(t, map[string][]string{"export_stop": {"ctrl+x"}})
	st := common.NewStyles(commontest.Theme)
	e := Exporter{job: &exportJob{what: export.Fills, path: "/tmp/fills.csv"}}
	for _, total := range []int{0, 4} {
		e.job.total, e.job.done = total, total/2
		if line := e.line(st, &keys, 120); !strings.Contains(line, "(ctrl+x stops)") || strings.Contains(strings.ToLower(line), "esc") {
			t.Errorf("%d pages: %q does not name ctrl+x", total, line)
		}
	}
}
