package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
)

// paneGroup shows one of several panes at a time under a row of tabs: [ and ] switch. The
// history-and-money panes come in three groups so the wide layout keeps room for the core panes.
type paneGroup struct {
	st      *common.Styles
	title   string
	panes   []common.Pane
	active  int
	focused bool
	w, h    int
	bar     string
	barKey  string         // the titles the bar was drawn with
	keys    *common.KeyMap // PrevView and NextView switch views
}

func newPaneGroup(c *common.Common, title string, panes ...common.Pane) *paneGroup {
	g := &paneGroup{st: c.Styles, keys: c.Keys, title: title, panes: panes}
	g.renderBar()
	return g
}

// Title implements Pane: the group's name and the view shown.
func (g *paneGroup) Title() string { return g.title + ": " + g.panes[g.active].Title() }

// Kinds implements common.KindsShower for the view shown.
func (g *paneGroup) Kinds() []state.Kind {
	if k, ok := g.panes[g.active].(common.KindsShower); ok {
		return k.Kinds()
	}
	return nil
}

// InForm implements common.FormHolder for the view shown.
func (g *paneGroup) InForm() bool { return inForm(g.panes[g.active]) }

// Capturing implements common.InputCapturer for the view shown.
func (g *paneGroup) Capturing() bool {
	c, ok := g.panes[g.active].(common.InputCapturer)
	return ok && c.Capturing()
}

// SetSize implements common.Pane; the tab row takes one line.
func (g *paneGroup) SetSize(w, h int) {
	g.w, g.h = w, h
	for _, p := range g.panes {
		p.SetSize(w, max(h-1, 1))
	}
	g.renderBar()
}

// SetFocused implements common.Pane.
func (g *paneGroup) SetFocused(f bool) {
	g.focused = f
	for i, p := range g.panes {
		p.SetFocused(f && i == g.active)
	}
}

// show makes p the view shown, if it is one of the group's; it reports whether it was.
func (g *paneGroup) show(p common.Pane) bool {
	for i, q := range g.panes {
		if q == p {
			g.switchTo(i)
			return true
		}
	}
	return false
}

func (g *paneGroup) switchTo(i int) {
	n := len(g.panes)
	g.active = (i%n + n) % n
	g.SetFocused(g.focused)
	g.renderBar()
}

// Update implements Pane: keys go to the view shown ([ and ] switch views unless it is typing);
// other messages go to every view.
func (g *paneGroup) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if !g.Capturing() {
			switch {
			case key.Matches(msg, g.keys.PrevView):
				g.switchTo(g.active - 1)
				return nil
			case key.Matches(msg, g.keys.NextView):
				g.switchTo(g.active + 1)
				return nil
			}
		}
		return g.panes[g.active].Update(msg)
	case tea.MouseMsg:
		return g.panes[g.active].Update(msg)
	}
	var cmds []tea.Cmd
	for _, p := range g.panes {
		cmds = append(cmds, p.Update(msg))
	}
	return tea.Batch(cmds...)
}

// Click implements clicker: a click on the tab row switches views, below it goes to the view.
func (g *paneGroup) Click(x, y int) tea.Cmd {
	if y == 0 {
		pos := 0
		for i, p := range g.panes {
			w := common.TextWidth(p.Title()) + 3
			if x >= pos && x < pos+w {
				g.switchTo(i)
				return nil
			}
			pos += w
		}
		return nil
	}
	if c, ok := g.panes[g.active].(common.Clicker); ok {
		return c.Click(x, y-1)
	}
	return nil
}

func (g *paneGroup) renderBar() {
	var b strings.Builder
	for i, p := range g.panes {
		label := " " + p.Title() + " "
		if i == g.active {
			b.WriteString(g.st.TitleFocus.On(label))
		} else {
			b.WriteString(g.st.Title.On(label))
		}
		b.WriteString(" ")
	}
	b.WriteString(g.st.Muted.On(g.keys.PrevView.Help().Key + " switch"))
	g.bar = common.FitStyled(b.String(), g.w)
}

// View implements common.Pane. The tab row is drawn again when a view's title (its count) changed.
func (g *paneGroup) View() string {
	var k strings.Builder
	for _, p := range g.panes {
		k.WriteString(p.Title())
		k.WriteByte(0)
	}
	if key := k.String(); key != g.barKey {
		g.barKey = key
		g.renderBar()
	}
	if g.h <= 1 {
		return g.bar
	}
	return g.bar + "\n" + g.panes[g.active].View()
}

// ShortHelp implements common.Pane.
func (g *paneGroup) ShortHelp() []key.Binding {
	return append([]key.Binding{g.keys.PrevView}, g.panes[g.active].ShortHelp()...)
}

// FullHelp implements Pane: every view's help.
func (g *paneGroup) FullHelp() [][]key.Binding {
	out := [][]key.Binding{{g.keys.PrevView, g.keys.NextView}}
	for _, p := range g.panes {
		out = append(out, p.FullHelp()...)
	}
	return out
}

// newMarketGroup is the chart and the current instrument's details.
func newMarketGroup(c *common.Common, ex api.Exchange, chart *chartPane) *paneGroup {
	return newPaneGroup(c, "Market", chart, newInstrumentPane(c, ex))
}

// newActivityGroup is the fills and the order history; bell rings the terminal bell on new fills.
func newActivityGroup(c *common.Common, ex api.Exchange, bell bool) *paneGroup {
	return newPaneGroup(c, "Activity", newFillsPane(c, ex, bell), newHistoryPane(c, ex))
}

// newFundsGroup is the balances and collateral, the transfer form and the broker approvals.
func newFundsGroup(c *common.Common, ex api.Exchange) *paneGroup {
	return newPaneGroup(c, "Funds", newBalancesPane(c, common.ExchangeAddress(ex) != ""), transfer.New(c, ex), newBrokersPane(c, ex))
}
