package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/components/algos"
)

// algoRow is the Algos view's row of algorithm id.
func algoRow(m *Model, id string) (algos.Row, bool) {
	for _, r := range m.algoPane.Rows() {
		if r.ID == id {
			return r, true
		}
	}
	return algos.Row{}, false
}

// childrenOf are the open orders of account a's algorithm id.
func childrenOf(t *testing.T, c *api.Client, id string) []api.OrderRecord {
	t.Helper()
	pg, err := c.OpenOrders(context.Background(), c.Address(), api.PageParams{Page: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out []api.OrderRecord
	for _, o := range pg.Data {
		if id == "" && algo.GroupOf(o.Cloid) != "" || id != "" && algo.GroupOf(o.Cloid) == id {
			out = append(out, o)
		}
	}
	return out
}

func inJournal(t *testing.T, x *exec.Executor, id string) bool {
	t.Helper()
	_, found, err := x.Journal().GetAlgo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestAShadowChaseIsSentLiveOnlyAfterATypedYes: in shadow, L on a rehearsed paper chase in the
// Algos view opens the live confirmation (LIVE in its title, not SHADOW); Enter alone starts
// nothing; after a typed yes a new chase with the paper one's parameters works on the upstream
// account, its children with fresh client ids, journaled in the live journal only, shown LIVE in
// the Algos view; s on it stops it on the live session. The paper chase works on, untouched.
func TestAShadowChaseIsSentLiveOnlyAfterATypedYes(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c, up, live := shadowWithLive(t, true)
	dr := newAlgoDriver(t, c.m)
	dr.command("chase buy 0.01 btc for 10m")
	var paper algos.Row
	dr.until("the paper chase working", func() bool {
		r, ok := dr.row("chase")
		paper = r
		return ok && r.State == journal.AlgoRunning && r.WorkingPrice != nil
	})
	c.m.showPane(c.m.algoPane)
	dr.key("L")
	dr.until("the live confirmation", func() bool { return c.m.confirmation() != nil })
	title := c.m.confirmation().Action().Title
	if !strings.HasPrefix(title, "Send LIVE") || !strings.Contains(title, "LIVE MAINNET") || strings.Contains(title, "SHADOW") {
		t.Fatalf("L on a paper chase: title %q", title)
	}
	dr.key("enter")
	if n := len(childrenOf(t, up, "")); n != 0 || len(c.m.algoPane.Rows()) != 1 || c.m.confirmation().Answered() {
		t.Fatalf("Enter without the typed yes: %d live children, rows %+v, dialog answered %v", n, c.m.algoPane.Rows(), c.m.confirmation().Answered())
	}
	dr.key("y", "e", "s", "enter")
	// Both chases reprice on a moving market: cancel, then place, so for a moment a chase has no
	// order on its exchange. What a chase works is read in the look that finds it there.
	var lv algos.Row
	var upKids []api.OrderRecord
	dr.until("the live chase working on the upstream", func() bool {
		for _, r := range c.m.algoPane.Rows() {
			if r.Session == "LIVE" && r.State == journal.AlgoRunning {
				lv = r
			}
		}
		upKids = childrenOf(t, up, "")
		return lv.ID != "" && len(upKids) > 0 && algo.GroupOf(upKids[0].Cloid) == lv.ID
	})
	if lv.ID == paper.ID || lv.Kind != "chase" || lv.Side != "buy" || !lv.Target.Equal(paper.Target) || lv.Instrument != paper.Instrument {
		t.Fatalf("the live chase %+v, want the paper one's parameters %+v under a new id", lv, paper)
	}
	if n := len(upKids); n != 1 {
		t.Fatalf("the upstream has %d algorithm children, want the live chase's one", n)
	}
	if !inJournal(t, live, lv.ID) || inJournal(t, c.m.exec, lv.ID) || inJournal(t, live, paper.ID) {
		t.Fatalf("live chase in the live journal %v, in the shadow's %v; paper chase in the live journal %v",
			inJournal(t, live, lv.ID), inJournal(t, c.m.exec, lv.ID), inJournal(t, live, paper.ID))
	}
	if !strings.Contains(c.m.algoPane.View(), "CHASE") {
		t.Fatalf("the live chase is not marked in the Algos view:\n%s", c.m.algoPane.View())
	}
	dr.key("g") // running first, newest first: the live chase is on top
	if rows := c.m.algoPane.Rows(); rows[c.m.algoPane.Selected()].ID != lv.ID {
		t.Fatalf("selected %+v, want the live chase", rows[c.m.algoPane.Selected()])
	}
	dr.key("s")
	dr.until("the live chase stopped", func() bool { r, _ := algoRow(c.m, lv.ID); return r.State == algo.StateStopped })
	if n := len(childrenOf(t, up, "")); n != 0 {
		t.Fatalf("after s on the live chase: %d live children still open", n)
	}
	// The paper chase runs on: never ended, and working the one order the mirror holds (read in
	// the look that finds its reported order there, not between a reprice's cancel and place).
	dr.until("the paper chase working on after the live one stopped", func() bool {
		r, _ := algoRow(c.m, paper.ID)
		if r.State != journal.AlgoRunning {
			t.Fatalf("the paper chase after the live one stopped: %+v", r)
		}
		kids := algoChildren(c.openOrders(t))
		return len(kids) == 1 && kids[0].Cloid == r.Working
	})
}

// TestSendLiveAlgoWithoutAKeySaysWhatToSet: L on a paper chase in a shadow console with no live
// session starts nothing live and says how to give it one.
func TestSendLiveAlgoWithoutAKeySaysWhatToSet(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c, up, _ := shadowWithLive(t, false)
	dr := newAlgoDriver(t, c.m)
	dr.command("chase buy 0.01 btc for 10m")
	dr.until("the paper chase running", func() bool { r, ok := dr.row("chase"); return ok && r.State == journal.AlgoRunning })
	c.m.showPane(c.m.algoPane)
	dr.key("L")
	if c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "--keystore") {
		t.Fatalf("L without a live key: dialog %v, notice %q", c.m.confirmation() != nil, c.m.shownNotice())
	}
	if n := len(childrenOf(t, up, "")); n != 0 {
		t.Fatalf("the live account got %d algorithm children", n)
	}
}

// TestAShadowScaleIsSentLiveAfterATypedYes: L on a rehearsed paper scale opens the live
// confirmation; after the typed yes a new scale with the paper one's band and rungs rests on the
// upstream account under a new id, journaled in the live journal only; the paper rungs stay on
// the mirror.
func TestAShadowScaleIsSentLiveAfterATypedYes(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c, up, live := shadowWithLive(t, true)
	dr := newAlgoDriver(t, c.m)
	mid, ok := c.m.store.Mid("BTC-PERP")
	if !ok {
		t.Fatal("no BTC mid on the mirror")
	}
	lo, hi := mid.Mul(d("0.95")).Round(0), mid.Mul(d("0.97")).Round(0)
	dr.command("scale buy 0.03 btc " + lo.String() + "-" + hi.String() + " x3")
	var paper algos.Row
	dr.until("the paper scale resting", func() bool { r, ok := dr.row("scale"); paper = r; return ok && len(algoChildren(c.openOrders(t))) == 3 })
	c.m.showPane(c.m.algoPane)
	dr.key("L")
	dr.until("the live confirmation", func() bool { return c.m.confirmation() != nil })
	if title := c.m.confirmation().Action().Title; !strings.Contains(title, "Start scale") || strings.Contains(title, "SHADOW") {
		t.Fatalf("L on a paper scale: title %q", title)
	}
	dr.key("y", "e", "s", "enter")
	var lv algos.Row
	dr.until("the live scale resting on the upstream", func() bool {
		for _, r := range c.m.algoPane.Rows() {
			if r.Session == "LIVE" && r.Kind == "scale" {
				lv = r
			}
		}
		return lv.ID != "" && len(childrenOf(t, up, lv.ID)) == 3
	})
	if lv.ID == paper.ID || !lv.Target.Equal(paper.Target) || !inJournal(t, live, lv.ID) || inJournal(t, c.m.exec, lv.ID) {
		t.Fatalf("live scale %+v (paper %+v): in the live journal %v, in the shadow's %v", lv, paper, inJournal(t, live, lv.ID), inJournal(t, c.m.exec, lv.ID))
	}
	if n := len(algoChildren(c.openOrders(t))); n != 3 {
		t.Fatalf("the paper scale's rungs after the live one: %d, want 3", n)
	}
}
