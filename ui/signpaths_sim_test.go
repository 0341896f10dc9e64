package ui

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
)

// confirmDialog confirms the open confirmation, typing its word when it asks for one.
func (c *simConsole) confirmDialog(t *testing.T, step string) {
	t.Helper()
	if c.m.confirmation() == nil {
		t.Fatalf("%s: no confirmation (notice %q)", step, c.m.shownNotice())
	}
	if w := c.m.confirmation().Action().Typed; w != "" {
		c.typeText(t, w)
	}
	c.key(t, "enter")
	if c.m.confirmation() != nil || c.m.shownLevel() == common.LevelError {
		t.Fatalf("%s: after confirming: dialog open %v, notice %q", step, c.m.confirmation() != nil, c.m.shownNotice())
	}
}

// restingByCommand rests a limit buy 2% under the mark on the instrument of coin, from the
// command line (journaled, as every order the console sends).
func (c *simConsole) restingByCommand(t *testing.T, coin string) {
	t.Helper()
	sym := strings.ToUpper(coin) + "-PERP"
	tk, _ := c.m.store.Ticker(sym)
	in, _ := c.m.store.Instrument(sym)
	px := state.RoundToStep(tk.MarkPrice.Mul(d("0.98")), in.TickSize)
	c.commandConfirmed(t, "buy 50usd "+coin+" "+px.String())
	pump(t, c.m, c.m.refreshNow(state.KindOrders))
}

// journalCounts counts the journal's intents by kind and who asked ("place form": 2), and the
// ones committed as sent.
func journalCounts(t *testing.T, j *journal.Journal) (map[string]int, int) {
	t.Helper()
	es, err := j.Recent(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	by, sent := map[string]int{}, 0
	for _, e := range es {
		by[e.Intent.Kind+" "+string(e.Intent.Who)]++
		if e.State == journal.StateSent {
			sent++
		}
		if e.Outcome == nil || !e.Outcome.Settled {
			t.Errorf("intent %s (%s) has no settled outcome: %+v", e.Intent.ID, e.Intent.What, e.Outcome)
		}
	}
	return by, sent
}

// signStep is one way the console signs, and the journal intent it leaves: its kind and who asked.
type signStep struct {
	name string
	do   func()
	want string
}

// signingSteps are the ways the console signs, in an order that leaves each
// something to act on (the form's, the command line's and the ladder's orders rest; a bracket's
// market entry opens the position a take-profit and stop and a close need).
func signingSteps(t *testing.T, c *simConsole) []signStep {
	return []signStep{
		{"form order", func() { c.typeLimitBuy(t); c.key(t, "enter"); c.confirmDialog(t, "form order") }, "place form"},
		{"command line order", func() { c.commandConfirmed(t, "buy 0.01 btc 94000") }, "place command line"},
		{"ladder order", func() {
			c.m.sizes = map[string]string{"BTC-PERP": "0.01"}
			_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
			pump(t, c.m, cmd)
			c.key(t, "9", "down", "down", "down", "b", "enter")
			c.confirmDialog(t, "ladder order")
		}, "place form"},
		{"amend from the ladder", func() {
			side, px, _ := c.m.depth.Ladder.Cursor()
			if !c.m.depth.Ladder.MoveToPrice(side, px) {
				t.Fatalf("no own order at %s", px)
			}
			c.key(t, "9", "K")
			c.confirmDialog(t, "amend")
		}, "cancel form"},
		{"bracket", func() { c.commandConfirmed(t, "buy 0.5 eth mkt tp 3% sl 3%") }, "bracket command line"},
		{"position take-profit and stop", func() {
			tk, _ := c.m.store.Ticker("ETH-PERP")
			c.commandConfirmed(t, fmt.Sprintf("tpsl eth tp %s sl %s", tk.MarkPrice.Mul(d("1.1")).Round(0), tk.MarkPrice.Mul(d("0.9")).Round(0)))
		}, "bracket command line"},
		{"close", func() { c.commandConfirmed(t, "close eth") }, "place command line"},
		{"cancel one", func() {
			pump(t, c.m, c.m.refreshNow(state.KindOrders))
			c.key(t, "3")
			_, cmd := c.m.Update(cancelOf(t, c))
			pump(t, c.m, cmd)
			c.confirmDialog(t, "cancel one")
		}, "cancel form"},
		{"cancel an instrument's", func() { c.commandConfirmed(t, "cancel all btc") }, "cancel-instrument command line"},
		{"cancel all", func() { c.restingByCommand(t, "sol"); c.commandConfirmed(t, "cancel all") }, "cancel-all command line"},
		{"kill switch", func() { c.restingByCommand(t, "sol"); c.press(t, ctrlK); c.confirmDialog(t, "kill switch") }, "cancel-all form"},
		{"withdrawal", func() { c.key(t, "8", "w"); c.typeText(t, "100"); c.key(t, "enter"); c.confirmDialog(t, "withdrawal") }, "withdraw form"},
		{"transfer", func() {
			_, form := fundsGroup(t, c.m)
			for form.Field() != transfer.FieldOp {
				c.key(t, "up")
			}
			c.key(t, "right", "right", "down", "down") // a spot transfer; its amount
			c.typeText(t, "10")
			c.key(t, "down")
			c.typeText(t, bobAddr)
			c.key(t, "enter")
			c.confirmDialog(t, "transfer")
		}, "transfer form"},
		{"leverage", func() { c.commandConfirmed(t, "lev btc 5") }, "leverage command line"},
		{"broker approval", func() {
			brokersView(t, c)
			c.key(t, "a")
			c.typeText(t, "0x9908658a316d743159f001026f1ef08aa8f0b55b 0.1%")
			c.key(t, "enter")
			c.confirmDialog(t, "broker approval")
		}, "broker form"},
	}
}

// TestEverySigningPathGoesThroughTheJournal (issue #32, one lifecycle): each way the console signs
// (the form's order, the command line's, the ladder's, an amend, a bracket, a position's
// take-profit and stop, a close, the cancel of one order, of an instrument's, of all, the kill
// switch, a withdrawal, a transfer, a leverage change, a broker approval; the console approves no
// agents) is driven in a console against the simulator on loopback. Each leaves a journal intent
// of its kind with who asked, committed before it was signed, and the simulator received exactly
// as many signed requests as the journal holds intents sent: nothing reaches the exchange around
// the executor's gate and journal. Guards an action given back its own route (a send against
// api.Trader), and the command line's or the form's Who swapped.
func TestEverySigningPathGoesThroughTheJournal(t *testing.T) {
	t.Parallel()
	signed := &signedCounter{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { signed.next = h; return signed })
	c.m.reviewEveryOrder() // every action through its confirmation, as the steps confirm them
	pump(t, c.m, c.m.Init())
	if c.m.exec == nil {
		t.Fatal("the console opened no executor")
	}
	steps := signingSteps(t, c)
	j := c.m.exec.Journal()
	for _, s := range steps {
		before, _ := journalCounts(t, j)
		s.do()
		after, _ := journalCounts(t, j)
		if after[s.want] <= before[s.want] {
			t.Errorf("%s: no new %q intent in the journal (notice %q); it holds %v", s.name, s.want, c.m.shownNotice(), after)
		}
	}
	by, sent := journalCounts(t, j)
	if n := int(signed.n.Load()); n != sent {
		keys := make([]string, 0, len(by))
		for k, v := range by {
			keys = append(keys, fmt.Sprintf("%s=%d", k, v))
		}
		sort.Strings(keys)
		t.Errorf("the simulator received %d signed requests, the journal holds %d sent intents (%s)", n, sent, strings.Join(keys, ", "))
	}
	t.Logf("journal %v, %d sent, %d signed requests", by, sent, signed.n.Load())
	if by["place form"] < 3 || by["cancel form"] < 2 {
		t.Errorf("journal: %v", by)
	}
	// The bracket's legs carry its entry's child client ids.
	es, _ := j.Recent(context.Background(), 1000)
	for _, e := range es {
		if e.Intent.Kind == "bracket" && len(e.Intent.Cloids) > 1 {
			if want, _ := journal.ChildCloid(e.Intent.Cloids[0], 1); e.Intent.Cloids[1] != want {
				t.Errorf("bracket %s: legs %v, want %s first", e.Intent.ID, e.Intent.Cloids[1:], want)
			}
		}
	}
}
