package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/ladder"
	"github.com/tradedesk/tradedesk/ui/components/tape"
)

// splitHeight is the inner height from which the depth pane shows the ladder and, under it, the
// tape; below it they are two views of one group ([ and ] switch).
const splitHeight = 20

// depthPane is the market depth: the ladder over the tape where there is room, else a group of
// the two. Keys go to the ladder (the tape has none) unless the group shows the tape.
type depthPane struct {
	*paneGroup
	ladder *ladder.Pane
	tape   *tape.Pane
	split  bool
	tapeH  int
	rule   string
}

func newDepthPane(c *common.Common, cfg Config) *depthPane {
	l, t := ladder.New(c), tape.New(c, cfg.LargeTrade)
	return &depthPane{paneGroup: newPaneGroup(c, "Depth", l, t), ladder: l, tape: t}
}

// Title implements common.Pane.
func (d *depthPane) Title() string {
	if d.split {
		return "Depth: " + d.ladder.Title() + " · Tape"
	}
	return d.paneGroup.Title()
}

// Kinds implements common.KindsShower: both kinds while both show.
func (d *depthPane) Kinds() []state.Kind {
	if d.split {
		return []state.Kind{state.KindBook, state.KindTrades}
	}
	return d.paneGroup.Kinds()
}

// SetSize implements common.Pane: tall enough, the ladder takes three fifths and the tape the
// rest under a rule line.
func (d *depthPane) SetSize(w, h int) {
	d.split = h >= splitHeight
	if !d.split {
		d.paneGroup.SetSize(w, h)
		return
	}
	d.w, d.h = w, h
	d.tapeH = h * 2 / 5
	d.ladder.SetSize(w, h-d.tapeH-1)
	d.tape.SetSize(w, d.tapeH)
	d.rule = d.st.Border.On(common.Fit("── Tape "+strings.Repeat("─", max(w-8, 0)), w, false))
	if d.active != 0 {
		d.switchTo(0)
	}
}

// Update implements common.Pane: split, every key goes to the ladder.
func (d *depthPane) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.KeyMsg); ok && d.split {
		return d.ladder.Update(msg)
	}
	return d.paneGroup.Update(msg)
}

// View implements common.Pane.
func (d *depthPane) View() string {
	if !d.split {
		return d.paneGroup.View()
	}
	return d.ladder.View() + "\n" + d.rule + "\n" + d.tape.View()
}

// ShortHelp implements common.Pane.
func (d *depthPane) ShortHelp() []key.Binding {
	if d.split {
		return d.ladder.ShortHelp()
	}
	return d.paneGroup.ShortHelp()
}
