package orderentry

import (
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

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// newForm is the form over one perp (tick 0.1, lot 0.001, min notional 10 USD) marked at 97,000,
// for an account with 100,000 USD available.
func newForm(t *testing.T, inFlight *bool) *Pane {
	t.Helper()
	clock := func() time.Time { return t0 }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	s.Apply(state.TickersMsg{Gen: 1, At: t0, Tickers: []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: d("97000"),
		LastPrice: d("97000"), MidPrice: d("97000"), BestBidPrice: d("96999.9"), BestAskPrice: d("97000.1")}}})
	s.Apply(state.AccountMsg{Gen: 1, At: t0, Summary: api.AccountSummary{TotalAccountEquity: d("100000"),
		MarginBalance: d("100000"), AvailableBalance: d("100000")}})
	p := New(commontest.NewCommon(t, s, clock), "DEMO", inFlight)
	p.SetSize(46, 24)
	p.SetFocused(true)
	p.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
	return p
}

func submit(p *Pane) tea.Msg {
	p.Focus(FieldSubmit)
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		return nil
	}
	return cmd()
}

// TestAnOrderOffTheTickGoesBackToItsField: a price off the tick is refused with the rounded price
// to take, the cursor returns to the price, and nothing is asked of the pipeline.
func TestAnOrderOffTheTickGoesBackToItsField(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetValue(FieldPrice, "96000.05")
	p.SetValue(FieldSize, "0.01")
	msg, ok := submit(p).(common.NoticeMsg)
	if !ok || msg.Level != common.LevelError || !strings.Contains(msg.Text, "order not sent: price") {
		t.Fatalf("submit answered %#v", msg)
	}
	if p.Field() != FieldPrice {
		t.Errorf("the cursor is on field %d, want the price", p.Field())
	}
	if errs := p.Errors(); len(errs) == 0 || errs[0].Suggest == "" {
		t.Errorf("no rounded price offered: %v", errs)
	}
}

// TestAValidOrderIsOneOrderAction: a valid limit buy becomes one order-lane action carrying the
// checked order and a client id. Under the default policy a plain limit order is sent on Enter
// (the button says so) and a market order is reviewed first; under "every" the limit order is
// reviewed too. Guards the form ignoring the policy either way.
func TestAValidOrderIsOneOrderAction(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	if got := p.submitWord(); got != "Send order" {
		t.Errorf("a plain limit order's button says %q", got)
	}
	req, ok := submit(p).(action.RequestMsg)
	if !ok {
		t.Fatalf("a valid order asked for nothing; errors %v", p.Errors())
	}
	a := req.Act
	w := a.Order.Wire
	if a.Kind != action.KindPlace || a.Lane != action.LaneOrder || a.Confirm || w.Side != api.SideBuy ||
		w.Price != "96000" || w.Size != "0.01" || w.Cloid == "" {
		t.Fatalf("asked for %+v with wire %+v", a, w)
	}
	p.Update(action.SentMsg{Act: a})
	if p.Field() != FieldSubmit {
		t.Errorf("after a sent order the cursor is on field %d, not the submit button", p.Field())
	}
	if _, again := submit(p).(action.RequestMsg); again {
		t.Errorf("a second Enter after the order was sent asked for another order")
	}

	p.SetOrderType("market")
	p.SetValue(FieldSize, "0.01")
	if got := p.submitWord(); got != "Review order" {
		t.Errorf("a market order's button says %q", got)
	}
	if req, ok := submit(p).(action.RequestMsg); !ok || !req.Act.Confirm {
		t.Errorf("a market order is not reviewed first: %v", ok)
	}

	p.Guard.Confirm = state.ConfirmEvery
	p.SetOrderType("limit")
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	if req, ok := submit(p).(action.RequestMsg); !ok || !req.Act.Confirm {
		t.Errorf("under the every policy a limit order is not reviewed first: %v", ok)
	}
}

// TestNothingIsSentWhileAnOrderIsOut: the form refuses to ask for a second order while one is out.
func TestNothingIsSentWhileAnOrderIsOut(t *testing.T) {
	out := true
	p := newForm(t, &out)
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	msg, ok := submit(p).(common.NoticeMsg)
	if !ok || msg.Text != action.BusyText[action.LaneOrder] {
		t.Fatalf("submit with an order out answered %#v", msg)
	}
}

func TestSetOrderType(t *testing.T) {
	p := newForm(t, new(bool))
	if !p.SetOrderType("market") || p.OrderType() != "market" {
		t.Fatalf("type %q after SetOrderType(market)", p.OrderType())
	}
	if p.SetOrderType("iceberg") || p.OrderType() != "market" {
		t.Errorf("an unknown type was taken: %q", p.OrderType())
	}
}

// TestSideKeysStartOnTheFirstField (issue #23, case 2): b/s (a pick with focus) put the cursor on
// what the order type needs first, whatever was focused or typed before: Price for limit, Size for
// market, Trigger for tp/sl, and start a new order (no digits left for the next keys to extend).
// Guards the old rule (Size once a price was typed) and the numbers kept.
func TestSideKeysStartOnTheFirstField(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetValue(FieldPrice, "96000")
	p.Focus(FieldSize)
	for _, tc := range []struct {
		typ  string
		want Field
	}{{"limit", FieldPrice}, {"market", FieldSize}, {"sl", FieldTrigger}, {"tp", FieldTrigger}} {
		p.SetOrderType(tc.typ)
		p.SetValue(FieldPrice, "96000")
		p.SetValue(FieldSize, "0.5")
		p.Focus(FieldReduce)
		p.Update(common.InstrumentMsg{Symbol: "BTC-PERP", Side: api.SideSell, Focus: true})
		if p.Field() != tc.want || p.Side() != api.SideSell {
			t.Errorf("%s: field %d side %s, want field %d, sell", tc.typ, p.Field(), p.Side(), tc.want)
		}
		if p.Value(FieldPrice) != "" || p.Value(FieldSize) != "" {
			t.Errorf("%s: s kept price %q size %q", tc.typ, p.Value(FieldPrice), p.Value(FieldSize))
		}
	}
}

// TestAValueTheFormSetsLeavesTheCursorAtItsEnd (#24 case 5): after the form puts a value in a
// field (here the price, over a shorter one typed before), typing goes after it (mutation: drop
// the CursorEnd, and the cursor stays inside the old value's length).
func TestAValueTheFormSetsLeavesTheCursorAtItsEnd(t *testing.T) {
	p := newForm(t, new(bool))
	p.Focus(FieldPrice)
	for _, r := range "96" {
		p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	p.inputs[FieldPrice].SetCursor(0) // the trader moved back into what they typed
	p.SetValue(FieldPrice, "97000.1")
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'5'}})
	if got := p.Value(FieldPrice); got != "97000.15" {
		t.Errorf("price %q after the form set 97000.1 and 5 was typed, want 97000.15", got)
	}
}

// TestEscLeavesTheFormEnterStillReviews (#13 "Form keys"): in the form Tab and shift+Tab move
// between fields; Esc leaves the form (no key is captured, the cursor rests on the button), Enter
// then still reviews the order, and ↓ goes back in. Mutations it kills: Esc leaving the form
// captured, Enter outside the form doing nothing, Tab not bound to the next field.
func TestEscLeavesTheFormEnterStillReviews(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	p.Focus(FieldPrice)
	p.Update(tea.KeyMsg{Type: tea.KeyTab})
	if p.Field() != FieldSize || !p.InForm() {
		t.Fatalf("Tab from the price: field %d in form %v, want the size", p.Field(), p.InForm())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	if p.Field() != FieldPrice {
		t.Fatalf("shift+Tab from the size: field %d, want the price", p.Field())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if p.InForm() || p.Capturing() || p.Field() != FieldSubmit {
		t.Fatalf("Esc: in form %v capturing %v field %d", p.InForm(), p.Capturing(), p.Field())
	}
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("Enter outside the form asked for nothing")
	}
	if _, ok := cmd().(action.RequestMsg); !ok {
		t.Fatalf("Enter outside the form did not review the order; errors %v", p.Errors())
	}
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	if !p.InForm() || p.Field() != FieldInstrument {
		t.Fatalf("↓ outside the form: in form %v field %d, want back in on the instrument", p.InForm(), p.Field())
	}
}

// TestABracketIsOneActionOfThreeOrders: a limit buy with a take-profit (a percent) and a
// stop-loss (a price) becomes one confirmed action sending the entry and its two children in one
// placeOrder; the preview and the confirmation show what each leg gains or loses and the
// reward/risk. A take-profit below a buy's entry is refused at its own field. Guards a bracket
// sent as a plain order (its legs dropped) and a leg's error shown nowhere.
func TestABracketIsOneActionOfThreeOrders(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	p.SetValue(FieldTP, "2%")
	p.SetValue(FieldSL, "95040")
	if v := p.View(); !strings.Contains(v, "R/R 2.00") || !strings.Contains(v, "+19.20") || !strings.Contains(v, "-9.60") {
		t.Errorf("the preview does not show the bracket's reward and risk:\n%s", v)
	}
	req, ok := submit(p).(action.RequestMsg)
	if !ok {
		t.Fatalf("a valid bracket asked for nothing; errors %v", p.Errors())
	}
	a := req.Act
	if a.Kind != action.KindPlace || !a.Confirm || a.Order.Wire.Grouping != api.GroupingNormal ||
		!strings.Contains(a.What, "tp 97,920.0 sl 95,040.0") || !strings.Contains(strings.Join(a.Lines, "\n"), "Reward/risk  2.00") {
		t.Fatalf("bracket action %q %+v\n%s", a.What, a.Order.Wire, strings.Join(a.Lines, "\n"))
	}
	p.SetValue(FieldTP, "95000")
	if msg, ok := submit(p).(common.NoticeMsg); !ok || !strings.Contains(msg.Text, "take-profit 95,000.0 must be above the entry price 96,000.0") {
		t.Fatalf("a take-profit below a buy's entry: %#v", msg)
	}
	if p.Field() != FieldTP {
		t.Errorf("the cursor is on field %d, want the take-profit", p.Field())
	}
}

// TestBracketLineWrapsNeverCuts (#13 QA 4): a bracket line wider than the form (1 BTC: TP
// +1,920.00, SL -960.00, R/R 2.00 at 46 columns) wraps under itself like the margin row, each
// figure whole beside its label. Guards the line cut on its key figure ("R/R 2.…").
func TestBracketLineWrapsNeverCuts(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "1")
	p.SetValue(FieldTP, "2%")
	p.SetValue(FieldSL, "95040")
	v := ansi.Strip(p.View())
	for _, want := range []string{"TP +1,920.00", "SL -960.00", "R/R 2.00"} {
		if !strings.Contains(v, want) {
			t.Errorf("the bracket's %q is not whole in the form:\n%s", want, v)
		}
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "…") {
			t.Errorf("a line is cut: %q\n%s", l, v)
		}
	}
}

// TestACutPreviewIsReviewed: a pane too short for the whole preview ("… more lines: the review
// shows them all") reviews even a limit order that rests, and its button says so; with room for
// it the same order is sent on Enter. Guards the QA defect of a "Send order" that promised a review
// of the hidden figures and sent instead.
func TestACutPreviewIsReviewed(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetSize(46, 12)
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	if v := p.View(); !strings.Contains(v, "more lines: the review shows them all") || !strings.Contains(v, "Review order") {
		t.Fatalf("a cut preview's form:\n%s", v)
	}
	if req, ok := submit(p).(action.RequestMsg); !ok || !req.Act.Confirm {
		t.Fatalf("a cut preview's order was not reviewed first: %v", ok)
	}
	p.SetSize(46, 40)
	p.SetValue(FieldPrice, "96000")
	p.SetValue(FieldSize, "0.01")
	if req, ok := submit(p).(action.RequestMsg); !ok || req.Act.Confirm || !strings.Contains(p.View(), "Send order") {
		t.Fatalf("with room for the preview the order was reviewed (or the button does not say Send)")
	}
}

// TestSizePlaceholderIsTheLastSizeSent (issue #31, 13): after each order sent on the instrument the
// size field's placeholder is that order's size ("last 0.02" after 0.01 then 0.02), not the size
// of an order before it or "base units". Guards the placeholder set only when the instrument
// changes.
func TestSizePlaceholderIsTheLastSizeSent(t *testing.T) {
	p := newForm(t, new(bool))
	for _, size := range []string{"0.01", "0.02"} {
		p.SetValue(FieldPrice, "96000")
		p.SetValue(FieldSize, size)
		req, ok := submit(p).(action.RequestMsg)
		if !ok {
			t.Fatalf("size %s: nothing asked; errors %v", size, p.Errors())
		}
		p.Update(action.SentMsg(req))
		if got := p.inputs[FieldSize].Placeholder; got != "last "+size {
			t.Errorf("after %s was sent the size placeholder is %q", size, got)
		}
	}
}
