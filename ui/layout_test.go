package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestDepthBesideFormFrom120: from 120 columns the depth pane sits right beside the order form
// (touching it, their rows overlapping) with the tape under the ladder, the positions list keeps
// the width of its entry and liquidation columns, and the screen is filled exactly (guards the
// 160-column threshold that put the ladder under the form below 160, and a middle column that
// starves the lists; TestPanesFitEverySize checks every box is whole).
func TestDepthBesideFormFrom120(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	for _, sz := range [][2]int{{120, 40}, {132, 43}, {140, 40}, {159, 50}, {160, 40}, {200, 60}} {
		c.m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		v := ansi.Strip(c.m.View())
		var form, depth, pos *slot
		for _, s := range c.m.slots {
			switch s.pane {
			case c.m.form:
				form = s
			case c.m.depth:
				depth = s
			case c.m.slots[1].pane:
				pos = s
			}
		}
		if depth.hidden || depth.r.x+depth.r.w != form.r.x || depth.r.y >= form.r.y+form.r.h || form.r.y >= depth.r.y+depth.r.h {
			t.Errorf("%dx%d: depth %+v is not beside the form %+v", sz[0], sz[1], depth.r, form.r)
		}
		if !c.m.depth.Split() || !strings.Contains(v, "── Tape ") {
			t.Errorf("%dx%d: no tape under the ladder:\n%s", sz[0], sz[1], v)
		}
		if pos.hidden || pos.r.w < 66 {
			t.Errorf("%dx%d: positions %+v too narrow", sz[0], sz[1], pos.r)
		}
		assertSize(t, c.m.View(), sz[0], sz[1])
	}
	// short (120x30): the depth pane is a group beside the form, and positions and open orders
	// both still show under it (guards a top part of two thirds that pushed the orders out)
	c.m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if c.m.slots[1].hidden || c.m.slots[2].hidden || c.m.depthSlot().hidden {
		t.Errorf("120x30: positions hidden %v, orders hidden %v, depth hidden %v", c.m.slots[1].hidden, c.m.slots[2].hidden, c.m.depthSlot().hidden)
	}
	assertSize(t, c.m.View(), 120, 30)
}

// depthSlot is the depth pane's slot.
func (m *Model) depthSlot() *slot {
	for _, s := range m.slots {
		if s.pane == m.depth {
			return s
		}
	}
	return nil
}
