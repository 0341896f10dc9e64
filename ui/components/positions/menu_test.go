package positions

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// TestTheCloseMenuNamesTheBoundKeys (issue #33, 5): with close on z and dismiss on ctrl+g, the
// close menu's line names z for all and ctrl+g for leaving it. It fails if the line spells out
// esc again whatever the binding.
func TestTheCloseMenuNamesTheBoundKeys(t *testing.T) {
	clock := func() time.Time { return simStart }
	c := commontest.NewCommon(t, state.New(clock), clock)
	keys := commontest.Rebound(t, map[string][]string{"close": {"z"}, "dismiss": {"ctrl+g"}})
	c.Keys = &keys
	msg, ok := New(c).openMenu("BTC-PERP")().(common.NoticeMsg)
	if !ok || !strings.Contains(msg.Text, "4 or z all") || !strings.HasSuffix(msg.Text, "· ctrl+g") {
		t.Fatalf("the close menu's line: %q", msg.Text)
	}
}

// TestTheCloseMenuReadsItsBoundKeys (issue #33): with the menu's keys rebound (close_25 to
// close_typed on q w e r y u i), each rebound key does its close (a share at market, the mid,
// the best price, or the command line), the digits and m, b, p only close the menu, and the
// menu's line names the rebound keys. It fails if the menu reads literal keys again.
func TestTheCloseMenuReadsItsBoundKeys(t *testing.T) {
	clock := func() time.Time { return simStart }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: simStart, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: d("0.1"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	s.Apply(state.TickersMsg{Gen: 1, At: simStart, Tickers: []api.Ticker{{Symbol: "BTC-PERP", BestBidPrice: d("99990"), BestAskPrice: d("100010"),
		MarkPrice: d("100000"), MidPrice: d("100000")}}})
	s.Apply(state.PositionsMsg{Gen: 1, At: simStart, Positions: []api.Position{{Instrument: "BTC-PERP", Size: d("1"), EntryPrice: d("90000"),
		Leverage: d("5"), MarginMode: api.MarginCross}}})
	c := commontest.NewCommon(t, s, clock)
	keys := commontest.Rebound(t, map[string][]string{"close_25": {"q"}, "close_50": {"w"}, "close_75": {"e"}, "close_100": {"r"},
		"close_mid": {"y"}, "close_best": {"u"}, "close_typed": {"i"}})
	c.Keys = &keys
	p := New(c)
	line, _ := p.openMenu("BTC-PERP")().(common.NoticeMsg)
	if want := "close BTC-PERP: q 25% · w 50% · e 75% · r or x all, at market · y at the mid · u at the best price · i type it · Esc"; line.Text != want {
		t.Errorf("the menu's line %q, want %q", line.Text, want)
	}
	for _, c := range []struct{ key, want string }{
		{"q", "close BTC-PERP sell 0.250 at market"}, {"w", "close BTC-PERP sell 0.500 at market"},
		{"e", "close BTC-PERP sell 0.750 at market"}, {"r", "close BTC-PERP sell 1.000 at market"},
		{"y", "close BTC-PERP sell 1.000 reduce-only limit at 100,000.0"}, {"u", "cannot close BTC-PERP: price: no book for BTC-PERP yet"}, // the best price is the book's
		{"1", "close menu closed, nothing sent"}, {"m", "close menu closed, nothing sent"}, {"p", "close menu closed, nothing sent"},
	} {
		p.menu = "BTC-PERP"
		if got := menuWords(p.menuKey(keyMsg(c.key))); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s in the menu says %q, want %q", c.key, got, c.want)
		}
	}
	p.menu = "BTC-PERP"
	if open, ok := p.menuKey(keyMsg("i"))().(cmdline.OpenMsg); !ok || open.Line != "close btc-perp " {
		t.Errorf("i in the menu: %#v, want the command line on close", open)
	}
}

// keyMsg is the key press of s (a rune).
func keyMsg(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// menuWords is the first notice a close menu's answer says.
func menuWords(cmd tea.Cmd) string {
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		msg = b[0]()
	}
	n, _ := msg.(common.NoticeMsg)
	return n.Text
}
