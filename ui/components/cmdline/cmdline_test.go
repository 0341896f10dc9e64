package cmdline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// testStore has BTC-PERP, ETH-PERP, SOL-PERP and ETH/USDC, a BTC position and two ETH orders.
func testStore() *state.Store {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := state.New(func() time.Time { return now })
	perp := func(id int, name, tick, lot string) api.PerpInstrument {
		return api.PerpInstrument{ID: api.InstrumentID(id), Name: name, TickSize: d(tick), LotSize: d(lot), MinNotionalUSD: d("10"), MaxLeverage: d("50")}
	}
	s.Apply(state.InstrumentsMsg{Instruments: api.Instruments{
		Perps: []api.PerpInstrument{perp(1, "BTC-PERP", "0.1", "0.001"), perp(2, "ETH-PERP", "0.01", "0.01"), perp(3, "SOL-PERP", "0.001", "0.01")},
		Spot:  []api.SpotInstrument{{ID: 101, Name: "ETH/USDC", TickSize: d("0.01"), LotSize: d("0.0001")}},
	}})
	s.Apply(state.TickersMsg{Tickers: []api.Ticker{
		{Symbol: "BTC-PERP", MarkPrice: d("97000"), MidPrice: d("97000"), BestBidPrice: d("96999.9"), BestAskPrice: d("97000.1")},
		{Symbol: "ETH-PERP", MarkPrice: d("3400"), MidPrice: d("3400"), BestBidPrice: d("3399.99"), BestAskPrice: d("3400.01")},
	}})
	s.Apply(state.AccountMsg{Summary: api.AccountSummary{TotalAccountEquity: d("100000"), MarginBalance: d("100000"), AvailableBalance: d("100000")}})
	s.Apply(state.PositionsMsg{Positions: []api.Position{{Instrument: "BTC-PERP", InstrumentID: 1, Size: d("0.5"), EntryPrice: d("96000"), Leverage: d("10"), MarginMode: "cross"}}})
	s.Apply(state.OrdersMsg{Orders: []api.OrderRecord{
		{OrderID: 7, Instrument: "ETH-PERP", InstrumentID: 2, Side: "b", LimitPrice: d("3300"), Size: d("1"), Unfilled: d("1"), State: api.StateOpen},
		{OrderID: 8, Instrument: "ETH-PERP", InstrumentID: 2, Side: "b", LimitPrice: d("3200"), Size: d("1"), Unfilled: d("1"), State: api.StateOpen},
	}})
	return s
}

func newLine(t *testing.T, hist *History) *Model {
	t.Helper()
	keys := commontest.Keys(t)
	return New(common.NewStyles(commontest.Theme), &keys, testStore(), hist)
}

func typeIn(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}, "", state.DefaultGuard())
	}
}

func press(m *Model, k tea.KeyType) tea.Cmd {
	return m.Update(tea.KeyMsg{Type: k}, "", state.DefaultGuard())
}

// TestCompletion: Tab completes commands, instruments as typed on the line (btc, eth/usdc), the
// market word and keywords; close offers the instruments with a position, cancel those with
// orders; several candidates are listed and Tab cycles them. It fails if a completion offers a
// word the grammar would refuse in that place.
func TestCompletion(t *testing.T) {
	m := newLine(t, OpenHistory(""))
	cases := []struct{ typed, want string }{
		{"bu", "buy "},
		{"buy 0.1 bt", "buy 0.1 btc "},
		{"buy 0.1 btc 97000 p", "buy 0.1 btc 97000 post "},
		{"sell 2 eth m", "sell 2 eth mkt "},
		{"close ", "close btc "},
		{"cancel all ", "cancel all eth "},
		{"lev s", "lev sol "},
		{"buy 0.1 BTC-P", "buy 0.1 BTC-PERP "}, // a full name, partly typed (#13 QA)
		{"lev eth-", "lev ETH-PERP "},
		{"close BTC-", "close BTC-PERP "},
		{"buy 0.1 btc mkt p", "buy 0.1 btc mkt p"}, // post is refused after mkt: not offered
	}
	for _, tc := range cases {
		m.Open()
		typeIn(m, tc.typed)
		press(m, tea.KeyTab)
		if m.Value() != tc.want {
			t.Errorf("%q + Tab = %q, want %q", tc.typed, m.Value(), tc.want)
		}
	}
	m.Open()
	typeIn(m, "buy 1 eth")
	press(m, tea.KeyTab)
	if _, hint := m.View(120); m.Value() != "buy 1 eth" || !strings.Contains(hint, "eth eth/usdc") {
		t.Fatalf("two candidates: %q, hint %q", m.Value(), hint)
	}
	press(m, tea.KeyTab)
	first := m.Value()
	press(m, tea.KeyTab)
	if first != "buy 1 eth" || m.Value() != "buy 1 eth/usdc" {
		t.Errorf("cycling: %q then %q", first, m.Value())
	}
	if got := Candidates(testStore(), []string{"lev"}); strings.Contains(strings.Join(got, " "), "/") {
		t.Errorf("lev offers a spot pair: %v", got)
	}
	for _, before := range [][]string{{"reverse"}, {"be"}, {"close"}} {
		if got := Candidates(testStore(), before); strings.Join(got, " ") != "btc" {
			t.Errorf("%v offers %v, want the position's instrument", before, got)
		}
	}
	if got := Candidates(testStore(), []string{"close", "btc"}); !strings.Contains(strings.Join(got, " "), "50%") {
		t.Errorf("close btc offers %v, want the shares", got)
	}
}

// TestHistoryKeptInItsFile: lines entered are appended to the history file (0600) and read back by
// the next console; ↑ and ↓ walk them and come back to the line being typed; a line holding what
// looks like a key is never written. It fails if history is not persisted or leaks a key.
func TestHistoryKeptInItsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "tradedesk", "command_history")
	m := newLine(t, OpenHistory(path))
	for _, l := range []string{"buy 0.1 btc 96000", "lev btc 5", "buy 1 btc 0x" + strings.Repeat("ab", 32)} {
		m.Open()
		typeIn(m, l)
		press(m, tea.KeyEnter)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != "buy 0.1 btc 96000\nlev btc 5\n" {
		t.Fatalf("history file %q", raw)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v", fi.Mode().Perm())
	}
	m2 := newLine(t, OpenHistory(path))
	m2.Open()
	typeIn(m2, "sel")
	press(m2, tea.KeyUp)
	a := m2.Value()
	press(m2, tea.KeyUp)
	b := m2.Value()
	press(m2, tea.KeyDown)
	press(m2, tea.KeyDown)
	if a != "lev btc 5" || b != "buy 0.1 btc 96000" || m2.Value() != "sel" {
		t.Errorf("walk: %q, %q, back to %q", a, b, m2.Value())
	}
}

// TestEnterSendsOnlyWhatPasses: a command that passes closes the line and asks the pipeline for
// the action (a confirmed order, a confirmed cancel, a confirmed leverage change); one that does
// not closes the line too (issue #31 #15), names the wrong word on the status line and asks for
// nothing.
func TestEnterSendsOnlyWhatPasses(t *testing.T) {
	m := newLine(t, OpenHistory(""))
	for _, tc := range []struct {
		line    string
		kind    action.Kind
		confirm bool // under the default policy: a plain limit order and one cancel are not asked
	}{
		{"buy 0.1 btc 96500", action.KindPlace, false},
		{"sell 0.1 btc mkt", action.KindPlace, true},
		{"close btc", action.KindClose, true},
		{"cancel all eth", action.KindCancelInstrument, true},
		{"x 7", action.KindCancel, false},
		{"cancel all", action.KindCancelAll, true},
		{"lev eth 5", action.KindControl, true},
	} {
		m.Open()
		typeIn(m, tc.line)
		cmd := press(m, tea.KeyEnter)
		if m.Active() || cmd == nil {
			t.Fatalf("%q: line open %v, error %q", tc.line, m.Active(), m.Err())
		}
		msg := cmd()
		if need, ok := msg.(NeedBookMsg); ok {
			// An order on another instrument than the current one waits for its book first.
			if need.Line != tc.line || need.Symbol == "" {
				t.Fatalf("%q: asked for the book %+v", tc.line, need)
			}
			msg = m.Resume(need.Line, "", state.DefaultGuard())()
		}
		req, ok := msg.(action.RequestMsg)
		if !ok || req.Act.Kind != tc.kind || req.Act.Confirm != tc.confirm {
			t.Fatalf("%q: %+v", tc.line, req.Act)
		}
	}
	m.Open()
	typeIn(m, "buy 0.1 btc 96500.05")
	cmd := press(m, tea.KeyEnter)
	if m.Active() || !strings.HasPrefix(m.Err(), `word 4 "96500.05"`) {
		t.Fatalf("off tick: open %v, %q", m.Active(), m.Err())
	}
	if msg, ok := cmd().(common.NoticeMsg); !ok || msg.Level != common.LevelError || !strings.Contains(msg.Text, `word 4 "96500.05"`) {
		t.Fatalf("off tick asked for %#v", cmd())
	}
}

// TestAPastedKeyIsNeverEchoed: a private key pasted into the line is not drawn, not repeated in
// the refusal, and not kept in the history. It fails if the line is drawn as typed.
func TestAPastedKeyIsNeverEchoed(t *testing.T) {
	key := strings.Repeat("4c0883a6", 8)
	m := newLine(t, OpenHistory(""))
	m.Open()
	typeIn(m, "buy 1 btc 0x"+key)
	line, _ := m.View(300)
	press(m, tea.KeyEnter)
	_, hint := m.View(300)
	for what, s := range map[string]string{"line": line, "refusal": hint, "error": m.Err(), "history": strings.Join(m.hist.Lines(), "\n")} {
		if strings.Contains(s, key[:16]) {
			t.Errorf("the %s echoes the key: %q", what, s)
		}
	}
	if !strings.Contains(line, "buy 1 btc") {
		t.Errorf("the line lost what is not a key: %q", line)
	}
}

// TestTheLineIsCheckedAsItIsTyped: while typing, the hint says what Enter does (sends, or asks
// to confirm) and the order (with its fee and margin) or names the word that is wrong so far; nothing is asked of the
// pipeline until Enter. It fails if the live check and Enter's check disagree on a line.
func TestTheLineIsCheckedAsItIsTyped(t *testing.T) {
	m := newLine(t, OpenHistory(""))
	m.Open()
	typeIn(m, "buy 0.1 btc 96500")
	if _, hint := m.View(200); !strings.Contains(hint, "✓ Enter sends it: buy 0.100 BTC-PERP @ 96,500.0 · fee ") || !strings.Contains(hint, "margin") {
		t.Errorf("a good order: %q", hint)
	}
	// What Enter does comes first, so a line cut at 80 columns still says it (QA 13c #7).
	typeIn(m, " tp 97000 sl 96000")
	if _, hint := m.View(40); !strings.HasPrefix(strings.TrimSpace(ansi.Strip(hint)), "✓ Enter to review: buy") {
		t.Errorf("a bracket's hint at 40 columns: %q", hint)
	}
	for range len(" tp 97000 sl 96000") {
		press(m, tea.KeyBackspace)
	}
	typeIn(m, ".05")
	if _, hint := m.View(200); !strings.Contains(hint, `… word 4 "96500.05": price 96500.05 is not a multiple of the tick size`) {
		t.Errorf("off the tick: %q", hint)
	}
	m.Open()
	typeIn(m, "buy 0.1")
	if _, hint := m.View(200); !strings.HasPrefix(hint, "buy SIZE") {
		t.Errorf("incomplete: %q", hint)
	}
}

// TestGrammarFitsTheHelp (QA 14): at the 80x24 help's width (76) and wider, every grammar line
// fits, and an example is never split (no line starts or ends on its "·"); at 200 columns each
// command shares its line with its examples. It fails if the grammar wraps mid-table again.
func TestGrammarFitsTheHelp(t *testing.T) {
	keys := commontest.Keys(t)
	for _, w := range []int{76, 116, 196} {
		lines := Grammar(&keys, w)
		for _, l := range lines {
			if n := len([]rune(l)); n > w {
				t.Errorf("width %d: line %d wide: %q", w, n, l)
			}
			if s := strings.TrimSpace(l); strings.HasPrefix(s, "·") || strings.HasSuffix(s, "·") {
				t.Errorf("width %d: an example split: %q", w, l)
			}
		}
		if w == 196 {
			for _, l := range lines {
				if strings.HasPrefix(l, "  close [INSTRUMENT]") && !strings.Contains(l, "close btc") {
					t.Errorf("width %d: close and its example on two lines: %q", w, l)
				}
			}
		}
	}
}

// TestUsageFitsEightyColumns (QA 13b #6): at 80 columns the grammar's hint is not cut mid-word
// ("[post] [redu…"): an order's grammar drops the line's keys and names its legs LEG, so it
// reads to "[ioc|fok]"; the list of commands is cut between commands. At 200 columns the keys
// stay. Guards the hint fitted by cutting at the edge.
func TestUsageFitsEightyColumns(t *testing.T) {
	m := newLine(t, OpenHistory(""))
	m.Open()
	if _, hint := m.View(80); !strings.HasSuffix(strings.TrimRight(hint, " "), " · …") || strings.Count(hint, "…") != 1 {
		t.Errorf("every command's grammar at 80: %q", hint)
	}
	for _, verb := range []string{"buy", "short"} {
		m.Open()
		typeIn(m, verb+" 0.1")
		if _, hint := m.View(80); !strings.HasPrefix(hint, verb+" SIZE") || !strings.HasSuffix(strings.TrimRight(hint, " "), "[reduce] [ioc|fok]") {
			t.Errorf("%s at 80: %q", verb, hint)
		}
		if _, hint := m.View(200); !strings.Contains(hint, "[tp PX|N%|Nt]") || !strings.Contains(hint, "Tab completes") {
			t.Errorf("%s at 200: %q", verb, hint)
		}
	}
}

// TestARefusalClosesTheLine (issue #31 #15): a refused command, on Enter or checked again on a
// fresh book (Resume), closes the line, so the keys after it reach the panes instead of being
// typed on after the refused text; the refusal is the notice, with the way back to the line;
// `:` opens a fresh line and ↑ brings the refused one back to fix. Guards the line left open by a
// refusal (QA 13b/13c kept it open).
func TestARefusalClosesTheLine(t *testing.T) {
	m := newLine(t, OpenHistory(""))
	const line = "buy 0.1 btc 96500.05" // off the tick
	m.Open()
	typeIn(m, line)
	cmd := press(m, tea.KeyEnter)
	if m.Active() {
		t.Fatalf("the line stays open after a refusal: %q", m.Value())
	}
	n, ok := cmd().(common.NoticeMsg)
	if !ok || n.Level != common.LevelError || !strings.HasPrefix(n.Text, NotSent+`word 4 "96500.05"`) || !strings.HasSuffix(n.Text, "(: ↑ edits it)") {
		t.Fatalf("the refusal notice: %#v", cmd())
	}
	m.Open()
	if m.Value() != "" || m.Err() != "" {
		t.Fatalf(": after a refusal: line %q, error %q", m.Value(), m.Err())
	}
	press(m, tea.KeyUp)
	if m.Value() != line {
		t.Fatalf("↑ after a refusal gives %q", m.Value())
	}
	m.Close()
	if msg := m.Resume("buy 0.1 btc 96400.05", "", state.DefaultGuard())(); msg == nil {
		t.Fatal("no refusal notice on the fresh book")
	}
	if m.Active() || !strings.HasPrefix(m.Err(), `word 4 "96400.05"`) {
		t.Fatalf("after a refusal on the fresh book: open %v, line %q, error %q", m.Active(), m.Value(), m.Err())
	}
}

// TestHistoryKeptPerNetwork (issue #31 #15): each network keeps its own history file, so a line
// entered in the demo never comes back in a live console; a network name becomes a plain file
// name. Guards one history file for every network.
func TestHistoryKeptPerNetwork(t *testing.T) {
	base := filepath.Join(t.TempDir(), "command_history")
	demo := newLine(t, OpenHistory(NetworkHistoryPath(base, "demo")))
	demo.Open()
	typeIn(demo, "buy 0.1 btc 96000")
	press(demo, tea.KeyEnter)
	live := newLine(t, OpenHistory(NetworkHistoryPath(base, "mainnet")))
	live.Open()
	press(live, tea.KeyUp)
	if live.Value() != "" || len(live.hist.Lines()) != 0 {
		t.Fatalf("the demo's line in the mainnet console: %q %q", live.Value(), live.hist.Lines())
	}
	again := newLine(t, OpenHistory(NetworkHistoryPath(base, "demo")))
	again.Open()
	press(again, tea.KeyUp)
	if again.Value() != "buy 0.1 btc 96000" {
		t.Fatalf("the demo's history lost its line: %q", again.Value())
	}
	for network, want := range map[string]string{"mainnet": base + ".mainnet", "127.0.0.1:8080": base + ".127.0.0.1_8080",
		"../../x": base + "..._.._x", "": base + ".unnamed"} {
		if got := NetworkHistoryPath(base, network); got != want {
			t.Errorf("%q: %q, want %q", network, got, want)
		}
	}
	if NetworkHistoryPath("", "demo") != "" {
		t.Error("no base path should keep the history in memory")
	}
}

// TestTheHintSaysTheFiguresTheReviewShows (issue #31, 13): a spot buy's hint says "cost" (with the
// fee), never "margin"; a market order the book fills only in part gives the fee and margin of
// what fills, and says of how much ("on the 0.300 that fills"), as the review does, not the whole
// size's margin. Guards the hint's one "margin" for every order and its whole-size figures.
func TestTheHintSaysTheFiguresTheReviewShows(t *testing.T) {
	s := testStore()
	s.Apply(state.TickersMsg{Tickers: []api.Ticker{
		{Symbol: "BTC-PERP", MarkPrice: d("97000"), MidPrice: d("97000"), BestBidPrice: d("96999.9"), BestAskPrice: d("97000.1")},
		{Symbol: "ETH/USDC", MarkPrice: d("3400"), MidPrice: d("3400"), BestBidPrice: d("3399.99"), BestAskPrice: d("3400.01")},
	}})
	s.Apply(state.CollateralMsg{Collateral: []api.Collateral{{ID: 0, Symbol: "USDC"}, {ID: 1, Symbol: "ETH"}}})
	s.Apply(state.InstrumentsMsg{Instruments: api.Instruments{
		Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("50")}},
		Spot:  []api.SpotInstrument{{ID: 101, Name: "ETH/USDC", TickSize: d("0.01"), LotSize: d("0.0001"), BaseAsset: 1, QuoteAsset: 0}},
	}})
	s.Apply(state.AccountMsg{Summary: api.AccountSummary{TotalAccountEquity: d("100000"), MarginBalance: d("100000"), AvailableBalance: d("100000"),
		SpotCollateral: map[string]api.CollateralBalance{"USDC": {Balance: d("10000"), WithdrawableBalance: d("10000")}}}})
	s.Apply(state.BookMsg{Book: api.OrderBook{Symbol: "BTC-PERP",
		Asks: []api.BookLevel{{Price: d("97000.1"), Size: d("0.3")}, {Price: d("99000"), Size: d("5")}},
		Bids: []api.BookLevel{{Price: d("96999.9"), Size: d("1")}}}})
	keys := commontest.Keys(t)
	m := New(common.NewStyles(commontest.Theme), &keys, s, OpenHistory(""))
	m.Open()
	typeIn(m, "buy 0.1 eth/usdc 3300")
	if _, hint := m.View(300); !strings.Contains(hint, " · cost 330.") || strings.Contains(hint, "margin") {
		t.Errorf("a spot buy's hint: %q", hint)
	}
	m.Close()
	m.Open()
	typeIn(m, "buy 0.5 btc mkt")
	_, hint := m.View(300)
	co, errs := s.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Market, Size: "0.5"}, state.DefaultGuard())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := " · margin " + common.FmtNum(co.Preview.Walk.FillMargin, 2) + " on the 0.300 that fills"
	if !strings.Contains(hint, want) || !co.Preview.Walk.FillMargin.LessThan(co.Preview.MarginRequired) {
		t.Errorf("a market order the book fills in part: %q, want %q", hint, want)
	}
}

// TestReboundLineKeys (issue #33, 5): with text_submit, complete, history_prev and dismiss
// rebound, the new keys enter, complete, walk the history and close the line, the old ones do not
// (Enter, Tab, ↑ are typed or ignored), and every hint names the new keys. It fails if the line
// reads a hard-coded key again or a hint spells out a default.
func TestReboundLineKeys(t *testing.T) {
	keys := commontest.Rebound(t, map[string][]string{"text_submit": {"ctrl+s"}, "complete": {"ctrl+t"},
		"history_prev": {"ctrl+p"}, "history_next": {"ctrl+n"}, "dismiss": {"ctrl+g"}})
	m := New(common.NewStyles(commontest.Theme), &keys, testStore(), OpenHistory(""))
	g := state.DefaultGuard()
	ctrl := func(r tea.KeyType) tea.Cmd { return m.Update(tea.KeyMsg{Type: r}, "", g) }
	m.Open()
	if _, hint := m.View(200); !strings.Contains(hint, "ctrl+t completes · ctrl+pctrl+n history · ctrl+g") || strings.Contains(hint, "Tab") {
		t.Errorf("grammar hint names the old keys: %q", hint)
	}
	typeIn(m, "bu")
	ctrl(tea.KeyTab)
	if m.Value() != "bu" {
		t.Fatalf("Tab completed though complete is ctrl+t: %q", m.Value())
	}
	ctrl(tea.KeyCtrlT)
	if m.Value() != "buy " {
		t.Fatalf("ctrl+t did not complete: %q", m.Value())
	}
	typeIn(m, "1 eth")
	ctrl(tea.KeyCtrlT)
	if _, hint := m.View(200); !strings.HasPrefix(hint, "ctrl+t: eth eth/usdc") {
		t.Errorf("candidates hint: %q", hint)
	}
	typeIn(m, " 3300")
	if _, hint := m.View(200); !strings.Contains(hint, "ctrl+s ") || strings.Contains(hint, "Enter") {
		t.Errorf("the check does not say ctrl+s enters it: %q", hint)
	}
	if ctrl(tea.KeyEnter); !m.Active() {
		t.Fatal("Enter entered the line though text_submit is ctrl+s")
	}
	if cmd := ctrl(tea.KeyCtrlS); cmd == nil || m.Active() {
		t.Fatal("ctrl+s did not enter the line")
	}
	m.Open()
	if ctrl(tea.KeyUp); m.Value() != "" {
		t.Errorf("↑ walked the history though history_prev is ctrl+p: %q", m.Value())
	}
	if ctrl(tea.KeyCtrlP); m.Value() != "buy 1 eth/usdc 3300" && m.Value() != "buy 1 eth 3300" {
		t.Errorf("ctrl+p did not bring the last line back: %q", m.Value())
	}
	if ctrl(tea.KeyEsc); !m.Active() {
		t.Error("Esc closed the line though dismiss is ctrl+g")
	}
	if ctrl(tea.KeyCtrlG); m.Active() {
		t.Error("ctrl+g did not close the line")
	}
	m.Open()
	typeIn(m, "buy 1 zzz")
	if n, ok := ctrl(tea.KeyCtrlS)().(common.NoticeMsg); !ok || !strings.Contains(n.Text, "(: ctrl+p edits it)") {
		t.Errorf("refusal does not say ctrl+p brings the line back: %+v", n)
	}
	lines := Grammar(&keys, 200)
	if !strings.Contains(lines[0], "ctrl+t completes, ctrl+p ctrl+n history, ctrl+s checks it") || !strings.Contains(lines[0], "ctrl+g closes") {
		t.Errorf("help grammar names the old keys: %q", lines[0])
	}
}
