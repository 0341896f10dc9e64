// Package alerts is the console's side of the alert engine (state/alert): the definitions (in the
// journal, or in memory for a console without one), the check after every change the root applies
// to the store, the terminal's delivery (the bell, the status line, the messages view) beside the
// desktop, on_alert and webhook delivery, and the Alerts view (list, edit, delete, last fired,
// armed or cooling).
package alerts

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Config is what the console's alerts are built from.
type Config struct {
	Store   *state.Store
	Journal alert.Book   // nil: definitions live in memory (a read-only console)
	Seed    []alert.Rule // the config's [[alert]] rules
	// Delivery sends beyond the terminal (on_alert, the webhook, the desktop); nil: none.
	Delivery *alert.Delivery
	Clock    func() time.Time
	Bell     func() // rings the terminal bell; nil: silent
}

// deliveredMsg ends a background delivery; Errs are what failed.
type deliveredMsg struct{ Errs []error }

// Model is the console's alerts.
type Model struct {
	cfg   Config
	eng   *alert.Engine
	defs  []alert.Stored
	keys  *common.KeyMap
	st    *common.Styles
	open  bool
	cur   int
	fired map[string]time.Time // delivered in this process, by id
	// editing is the id of the definition being edited in the view ("" when none): it stays
	// as it is until the edited rule is entered.
	editing string
	edit    textinput.Model
	editErr string
	// guarded are the alerts an attached guard evaluates and delivers (FromGuard), by id.
	guarded map[string]bool
}

// New builds the alerts and loads the definitions: the config's seeded first. A definition that
// cannot be read is said in the returned error; the rest still load.
func New(cfg Config, keys *common.KeyMap, st *common.Styles) (*Model, error) {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	m := &Model{cfg: cfg, eng: alert.New(), keys: keys, st: st, fired: map[string]time.Time{}}
	if cfg.Journal == nil {
		for _, r := range cfg.Seed {
			m.defs = append(m.defs, alert.Stored{Rule: r, Def: record.AlertDef{ID: r.ID, Rule: r.Canon(), Origin: alert.OriginConfig}})
		}
		m.eng.Set(alert.Rules(m.defs))
		return m, nil
	}
	ctx := context.Background()
	if err := alert.Seed(ctx, cfg.Journal, cfg.Seed); err != nil {
		return m, err
	}
	return m, m.reload()
}

func (m *Model) reload() error {
	if m.cfg.Journal == nil {
		m.eng.Set(alert.Rules(m.defs))
		return nil
	}
	defs, err := alert.Load(context.Background(), m.cfg.Journal)
	if err != nil {
		return err
	}
	m.defs = defs
	m.eng.Set(alert.Rules(defs))
	return nil
}

// Add adds the rule of line and says so (or why not) in the status line.
func (m *Model) Add(line string) tea.Cmd {
	r, err := alert.Parse(line)
	if err == nil {
		err = m.save(r)
	}
	if err != nil {
		return common.Notice(common.LevelError, "alert not added: "+text.Clean(text.HideKeys(err.Error())))
	}
	return common.Notice(common.LevelInfo, "alert "+r.ID+" set: "+text.Clean(r.Canon()))
}

func (m *Model) save(r alert.Rule) error {
	if m.cfg.Journal == nil {
		if !slices.ContainsFunc(m.defs, func(s alert.Stored) bool { return s.ID == r.ID }) {
			m.defs = append(m.defs, alert.Stored{Rule: r, Def: record.AlertDef{ID: r.ID, Rule: r.Canon(), Origin: alert.OriginUser, Created: m.cfg.Clock()}})
		}
		return m.reload()
	}
	if _, err := alert.Save(context.Background(), m.cfg.Journal, r, alert.OriginUser); err != nil {
		return err
	}
	return m.reload()
}

// remove deletes the definition id.
func (m *Model) remove(id string) error {
	if m.cfg.Journal != nil {
		if _, err := m.cfg.Journal.RemoveAlert(context.Background(), id); err != nil {
			return err
		}
	} else {
		m.defs = slices.DeleteFunc(m.defs, func(s alert.Stored) bool { return s.ID == id })
	}
	if !m.eng.Remove(id) {
		return errors.New("no such alert")
	}
	return m.reload()
}

// Check evaluates the rules after msgs were applied to the store. The alerts fired reach the
// terminal at once (the bell, the status line: one line for a burst, the messages view: each),
// which is their delivery: their cool-down starts. The rest of the delivery runs in the
// background.
func (m *Model) Check(link alert.Link, msgs []state.Msg) tea.Cmd {
	now := m.cfg.Clock()
	evs := slices.DeleteFunc(m.eng.Check(now, m.cfg.Store, link, msgs...), func(ev alert.Event) bool { return m.guarded[ev.ID] })
	if len(evs) == 0 {
		return nil
	}
	notices := make(common.NoticesMsg, 0, len(evs)+1)
	for _, ev := range evs {
		m.eng.Delivered(ev, now)
		m.fired[ev.ID] = now
		if m.cfg.Journal != nil {
			_ = m.cfg.Journal.AlertFired(context.Background(), ev.ID, now)
		}
		notices = append(notices, common.NoticeMsg{Level: common.LevelWarn, Text: "alert: " + ev.Text})
	}
	if len(evs) > 1 { // the status line shows the last: the burst in one line
		notices = append(notices, common.NoticeMsg{Level: common.LevelWarn, Text: "alert: " + alert.Summary(evs)})
	}
	if m.cfg.Bell != nil {
		m.cfg.Bell()
	}
	cmds := []tea.Cmd{func() tea.Msg { return notices }}
	if d := m.cfg.Delivery; d != nil {
		cmds = append(cmds, func() tea.Msg { return deliveredMsg{Errs: d.Send(context.Background(), evs)} })
	}
	return tea.Batch(cmds...)
}

// Update handles the package's own messages (a background delivery's end).
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	d, ok := msg.(deliveredMsg)
	if !ok || len(d.Errs) == 0 {
		return nil
	}
	notices := make(common.NoticesMsg, 0, len(d.Errs))
	for _, err := range d.Errs {
		notices = append(notices, common.NoticeMsg{Level: common.LevelError, Text: "alert delivery: " + text.Clean(err.Error())})
	}
	return func() tea.Msg { return notices }
}

// IsMsg reports whether msg is the package's own (for the root's routing).
func IsMsg(msg tea.Msg) bool {
	_, ok := msg.(deliveredMsg)
	return ok
}

// Rules are the rules' states, for tests and the view.
func (m *Model) Rules() []alert.Status { return m.eng.Rules(m.cfg.Clock()) }
