package pagedlist

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestAOnePageListAsksForNoOtherPage: a Source without Next (the transfers, the brokers) is one
// page: on its last row it asks for nothing more, its footer says all are loaded, and Over
// puts a line the pane draws (a line being typed) under the table in place of the list's own.
func TestAOnePageListAsksForNoOtherPage(t *testing.T) {
	var asked []int
	rows := []string{"a", "b", "c"}
	l := onePageList(t, &asked, func(row int) string { return rows[row] })
	l.SetSize(30, 5)
	l.SetFocused(true)
	l.Tbl.SetRows(len(rows))
	l.Tbl.Navigate(l.Keys, tea.KeyMsg{Type: tea.KeyEnd})
	if cmd := l.LoadMore(len(rows)); cmd != nil || len(asked) != 0 {
		t.Errorf("on the last row of a one-page list: asked for pages %v", asked)
	}
	if h := l.Hint(len(rows)); h != "3 loaded · all · e/E export CSV/JSON" {
		t.Errorf("footer %q: a one-page list has all loaded", h)
	}
	lines := strings.Split(l.Over("typing here"), "\n")
	if len(lines) != 5 || lines[4] != "typing here" || !strings.Contains(lines[3], "c") {
		t.Errorf("Over:\n%s", strings.Join(lines, "\n"))
	}
}

// onePageList is a list of the transfers' kind, one page (a Source without Next), with one
// column of row's words; the pages it asks for are added to asked.
func onePageList(t *testing.T, asked *[]int, row func(int) string) *List {
	t0 := time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return t0 }
	c := commontest.NewCommon(t, state.New(clock), clock)
	src := Source{Kind: state.KindTransfers, Every: func(iv state.Intervals) time.Duration { return iv.Transfers },
		Page: func(_ api.Exchange, _ string, page int) feed.Request {
			*asked = append(*asked, page)
			return func(context.Context, uint64, time.Time) (state.Msg, error) { return nil, nil }
		}}
	return New(c, nil, src, []common.Column{common.Col("Row", 4, false, 0)},
		func(r, _ int) (string, common.Paint) { return row(r), c.Styles.Text }, "none")
}
