// Package cmdline is the console's `:` command line: one line, read by the command grammar in
// state (state.ParseCommand, Store.PlanCommand), with completion of commands, instruments and
// keywords (Tab) and a history kept in the state directory (↑ ↓). A command that passes becomes
// the same signed action the order form, the positions and orders panes or the leverage dialog
// build (Action), and goes through the pipeline and its confirmation like theirs; a command that
// does not is refused, naming the word that is wrong, and nothing is signed: the line closes (the
// keys after it act on the panes again) and the refusal stays on the status line; `:` then ↑
// brings the line back to fix.
package cmdline

import (
	"errors"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Model is the command line. It is closed until Open; while open it takes every key.
type Model struct {
	st    *common.Styles
	keys  *common.KeyMap
	store *state.Store
	input textinput.Model
	open  bool
	hist  *History

	// errText is why the last Enter was refused ("" when it was not, or the line opened since).
	errText string
	// live is the line checked as it is typed: what Enter would ask to confirm, or the word that
	// is wrong so far ("" while the command is incomplete).
	live string
	// The completion being cycled: the candidates for the word at cands' start, and which is shown.
	cands  []string
	candAt int
	stem   string // the line before the word being completed
}

// New is a closed command line over store; hist keeps its lines (see OpenHistory).
func New(st *common.Styles, keys *common.KeyMap, store *state.Store, hist *History) *Model {
	m := &Model{st: st, keys: keys, store: store, hist: hist}
	m.input = textinput.New()
	m.input.Prompt = ":"
	m.input.CharLimit = state.MaxCommandLen
	m.input.Cursor.SetMode(cursor.CursorStatic)
	return m
}

// Open shows an empty line with the cursor in it.
func (m *Model) Open() {
	m.open = true
	m.input.SetValue("")
	m.input.Focus()
	m.errText, m.cands, m.live = "", nil, ""
	m.hist.Rewind()
}

// OpenMsg asks the root model to open the line with Line typed in it (the positions pane's TP/SL
// key starts "tpsl SYM tp ").
type OpenMsg struct{ Line string }

// Prefill is the command a pane returns to open the line with line typed in it.
func Prefill(line string) tea.Cmd { return func() tea.Msg { return OpenMsg{Line: line} } }

// OpenWith shows the line with s typed in it and the cursor at its end.
func (m *Model) OpenWith(s string) {
	m.Open()
	m.setLine(s)
}

// Active reports whether the line is open (it then takes every key).
func (m *Model) Active() bool { return m.open }

// Value is the line as typed.
func (m *Model) Value() string { return m.input.Value() }

// Err is why the last Enter was refused ("" when it was not).
func (m *Model) Err() string { return m.errText }

// Close hides the line; what was typed stays in the history only if it was entered.
func (m *Model) Close() {
	m.open = false
	m.input.Blur()
}

// Update handles a key while the line is open. current is the instrument a command without one
// acts on; guard is the fat-finger guard every order is checked with.
func (m *Model) Update(msg tea.KeyMsg, current string, guard state.Guard) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Dismiss):
		m.Close()
		return nil
	case key.Matches(msg, m.keys.TextSubmit):
		return m.enter(current, guard)
	case key.Matches(msg, m.keys.Complete):
		m.complete()
	case key.Matches(msg, m.keys.HistoryPrev):
		m.setLine(m.hist.Back(m.input.Value()))
	case key.Matches(msg, m.keys.HistoryNext):
		m.setLine(m.hist.Forward())
	default:
		before := m.input.Value()
		m.input, _ = m.input.Update(msg)
		if m.input.Value() == before {
			return nil
		}
		m.errText, m.cands = "", nil
	}
	m.check(current, guard)
	return nil
}

// check reads the line as it stands, as Enter would, and keeps what it found in live. Nothing is
// sent: the plan is only described.
func (m *Model) check(current string, guard state.Guard) {
	m.live = ""
	line := strings.TrimSpace(m.input.Value())
	if line == "" || m.checkAlert(line) || m.checkAlgo(line) || m.checkGuard(line) || m.checkLatency(line) || m.checkRisk(line) {
		return
	}
	cmd, err := state.ParseCommand(line)
	if err == nil {
		var plan state.CommandPlan
		if plan, err = m.store.PlanCommand(cmd, current, guard); err == nil {
			a := Action(plan, m.st, guard.Confirm)
			m.live = "✓ " + m.enterSays(a) + ": " + a.What + costs(plan) // what Enter does first: a long line is cut at its end
			return
		}
	}
	var ce *state.CommandError
	if errors.As(err, &ce) && ce.Word > 0 {
		m.live = "… " + text.Clean(text.HideKeys(err.Error()))
	}
}

// costs is an order's fee and margin (a spot buy's cost), as the confirmation will show them: of
// what fills when the book fills only part of it.
func costs(p state.CommandPlan) string {
	if !p.Command.IsOrder() && p.Command.Verb != state.VerbClose {
		return ""
	}
	fee, amount, label, fills := p.Order.HintCosts()
	out := " · fee " + state.FormatUSDFee(fee)
	if label != "" {
		out += " · " + label + " " + common.FmtNum(amount, 2)
	}
	if fills.IsPositive() {
		out += " on the " + p.Order.Instrument.SizeText(fills) + " that fills"
	}
	return out
}

func (m *Model) setLine(s string) {
	m.input.SetValue(s)
	m.input.CursorEnd()
	m.errText, m.cands = "", nil
}

// enter reads the line and closes it: a command that passes is asked of the pipeline; a refusal
// says why on the status line. Either way the line is the newest in the history, so `:` then ↑
// brings a refused line back to fix. A refusal that left the line open took the keys meant for
// the panes (issue #31: ":close sol:b 0.01 btc 943109++++").
func (m *Model) enter(current string, guard state.Guard) tea.Cmd {
	line := strings.TrimSpace(m.input.Value())
	if line == "" {
		m.Close()
		return nil
	}
	m.hist.Add(line)
	m.hist.Rewind()
	m.Close()
	if c, ok := m.enterAlert(line); ok {
		return c
	}
	if c, ok := enterParsed(m, line, guardLine); ok {
		return c
	}
	if c, ok := enterParsed(m, line, algoLine); ok {
		return c
	}
	if c, ok := m.enterLatency(line); ok {
		return c
	}
	if c, ok := enterParsed(m, line, riskLine); ok {
		return c
	}
	cmd, err := state.ParseCommand(line)
	if err == nil {
		var plan state.CommandPlan
		plan, err = m.store.PlanCommand(cmd, current, guard)
		if err == nil {
			if sym := plan.Instrument.Name; sym != "" && sym != current && (cmd.IsOrder() || cmd.Verb == state.VerbClose) {
				// The store keeps only the current instrument's book live: an order on another
				// is checked again on a fresh book (ResumeMsg), so its confirmation says what the
				// book fills, as the form's and close's do.
				return func() tea.Msg { return NeedBookMsg{Line: line, Symbol: sym} }
			}
			return m.request(cmd, plan, current, guard)
		}
	}
	return m.refuse(err)
}

// request asks the pipeline for the action of plan; an order, a close, a position's take-profit
// and stop-loss or a leverage change is planned again from cmd on the confirmation's Enter
// (action.CheckAgain), as the form's order is checked again: a leg the mark has passed since is
// refused, not sent to fire at once.
func (m *Model) request(cmd state.Command, plan state.CommandPlan, current string, guard state.Guard) tea.Cmd {
	a := Action(plan, m.st, guard.Confirm)
	if cmd.Verb != state.VerbCancel {
		store, st := m.store, m.st
		a.Recheck = func() (*action.Action, string) {
			p, err := store.PlanCommand(cmd, current, guard)
			if err != nil {
				return nil, NotSent + text.Clean(text.HideKeys(err.Error()))
			}
			return Action(p, st, guard.Confirm), ""
		}
	}
	return action.Request(a)
}

// NotSent begins the status line's notice of a refused command.
const NotSent = "command not sent: "

// refuse keeps why a line was refused and says it in the status line (the line is closed).
func (m *Model) refuse(err error) tea.Cmd {
	// The message may quote what was typed: never a key, never a control character.
	m.errText = text.Clean(text.HideKeys(err.Error()))
	return common.Notice(common.LevelError, NotSent+m.errText+" ("+m.keys.CommandLine.Help().Key+" "+common.KeyName(m.keys.HistoryPrev)+" edits it)")
}

// NeedBookMsg asks the root for a fresh book of Symbol before the order of Line is confirmed:
// the root has the feed's book task fetch it into the store, then calls Resume.
type NeedBookMsg struct {
	Line   string
	Symbol string
}

// Resume checks a line again once the book its order needs is in the store (NeedBookMsg) and asks
// the pipeline to confirm it; a line no longer good (the account or the book changed) is refused.
func (m *Model) Resume(line, current string, guard state.Guard) tea.Cmd {
	cmd, err := state.ParseCommand(line)
	if err == nil {
		var plan state.CommandPlan
		if plan, err = m.store.PlanCommand(cmd, current, guard); err == nil {
			return m.request(cmd, plan, current, guard)
		}
	}
	// Refused on the fresh book: as any refusal, said on the status line with the line closed
	// (it is in the history: `:` then ↑ brings it back).
	return m.refuse(err)
}

// View is the line and, under it, the completions offered, the line's check or the grammar's
// hint, each fitted to width.
func (m *Model) View(width int) (line, hint string) {
	text, p := m.Hint(width)
	return m.Line(width), common.FitStyled(p.On(text), width)
}

// Line is the line as typed, after its prompt, fitted to width.
func (m *Model) Line(width int) string {
	m.input.Width = max(width-3, 10)
	if v := m.input.Value(); text.HideKeys(v) != v {
		// A key pasted into the line is never echoed, not even while it is being edited.
		return common.Fit(m.input.Prompt+text.HideKeys(v), width, false)
	}
	return common.FitStyled(m.input.View(), width)
}

// Hint is what goes under the line and its paint: the completions offered, the line's check so
// far or the grammar's hint (made to fit width: usageFor). Only the grammar's hint is fitted. A
// refusal is not here: it closes the line and is said on the status line.
func (m *Model) Hint(width int) (hint string, p common.Paint) {
	switch {
	case len(m.cands) > 1:
		return common.KeyName(m.keys.Complete) + ": " + strings.Join(m.cands, " "), m.st.Muted
	case strings.HasPrefix(m.live, "✓"):
		return m.live, m.st.Good
	case m.live != "":
		return m.live, m.st.Muted
	}
	return usageFor(m.input.Value(), m.keyHint(), width), m.st.Muted
}

// keyHint names the line's own keys after the grammar's hint: "Tab completes · ↑↓ history · Esc".
func (m *Model) keyHint() string {
	k := m.keys
	return common.KeyName(k.Complete) + " completes · " + common.KeyName(k.HistoryPrev) + common.KeyName(k.HistoryNext) +
		" history · " + common.KeyName(k.Dismiss)
}

// usageFor is the grammar's hint for line in at most width cells where it can be: with the line's
// keys (keys, see keyHint) when they fit, else without them; an order's grammar with LEG for its legs' forms
// (QA 13b #6: "[post] [redu…" at 80 columns); the list of commands cut between commands.
func usageFor(line, keys string, width int) string {
	u := Usage(line)
	short := strings.Replace(u, orderUsage, orderUsageShort, 1)
	for _, s := range []string{u + " · " + keys, u, short} {
		if common.TextWidth(s) <= width {
			return s
		}
	}
	parts := strings.Split(short, " · ")
	out := parts[0]
	for _, p := range parts[1:] {
		if common.TextWidth(out+" · "+p+" · …") > width {
			break
		}
		out += " · " + p
	}
	return out + " · …"
}

// Usage is the grammar of the command being typed (of every command before one is named).
func Usage(line string) string {
	words := strings.Fields(line)
	if len(words) > 0 {
		if u, ok := verbUsage[strings.ToLower(words[0])]; ok {
			return u
		}
	}
	return "buy|sell SIZE [INSTR] PRICE|mkt · close INSTR · cancel ID|INSTR|all [INSTR] · lev [INSTR] N · tpsl INSTR tp|sl LEG"
}

var (
	orderUsage = " SIZE|500usd [INSTRUMENT] PRICE|mkt [tp PX|N%|Nt] [sl PX|N%|Nt] [post] [reduce] [ioc|fok]"
	// orderUsageShort is orderUsage for 80 columns (the help says what LEG is).
	orderUsageShort = " SIZE [INSTR] PRICE|mkt [tp LEG] [sl LEG] [post] [reduce] [ioc|fok]"
	verbUsage       = map[string]string{
		"buy": "buy" + orderUsage, "b": "b" + orderUsage, "long": "long" + orderUsage,
		"sell": "sell" + orderUsage, "s": "s" + orderUsage, "short": "short" + orderUsage,
		"close": "close [INSTRUMENT]: the whole position, reduce-only at market", "c": "c [INSTRUMENT]: close the whole position",
		"cancel": "cancel ORDER-ID | INSTRUMENT (its one order) | all [INSTRUMENT]", "x": "x ORDER-ID | INSTRUMENT | all [INSTRUMENT]",
		"lev": "lev [INSTRUMENT] N: set the perpetual's leverage", "leverage": "leverage [INSTRUMENT] N",
		"tpsl": "tpsl [INSTRUMENT] [tp LEG] [sl LEG]: on the whole position (LEG: 200, 2%, 40t)",
	}
)

// grammarRows are the command line's commands: the syntax and its examples.
var grammarRows = [][2]string{
	{"buy|sell SIZE [INSTRUMENT] PRICE|mkt [tp LEG] [sl LEG] [post] [reduce] [gtc|ioc|fok]",
		"buy 0.1 btc 97000 · sell 2 eth mkt · buy 500usd sol 185 tp 200 sl 180 · s 0.5 97100"},
	{"close [INSTRUMENT]", "close btc: the whole position, reduce-only at market"},
	{"cancel ORDER-ID | INSTRUMENT | all [INSTRUMENT]", "cancel all eth · cancel 1234 · cancel all"},
	{"lev [INSTRUMENT] N", "lev btc 5"},
	{"tpsl [INSTRUMENT] [tp LEG] [sl LEG]", "tpsl btc tp 99000 sl 2%: on the whole position"},
}

// grammarNotes are the words of the grammar's parts, after the commands.
var grammarNotes = []string{
	"SIZE: base units (0.1) or USD (500usd, $500). LEG: a price (200) or a distance from the entry (2%, 40t).",
	"INSTRUMENT: a coin is its perpetual (btc); a full name (BTC-PERP, ETH/USDC) picks spot;",
	"left out, the current instrument. b s c x: buy sell close cancel.",
}

// Grammar is the command line's grammar for the help overlay, naming the keys of k (the line's
// own: open, complete, history, enter, close).
// The lines fit width: a command and its example share a line where there is room, and go on
// two lines (the example indented under it) where there is not; prose wraps between words, so
// the help never breaks the table mid-row at 80 columns.
func Grammar(k *common.KeyMap, width int) []string {
	const col = 41 // the syntax column, where a command and its example share a line
	keys := "Command line (" + k.CommandLine.Help().Key + "): " + common.KeyName(k.Complete) + " completes, " +
		common.KeyName(k.HistoryPrev) + " " + common.KeyName(k.HistoryNext) + " history, " + common.KeyName(k.TextSubmit) +
		" checks it and sends it as the form would, " + common.KeyName(k.Dismiss) + " closes"
	out := wrapWords(keys, width, "")
	for _, r := range grammarRows {
		syntax, example := r[0], r[1]
		pad := max(col-len([]rune(syntax)), 3)
		if line := "  " + syntax + strings.Repeat(" ", pad) + example; len([]rune(line)) <= width {
			out = append(out, line)
			continue
		}
		out = append(out, wrapWords(syntax, width, "  ")...)
		out = append(out, wrapParts(strings.Split(example, " · "), " · ", width, "      ")...)
	}
	for _, n := range grammarNotes {
		out = append(out, wrapWords(n, width, "  ")...)
	}
	return out
}

// wrapWords breaks s between words into lines of at most width cells: the first starts with
// indent, the rest two cells further in (a word longer than a line stands alone on its line).
func wrapWords(s string, width int, indent string) []string {
	return wrapParts(strings.Fields(s), " ", width, indent)
}

// wrapParts joins parts with sep into lines of at most width cells, breaking only between parts
// (an example is never split); continuation lines are indented two cells more.
func wrapParts(parts []string, sep string, width int, indent string) []string {
	var out []string
	line, start := indent, indent
	for _, w := range parts {
		switch {
		case line == start:
			line += w
		case len([]rune(line))+len([]rune(sep))+len([]rune(w)) <= width:
			line += sep + w
		default:
			out = append(out, line)
			start = indent + "  "
			line = start + w
		}
	}
	return append(out, line)
}

// enterParsed is enter's handling of a line that parse reads (a guard, risk or algorithm
// command): false when it is not parse's line, else its refusal with parse's error, else parse's
// message to the root.
func enterParsed[T tea.Msg](m *Model, line string, parse func(string) (T, bool, error)) (tea.Cmd, bool) {
	msg, ok, err := parse(line)
	switch {
	case !ok:
		return nil, false
	case err != nil:
		return m.refuse(err), true
	}
	return func() tea.Msg { return msg }, true
}
