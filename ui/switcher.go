package ui

import (
	"errors"
	"reflect"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/session"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/combined"
	"github.com/tradedesk/tradedesk/ui/components/profiles"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
	"github.com/tradedesk/tradedesk/ui/components/vaults"
)

// Switcher is the console over several profiles (issue #42): one Model per profile, each with
// its own exchange client, store, feed, executor, journal and stream, all running at once; the
// screen and the keys go to the active one. The Profiles key lists them with their equity and
// mode, the combined view and the active profile's Vaults view. Every command a profile's model starts answers to that model
// (profileMsg), whichever is active then: a dialog or an order in flight stays with the profile
// it was opened in, so a switch mid-dialog can never send its order for another profile.
type Switcher struct {
	set      *session.Set
	models   map[string]*Model
	keys     *common.KeyMap
	st       *common.Styles
	picking  bool // the profile list is open
	cursor   int  // the list's row: a profile, or the combined view after the last
	combined bool // the combined view is shown instead of the active profile's panes
	width    int
	height   int
}

// profileMsg is a message for one profile's model: the answer to a command it started.
type profileMsg struct {
	profile string
	msg     tea.Msg
}

// NewSwitcher is the console over cfgs, one per profile (Config.Profile names it), the first
// active.
func NewSwitcher(cfgs ...Config) (*Switcher, error) {
	if len(cfgs) == 0 {
		return nil, errors.New("profiles: none to open")
	}
	names := make([]string, len(cfgs))
	for i, c := range cfgs {
		names[i] = c.Profile
	}
	set, err := session.NewSet(names...)
	if err != nil {
		return nil, err
	}
	s := &Switcher{set: set, models: map[string]*Model{}}
	for _, c := range cfgs {
		m := New(c)
		if len(cfgs) > 1 {
			m.status.profile = session.Label(c.Profile) // the mode line names every profile, the top level too
		}
		s.models[c.Profile] = m
	}
	first := s.models[names[0]]
	s.keys, s.st = first.keys, first.st
	return s, nil
}

// Active is the active profile's model.
func (s *Switcher) Active() *Model { return s.models[s.set.Active()] }

// Init starts every profile's polls, stream and recovery.
func (s *Switcher) Init() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(s.models))
	for _, name := range s.set.Names() {
		cmds = append(cmds, tagged(name, s.models[name].Init()))
	}
	return tea.Batch(cmds...)
}

// tagged makes cmd's answer a profileMsg for profile.
func tagged(profile string, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			// tagged here, run at once: not a trip through Update (deliver) to be tagged there
			return batchOf(profile, msg)
		default:
			return profileMsg{profile: profile, msg: msg}
		}
	}
}

// batchOf is a batch's commands tagged for profile.
func batchOf(profile string, b tea.BatchMsg) tea.BatchMsg {
	cmds := make(tea.BatchMsg, 0, len(b))
	for _, c := range b {
		if c != nil {
			cmds = append(cmds, tagged(profile, c))
		}
	}
	return cmds
}

// teaPkg is Bubble Tea's package path: its own messages (a batch, quit, the screen's) go back
// to the program untagged.
var teaPkg = reflect.TypeFor[tea.QuitMsg]().PkgPath()

// Update routes one message: a profile's answer to its model, a size to all, keys to the
// switcher's list when open, else to the active profile.
func (s *Switcher) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case profileMsg:
		return s, s.deliver(msg)
	case tea.WindowSizeMsg:
		s.width, s.height = msg.Width, msg.Height
		cmds := make([]tea.Cmd, 0, len(s.models))
		for name, m := range s.models {
			_, cmd := m.Update(msg)
			cmds = append(cmds, tagged(name, cmd))
		}
		return s, tea.Batch(cmds...)
	case tea.KeyMsg:
		return s, s.key(msg)
	}
	name := s.set.Active()
	_, cmd := s.models[name].Update(msg)
	return s, tagged(name, cmd)
}

// deliver hands a profile's answer to its own model.
func (s *Switcher) deliver(p profileMsg) tea.Cmd {
	switch inner := p.msg.(type) {
	case tea.BatchMsg:
		b := batchOf(p.profile, inner)
		return func() tea.Msg { return b }
	case tea.QuitMsg:
		return tea.Quit
	}
	if t := reflect.TypeOf(p.msg); t.PkgPath() == teaPkg || t.Kind() == reflect.Pointer && t.Elem().PkgPath() == teaPkg {
		return func() tea.Msg { return p.msg }
	}
	m := s.models[p.profile]
	if m == nil {
		return nil
	}
	_, cmd := m.Update(p.msg)
	if _, done := p.msg.(action.DoneMsg); done && p.profile != s.set.Active() && m.notice != "" {
		// an action in flight when its profile was left settles there, and says so here too
		s.Active().setNotice(m.noticeLevel, "profile "+session.Label(p.profile)+": "+m.notice)
	}
	return tagged(p.profile, cmd)
}

// key handles a key: the profile list's when it is open, the Profiles key, else the active
// profile's (the combined view, read-only, takes only Esc and the Profiles key).
func (s *Switcher) key(msg tea.KeyMsg) tea.Cmd {
	if s.picking {
		return s.pickKey(msg)
	}
	active := s.Active()
	if key.Matches(msg, s.keys.Profiles) && !active.keepsKey(msg) {
		s.picking = true
		s.cursor = indexOf(s.set.Names(), s.set.Active())
		if s.combined {
			s.cursor = len(s.set.Names())
		}
		return nil
	}
	if s.combined {
		if key.Matches(msg, s.keys.Dismiss) {
			s.combined = false
		} else if key.Matches(msg, s.keys.Quit) {
			_, cmd := active.Update(msg)
			return tagged(s.set.Active(), cmd)
		}
		return nil
	}
	_, cmd := active.Update(msg)
	return tagged(s.set.Active(), cmd)
}

// pickKey moves in the profile list, switches on Enter, closes on Esc.
func (s *Switcher) pickKey(msg tea.KeyMsg) tea.Cmd {
	names := s.set.Names()
	switch {
	case key.Matches(msg, s.keys.Dismiss), key.Matches(msg, s.keys.Profiles):
		s.picking = false
	case key.Matches(msg, s.keys.Up):
		s.cursor = max(s.cursor-1, 0)
	case key.Matches(msg, s.keys.Down):
		s.cursor = min(s.cursor+1, len(names)+1)
	case key.Matches(msg, s.keys.Pick), key.Matches(msg, s.keys.Confirm):
		s.picking = false
		switch s.cursor {
		case len(names):
			s.combined = true
			return nil
		case len(names) + 1:
			s.combined = false
			s.Active().openVaults()
			return nil
		}
		return s.Switch(names[s.cursor])
	}
	return nil
}

// Switch makes profile the active one; its dialog, if one is open, is on screen again. The
// profile left keeps its own (it is sent only from there) and the new one's message line says
// so.
func (s *Switcher) Switch(profile string) tea.Cmd {
	from := s.Active()
	if err := s.set.Switch(profile); err != nil {
		from.setNotice(common.LevelError, err.Error())
		return nil
	}
	s.combined = false
	to := s.Active()
	if d := from.confirmation(); from != to && d != nil {
		to.setNotice(common.LevelWarn, "profile "+session.Label(from.status.profile)+" keeps its open dialog ("+d.Action().What+"): it is sent only from there")
	} else if from != to {
		to.setNotice(common.LevelInfo, "profile "+session.Label(profile))
	}
	to.footerDirty = true
	return nil
}

// View draws the active profile (or the combined view), with the profile list over it when open.
func (s *Switcher) View() string {
	var view string
	if s.combined {
		view = s.combinedView()
	} else {
		view = s.Active().View()
	}
	if !s.picking || s.width == 0 {
		return view
	}
	body := strings.Split(view, "\n")
	return strings.Join(overlay(body, profiles.View(s.listValues(), s.st, s.keys), s.width), "\n")
}

// combinedView is the combined view under the active profile's status line.
func (s *Switcher) combinedView() string {
	if s.width == 0 {
		return "starting…"
	}
	top, _, _ := strings.Cut(s.Active().View(), "\n")
	return top + "\n" + combined.View(s.st, s.Summaries(), s.width, max(s.height-1, 1))
}

// Summaries are every profile's account summary, in order, read from each one's store.
func (s *Switcher) Summaries() []session.Summary {
	out := make([]session.Summary, 0, len(s.models))
	for _, name := range s.set.Names() {
		m := s.models[name]
		out = append(out, session.Summarise(name, m.store, m.store.Freshness(state.KindAccount).Loaded()))
	}
	return out
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return 0
}

// openVaults opens the Vaults view of the profile's account over its panes.
func (m *Model) openVaults() {
	m.pushSheet(vaults.New(m.st, m.keys, m.store.Account, m.status.profile))
}

// keepsKey reports whether the active profile's focused pane binds a key the switcher would
// take: the transfer form's "the most" (ctrl+a by default) while it is typed in.
func (m *Model) keepsKey(msg tea.KeyMsg) bool {
	if m.modals.Top() != nil {
		return false
	}
	pane := m.slots[m.focus].pane
	if g, ok := pane.(*common.Group); ok {
		_, isTransfer := g.Active().(*transfer.Pane)
		return isTransfer && takesKey(pane, msg, m.keys) && key.Matches(msg, m.keys.TransferMax)
	}
	return false
}

// listValues are what the profile list shows: each profile's mode, equity and open dialog, the
// active one and the cursor.
func (s *Switcher) listValues() profiles.Values {
	v := profiles.Values{ActiveLabel: session.Label(s.set.Active()), Cursor: s.cursor, Width: s.width, Height: s.height}
	for _, name := range s.set.Names() {
		m := s.models[name]
		r := profiles.Row{Label: session.Label(name), Mode: m.status.mode.String(), Active: name == s.set.Active(),
			Loaded: m.store.Freshness(state.KindAccount).Loaded(), DialogOpen: m.confirmation() != nil}
		if r.Loaded {
			r.Equity = m.store.Account().TotalAccountEquity
		}
		v.Rows = append(v.Rows, r)
	}
	return v
}
