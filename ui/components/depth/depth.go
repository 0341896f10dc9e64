// Package depth is the market depth pane: the order-book ladder over the trades tape where the
// pane is tall enough, else the two as views of one group ([ and ] switch).
package depth

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/ladder"
	"github.com/tradedesk/tradedesk/ui/components/tape"
)

// SplitHeight is the inner height from which the pane shows the ladder and, under it, the tape;
// below it they are two views of one group ([ and ] switch).
const SplitHeight = 20

// Pane is the market depth: the ladder over the tape where there is room, else a group of the
// two. Keys go to the ladder (the tape has none) unless the group shows the tape.
type Pane struct {
	*common.Group
	// Ladder and Tape are the two views.
	Ladder *ladder.Pane
	Tape   *tape.Pane
	st     *common.Styles
	split  bool
	tapeH  int
	rule   string
	// view is the ladder, the rule and the tape as last joined, from those three: unchanged,
	// they are not joined again each frame (issue #34).
	view string
	of   [3]string
}

// New is the depth pane of the current instrument; largeTrade is the notional from which the tape
// marks a print (zero: tape.DefaultLarge).
func New(c *common.Common, largeTrade decimal.Decimal) *Pane {
	l, t := ladder.New(c), tape.New(c, largeTrade)
	return &Pane{Group: common.NewGroup(c, "Depth", l, t), Ladder: l, Tape: t, st: c.Styles}
}

// Split reports whether the ladder and the tape are both shown, one over the other.
func (d *Pane) Split() bool { return d.split }

// Title implements common.Pane.
func (d *Pane) Title() string {
	if d.split {
		return "Depth: " + d.Ladder.Title() + " · Tape"
	}
	return d.Group.Title()
}

// Kinds implements common.KindsShower: both kinds while both show.
func (d *Pane) Kinds() []state.Kind {
	if d.split {
		return []state.Kind{state.KindBook, state.KindTrades}
	}
	return d.Group.Kinds()
}

// SetSize implements common.Pane: tall enough, the ladder takes three fifths and the tape the
// rest under a rule line.
func (d *Pane) SetSize(w, h int) {
	d.split = h >= SplitHeight
	if !d.split {
		d.Group.SetSize(w, h)
		return
	}
	d.tapeH = h * 2 / 5
	d.Ladder.SetSize(w, h-d.tapeH-1)
	d.Tape.SetSize(w, d.tapeH)
	d.rule = d.st.Border.On(common.Fit("── Tape "+strings.Repeat("─", max(w-8, 0)), w, false))
	if d.Active() != common.Pane(d.Ladder) {
		d.SwitchTo(0)
	}
}

// Update implements common.Pane: split, every key goes to the ladder.
func (d *Pane) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.KeyMsg); ok && d.split {
		return d.Ladder.Update(msg)
	}
	return d.Group.Update(msg)
}

// View implements common.Pane.
func (d *Pane) View() string {
	if !d.split {
		return d.Group.View()
	}
	parts := [3]string{d.Ladder.View(), d.rule, d.Tape.View()}
	if parts != d.of || d.view == "" {
		d.view, d.of = parts[0]+"\n"+parts[1]+"\n"+parts[2], parts
	}
	return d.view
}

// ShortHelp implements common.Pane.
func (d *Pane) ShortHelp() []key.Binding {
	if d.split {
		return d.Ladder.ShortHelp()
	}
	return d.Group.ShortHelp()
}
