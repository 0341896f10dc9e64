package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/ui/components/risk"

	rules "github.com/tradedesk/tradedesk/state/risk"
)

// TestARiskReadThatChangesNothingDrawsNoPane (issue #34): the trading state is read every
// risk.Every while the account's data moves; a read that brings the words and report already
// shown draws no pane and leaves the frame; one whose report changed draws again.
func TestARiskReadThatChangesNothingDrawsNoPane(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	renders := 0
	for _, s := range c.m.slots {
		s.pane = countingPane{Pane: s.pane, n: &renders}
	}
	read := func(used int64) risk.Msg {
		return risk.Msg{Report: &rules.Report{State: rules.Active, Day: "2026-11-27", Limits: []rules.Use{
			{Name: rules.Drawdown, Limit: decimal.NewFromInt(500), Used: decimal.NewFromInt(used), Measured: true}}}}
	}
	pump(t, c.m, func() tea.Msg { return read(10) })
	first := c.m.View()
	drawn := renders
	pump(t, c.m, func() tea.Msg { return read(10) })
	if got := c.m.View(); got != first || renders != drawn {
		t.Errorf("the same read again rendered the panes %d times (frame changed: %v)", renders-drawn, got != first)
	}
	pump(t, c.m, func() tea.Msg { return read(60) })
	if c.m.View(); renders == drawn {
		t.Error("a read whose drawdown use moved rendered no pane")
	}
}
