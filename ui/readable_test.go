package ui

import (
	"fmt"
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"github.com/tradedesk/tradedesk/ui/components/positions"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/help"
)

// screenSizes are the sizes issue #24 asks every screen to be readable at.
var screenSizes = [][2]int{{80, 24}, {120, 40}, {200, 60}}

// checkScreen fails on a line wider than the screen or a screen of the wrong height.
func checkScreen(t *testing.T, what, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("%s at %dx%d: %d lines", what, w, h, len(lines))
	}
	for i, l := range lines {
		plain := ansi.Strip(l)
		if n := ansi.StringWidth(plain); n > w {
			t.Errorf("%s at %dx%d: line %d is %d cells wide: %q", what, w, h, i, n, plain)
		}
	}
}

// checkBoxes fails when a box's border is out of place: every ╭ or ╮ must be continued below by │
// (or a junction) in the same column down to its ╰ or ╯. A screen with an overlay is checked as
// two: the overlay alone, and the screen's width and height.
func checkBoxes(t *testing.T, what, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	cells := make([][]rune, len(lines))
	for i, l := range lines {
		cells[i] = cellRunes(ansi.Strip(l))
	}
	for y, row := range cells {
		for x, r := range row {
			if r != '╭' && r != '╮' {
				continue
			}
			end := '╰'
			if r == '╮' {
				end = '╯'
			}
			for yy := y + 1; yy < len(cells); yy++ {
				var c rune
				if x < len(cells[yy]) {
					c = cells[yy][x]
				}
				if c == end {
					break
				}
				if !strings.ContainsRune("│├┤", c) {
					t.Errorf("%s at %dx%d: the box opened at line %d column %d has %q at line %d:\n%s", what, w, h, y, x, c, yy, ansi.Strip(view))
					return
				}
			}
		}
	}
}

// cellRunes is a plain line as one rune per cell (these screens draw no double-width runes).
func cellRunes(s string) []rune { return []rune(s) }

// dialogText is every line the open dialog can show, scrolled from top to bottom, plain.
func dialogText(t *testing.T, c *simConsole) string {
	t.Helper()
	var b strings.Builder
	for range 40 {
		b.WriteString(ansi.Strip(c.m.confirmation().View()) + "\n")
		if !c.m.confirmation().Scrolls() {
			break
		}
		_, cmd := c.m.Update(keyMsg("down"))
		pump(t, c.m, cmd)
	}
	return b.String()
}

// bigMarketOrder types a market buy of size into the form and asks for its confirmation.
func bigMarketOrder(t *testing.T, c *simConsole, size string) {
	t.Helper()
	pump(t, c.m, c.m.onInstrument(common.InstrumentMsg{Symbol: "BTC-PERP"}))
	c.key(t, "4", "down", "down", "right", "down")
	c.typeText(t, size)
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		c.key(t, "enter")
	}
	if c.m.confirmation() == nil {
		t.Fatalf("no confirmation for a %s BTC market order: %q", size, c.m.shownNotice())
	}
}

// TestConfirmationFitsEverySize (#24 case 1): the confirmation of a 3 BTC market order (a typed
// confirmation, with warnings) fits 80x24, 120x40 and 200x60: no line is cut or overflows, the
// box is whole, the "type yes" prompt and its input are on screen, and every word of the dialog
// can be read (wrapped, or scrolled to). Enter without the word says why nothing was sent; the
// footer says to type it.
func TestConfirmationFitsEverySize(t *testing.T) {
	t.Parallel()
	for _, sz := range screenSizes {
		c := newSimConsole(t, sz[0], sz[1], false)
		pump(t, c.m, c.m.Init())
		bigMarketOrder(t, c, "3")
		a := c.m.confirmation().Action()
		if a.Typed == "" {
			t.Fatalf("a 3 BTC market order asks for no typed confirmation: %+v", a.Lines)
		}
		v := c.m.View()
		checkScreen(t, "confirmation", c.m.View(), sz[0], sz[1])
		checkBoxes(t, "confirmation", c.m.confirmation().View(), sz[0], sz[1])
		if !strings.Contains(v, "Type yes and press Enter") && !strings.Contains(v, "Type yes and") {
			t.Errorf("%dx%d: the typed-confirmation prompt is off screen:\n%s", sz[0], sz[1], ansi.Strip(v))
		}
		if !strings.Contains(c.m.footerView(), "type yes") {
			t.Errorf("%dx%d: the footer does not say to type yes: %q", sz[0], sz[1], ansi.Strip(c.m.footerView()))
		}
		all := strings.Join(strings.Fields(dialogText(t, c)), " ")
		for _, l := range a.Lines {
			for _, word := range strings.Fields(ansi.Strip(l)) {
				if !strings.Contains(all, word) {
					t.Errorf("%dx%d: %q of %q cannot be read in the dialog:\n%s", sz[0], sz[1], word, l, all)
				}
			}
		}
		c.key(t, "enter")
		if c.m.confirmation() == nil || !strings.Contains(ansi.Strip(c.m.confirmation().View()), "type yes first") {
			t.Errorf("%dx%d: Enter without the word does not say why nothing was sent", sz[0], sz[1])
		}
		c.typeText(t, "yes")
		c.key(t, "enter")
		if c.m.confirmation() != nil || len(c.m.store.Positions()) != 1 {
			t.Errorf("%dx%d: yes + Enter did not send the order: %q", sz[0], sz[1], c.m.shownNotice())
		}
		// The close dialog of the position just opened fits too.
		c.key(t, "2", "x", "x")
		if c.m.confirmation() == nil {
			t.Fatalf("%dx%d: no close dialog: %q", sz[0], sz[1], c.m.shownNotice())
		}
		checkScreen(t, "close dialog", c.m.View(), sz[0], sz[1])
		checkBoxes(t, "close dialog", c.m.confirmation().View(), sz[0], sz[1])
		c.key(t, "esc")
	}
}

// TestHelpFitsEverySize (#24 case 1): the ? overlay of every pane fits 80x24, 120x40 and 200x60,
// and the pane's own keys are on it (Activity's e/E, s/i and B at 80x24 were cut off).
func TestHelpFitsEverySize(t *testing.T) {
	t.Parallel()
	for _, sz := range screenSizes {
		c := newSimConsole(t, sz[0], sz[1], false)
		pump(t, c.m, c.m.Init())
		for i := range c.m.slots {
			c.m.setFocus(i)
			if c.m.capturing() {
				c.key(t, "esc") // Esc leaves a text field; ? is typed into one
			}
			c.key(t, "?")
			if !c.m.helpOpen() {
				t.Fatalf("? does not open the help of %s", c.m.slots[i].pane.Title())
			}
			checkScreen(t, "help of "+c.m.slots[i].pane.Title(), c.m.View(), sz[0], sz[1])
			checkBoxes(t, "help of "+c.m.slots[i].pane.Title(), c.m.helpBox.View(), sz[0], sz[1])
			text := helpText(t, c)
			for _, g := range c.m.slots[i].pane.FullHelp() {
				// The second half of a pair ("S-↓ move my order a tick down") is named by the
				// first's line ("S-↑/K S-↓/J move my order a tick"): not a line of its own.
				for _, b := range help.Dedup(g, nil) {
					if b.Enabled() && !strings.Contains(text, b.Help().Desc) {
						t.Errorf("%dx%d: help of %s lacks %q", sz[0], sz[1], c.m.slots[i].pane.Title(), b.Help().Desc)
					}
				}
			}
			c.key(t, "esc")
		}
	}
}

// helpText is the help overlay scrolled from top to bottom, plain.
func helpText(t *testing.T, c *simConsole) string {
	t.Helper()
	var b strings.Builder
	for range 40 {
		v := ansi.Strip(c.m.helpBox.View())
		b.WriteString(v + "\n")
		if lastPage(v) {
			break
		}
		c.key(t, "down")
	}
	return b.String()
}

// lastPage reports whether a box shows its last line (it does not scroll, or "lines a-b of b").
func lastPage(view string) bool {
	i := strings.Index(view, "scroll · lines ")
	if i < 0 {
		return true
	}
	var a, b, n int
	if _, err := fmt.Sscanf(view[i+len("scroll · lines "):], "%d-%d of %d", &a, &b, &n); err != nil {
		return true
	}
	return b >= n
}

// TestCtrlCInADialogClosesIt (#24 case 5): Ctrl+C in a confirmation closes it and sends nothing;
// a second Ctrl+C quits.
func TestCtrlCInADialogClosesIt(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	bigMarketOrder(t, c, "0.01")
	_, cmd := c.m.Update(keyMsg("ctrl+c"))
	if msg := runCmd(cmd); isQuit(msg) {
		t.Fatal("Ctrl+C in a dialog quit the program")
	} else if msg != nil {
		_, cmd = c.m.Update(msg)
		pump(t, c.m, cmd)
	}
	if c.m.confirmation() != nil || len(c.m.store.Positions()) != 0 || !strings.Contains(c.m.shownNotice(), "not sent") {
		t.Fatalf("after Ctrl+C: dialog %v, %d positions, notice %q", c.m.confirmation() != nil, len(c.m.store.Positions()), c.m.shownNotice())
	}
	_, cmd = c.m.Update(keyMsg("ctrl+c"))
	if !isQuit(runCmd(cmd)) {
		t.Error("a second Ctrl+C does not quit")
	}
}

func runCmd(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

func isQuit(msg tea.Msg) bool {
	_, ok := msg.(tea.QuitMsg)
	return ok
}

// TestCancelNamesTheRow (#24 case 2): x in Open orders asks about the row under the cursor, by
// its side, size, instrument and price, and the cursor row carries the marker glyph.
func TestCancelNamesTheRow(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 80, 24, false)
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP", "ETH-PERP")
	c.key(t, "3", "down")
	v := ansi.Strip(c.m.View())
	var marked string
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "│"+common.MarkFocus) {
			marked = l
		}
	}
	if marked == "" {
		t.Fatalf("no row carries the selection marker:\n%s", v)
	}
	c.key(t, "x")
	if c.m.confirmation() == nil {
		t.Fatalf("x cancelled without naming the row: %q", c.m.shownNotice())
	}
	d := ansi.Strip(c.m.confirmation().View())
	for _, in := range []string{"BTC-PERP", "ETH-PERP"} {
		if strings.Contains(marked, in) != strings.Contains(d, in) {
			t.Errorf("marked row %q, dialog:\n%s", marked, d)
		}
	}
	c.key(t, "esc")
	if exchangeOpen(t, c) != 2 {
		t.Error("Esc cancelled the order")
	}
}

// TestPanesFitEverySize (#24, what must hold): every pane, focused in turn, at 80x24, 120x40 and
// 200x60 with a position and an order on screen: no line wider than the screen, every box whole.
func TestPanesFitEverySize(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	for _, sz := range screenSizes {
		c := newSimConsole(t, sz[0], sz[1], false)
		pump(t, c.m, c.m.Init())
		placeFixtureOrders(t, c.m.ex)
		pump(t, c.m, c.m.refreshNow(c.m.kinds...))
		for i := range c.m.slots {
			c.m.setFocus(i)
			v := c.m.View()
			what := "pane " + c.m.slots[i].pane.Title()
			checkScreen(t, what, v, sz[0], sz[1])
			checkBoxes(t, what, v, sz[0], sz[1])
		}
		// QA 9: the inline amend row of Open orders (it was drawn 8 columns short at 120x40,
		// and the right border and the pane beside it shifted).
		var open *orders.Pane
		for _, s := range c.m.slots {
			if p, ok := s.pane.(*orders.Pane); ok {
				open = p
			}
		}
		c.m.showPane(open)
		c.key(t, "down", "a")
		if !open.Capturing() {
			t.Fatalf("a on an open order did not open its amend row")
		}
		checkScreen(t, "amend row", c.m.View(), sz[0], sz[1])
		checkBoxes(t, "amend row", c.m.View(), sz[0], sz[1])
		// In a real terminal the field's cursor is drawn with escape codes: the row must be
		// measured in cells, not bytes (it was padded by bytes, 8 short).
		lipgloss.SetColorProfile(termenv.ANSI256)
		v := open.View()
		lipgloss.SetColorProfile(termenv.Ascii)
		for i, l := range strings.Split(v, "\n") {
			if n := ansi.StringWidth(l); n != open.Table().Width {
				t.Errorf("at %dx%d Open orders line %d is %d cells wide, want %d: %q", sz[0], sz[1], i, n, open.Table().Width, ansi.Strip(l))
			}
		}
		c.key(t, "esc")
	}
}

// TestStaleTitlesKeepTheirCorner (QA 9): with the exchange down, every pane's title carries its
// stale tag and still ends in its corner at every size (the Depth title's "stale 15…" pushed the
// "╮" off before); the tag stays readable, the title is cut first.
func TestStaleTitlesKeepTheirCorner(t *testing.T) {
	t.Parallel()
	for _, sz := range screenSizes {
		o := &outage{}
		c := newSimConsoleVia(t, sz[0], sz[1], false, func(h http.Handler) http.Handler { o.h = h; return o })
		pump(t, c.m, c.m.Init())
		o.down.Store(true)
		c.step(t, 20*time.Second)
		c.step(t, 20*time.Second)
		for i := range c.m.slots {
			c.m.setFocus(i)
			v := c.m.View()
			what := "stale pane " + c.m.slots[i].pane.Title()
			checkScreen(t, what, v, sz[0], sz[1])
			checkBoxes(t, what, v, sz[0], sz[1])
			checkCorners(t, what, v)
		}
		if v := ansi.Strip(c.m.View()); !strings.Contains(v, "stale") {
			t.Fatalf("no pane says stale at %dx%d:\n%s", sz[0], sz[1], v)
		}
	}
}

// checkCorners fails on a line that opens more boxes than it closes (a top edge cut off).
func checkCorners(t *testing.T, what, view string) {
	t.Helper()
	for y, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Count(l, "╭") != strings.Count(l, "╮") {
			t.Errorf("%s: line %d opens %d boxes and closes %d:\n%s", what, y, strings.Count(l, "╭"), strings.Count(l, "╮"), l)
			return
		}
	}
}

// TestFitTitle: a border's title gives way before its stale tag, and neither pushes the corner off.
func TestFitTitle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		title, fresh string
		room         int
		want         string
	}{
		{"▶9 Depth ", " stale 15s ", 30, "▶9 Depth  stale 15s "},
		{"▶9 Depth: Ladder · Tape ", " stale 15s (retrying) ", 34, "▶9 Depth: …  stale 15s (retrying) "},
		{"▶9 Depth: Ladder · Tape ", " stale 15s (retrying) ", 20, "▶9 Dep…  stale 15s …"},
		{"▶9 Depth: Ladder · Tape ", "", 10, "▶9 Depth:…"},
	} {
		a, b := fitTitle(tc.title, tc.fresh, tc.room)
		if a+b != tc.want || common.TextWidth(a+b) > tc.room {
			t.Errorf("fitTitle(%q, %q, %d) = %q, want %q", tc.title, tc.fresh, tc.room, a+b, tc.want)
		}
	}
}

// outage answers every request with a long server error while down is set.
type outage struct {
	h    http.Handler
	down atomic.Bool
}

func (o *outage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if o.down.Load() {
		http.Error(w, "maintenance: "+strings.Repeat("the exchange is being upgraded, ", 3)+"END-OF-TEXT", http.StatusServiceUnavailable)
		return
	}
	o.h.ServeHTTP(w, r)
}

// TestMessagesViewAndStaleErrors (#24 case 4): the messages key shows every notice and error in
// full with its time, even one far longer than the status line; "last error" clears as soon as
// the kind that failed loads again (mutation: drop the clearing branch, and the line stays); an
// old "✗ ... not sent" does not stay beside a new confirmation.
func TestMessagesViewAndStaleErrors(t *testing.T) {
	t.Parallel()
	o := &outage{}
	c := newSimConsoleVia(t, 80, 24, false, func(h http.Handler) http.Handler { o.h = h; return o })
	pump(t, c.m, c.m.Init())
	o.down.Store(true)
	c.step(t, c.m.iv.Tickers)
	if s := c.m.status.message(c.m, 80); !strings.Contains(s, "last error") || strings.Contains(s, "END-OF-TEXT") {
		t.Fatalf("the status line should show the error, cut: %q", s)
	}
	c.key(t, "!")
	if !c.m.messagesOpen() {
		t.Fatal("! does not open the messages view")
	}
	v := ansi.Strip(c.m.View())
	checkScreen(t, "messages", c.m.View(), 80, 24)
	checkBoxes(t, "messages", c.m.messagesView, 80, 24)
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "END-OF-TEXT") {
		t.Errorf("the messages view does not show the whole error:\n%s", v)
	}
	c.key(t, "esc")
	o.down.Store(false)
	c.step(t, 10*time.Second) // every kind polls again
	if s := c.m.status.message(c.m, 80); strings.Contains(s, "last error") {
		t.Errorf("the error stays after its cause is gone: %q", s)
	}

	c.m.setNotice(common.LevelError, "order not sent: price off the tick")
	bigMarketOrder(t, c, "0.01")
	if strings.Contains(c.m.status.message(c.m, 80), "not sent") {
		t.Errorf("an old failure stays beside a new confirmation: %q", c.m.status.message(c.m, 80))
	}
	c.key(t, "esc", "esc") // the dialog, then the form's field
	// An old warning goes too (QA 13c #3: "select a resting limit order to change" stayed up
	// beside the next Move dialog).
	c.m.setNotice(common.LevelWarn, "select a resting limit order to change")
	pump(t, c.m, c.m.onAction(action.NewCancelEverything(state.CancelScope{Orders: 1})))
	if c.m.confirmation() == nil || strings.Contains(c.m.status.message(c.m, 80), "select a resting") {
		t.Errorf("an old warning stays beside a new confirmation (dialog %v): %q", c.m.confirmation() != nil, c.m.status.message(c.m, 80))
	}
	c.key(t, "esc", "!")
	if v := ansi.Strip(c.m.messagesView); !strings.Contains(v, "order not sent: price off the tick") {
		t.Errorf("the messages view lost the failure:\n%s", v)
	}
}

// TestPositionsKeepEntryAndLiqAt120 (#24 case 6): at 120x40 the positions list shows Entry and
// Liq. px (it dropped them and kept Mark, which Tickers shows beside it).
func TestPositionsKeepEntryAndLiqAt120(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	placeFixtureOrders(t, c.m.ex)
	pump(t, c.m, c.m.refreshNow(c.m.kinds...))
	c.key(t, "2")
	v := ansi.Strip(c.m.View())
	for _, col := range []string{"Entry", "Liq. px", "uPnL", "Size"} {
		if !strings.Contains(v, col) {
			t.Errorf("positions at 120x40 lack %s:\n%s", col, v)
		}
	}
}

// TestPositionsShowMarkNotionalAndLeverage (QA 7): leverage and margin mode are a column at every
// wide size ("20x iso"), and the figures the width leaves out (Mark, Notional, ...) are on the
// selected position's detail line, whole, at 120x40 and 200x60 (in their columns when they fit). Guards the leverage column dropped
// by priority again and the detail line giving a figure cut.
func TestPositionsShowMarkNotionalAndLeverage(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {200, 60}} {
		c := newSimConsole(t, size[0], size[1], false)
		pump(t, c.m, c.m.Init())
		placeFixtureOrders(t, c.m.ex)
		pump(t, c.m, c.m.refreshNow(c.m.kinds...))
		c.key(t, "2")
		v := ansi.Strip(c.m.View())
		rows := c.m.store.PositionViews()
		if len(rows) == 0 {
			t.Fatalf("%dx%d: no positions", size[0], size[1])
		}
		for i, r := range rows {
			in, _ := c.m.store.Instrument(r.Instrument)
			lev := r.Leverage.String() + "x " + positions.MarginModeShort(r.MarginMode)
			if !strings.Contains(v, lev) {
				t.Errorf("%dx%d: %s's leverage %q not shown:\n%s", size[0], size[1], r.Instrument, lev, v)
			}
			if i != 0 { // the cursor is on the first position
				continue
			}
			shown := positionsOf(c.m).Table().Visible
			for col, want := range map[int]string{positions.ColMark: "Mark " + in.PriceText(r.Mark), positions.ColNotional: "Notional " + common.FmtNum(r.Notional, 2)} {
				if slices.Contains(shown, col) { // a column: its figure is in the row
					want = strings.TrimPrefix(strings.TrimPrefix(want, "Mark "), "Notional ")
				}
				if !strings.Contains(v, want) {
					t.Errorf("%dx%d: the selected position's %q is not shown:\n%s", size[0], size[1], want, v)
				}
			}
		}
	}
}
