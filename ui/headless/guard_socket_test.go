package headless

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/state/profile"
)

// deadManIntents counts the journal's dead-man cancel-alls whose text has why.
func (h *harness) deadManIntents(why string) int {
	h.t.Helper()
	var intents []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json", "--limit", "50")), &intents); err != nil {
		h.t.Fatal(err)
	}
	n := 0
	for _, in := range intents {
		if in.Kind == "cancel-all" && strings.Contains(in.What, "dead-man") && strings.Contains(in.What, why) {
			n++
		}
	}
	return n
}

// TestGuardTakesAlgorithmsOverTheSocket: chase --guard hands the chase to the running guard and
// returns at once with its id; the chase runs in the guard (its order rests, status --json lists
// it running); a console for another account is refused on attach, one for the account is listed
// among the attached consoles until it detaches; stop-algo stops the chase in the guard (its
// order cancelled); scale --guard --yes and twap --guard are handed over too (the rungs placed,
// the TWAP running in the guard); without a guard --guard says none runs.
func TestGuardTakesAlgorithmsOverTheSocket(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	if code, _, errs := h.run("chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--guard"); code != ExitUnavailable || !strings.Contains(errs, "no guard is running") {
		t.Fatalf("--guard with no guard: exit %d %q", code, errs)
	}
	g := h.startGuard("--allow-account-key")
	out := h.ok("chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--guard", "--json")
	var got struct{ ID, Kind string }
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.ID == "" || got.Kind != "chase" {
		t.Fatalf("chase --guard: %q %v", out, err)
	}
	eventually(t, "the guard's chase rests its order", func() bool {
		o := h.openOrders()
		return len(o) == 1 && strings.HasPrefix(o[0].Cloid, got.ID+"-")
	})
	st := h.guardStatus()
	if len(st.Algorithms) != 1 || st.Algorithms[0].ID != got.ID || st.Algorithms[0].State != "running" || st.Algorithms[0].Kind != "chase" {
		t.Fatalf("status: %+v", st.Algorithms)
	}
	sock := guard.SocketPath(guard.SocketDir(h.env["XDG_RUNTIME_DIR"], ""), testAddress(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	other := "0x" + strings.Repeat("ab", 20)
	if _, _, err := guard.Attach(ctx, sock, other, "console"); err == nil || !strings.Contains(err.Error(), "runs for account") {
		t.Fatalf("a console for another account attached: %v", err)
	}
	c, st, err := guard.Attach(ctx, sock, testAddress(t), "console")
	if err != nil || len(st.Consoles) != 1 || st.Consoles[0].Who != "console" || st.Consoles[0].PID == 0 {
		t.Fatalf("attach: %+v %v", st.Consoles, err)
	}
	if st := h.guardStatus(); len(st.Consoles) != 1 {
		t.Fatalf("status --json lists %d consoles, want 1", len(st.Consoles))
	}
	if err := c.StopAlgo(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "no algorithm nope") {
		t.Fatalf("stop-algo of an unknown id: %v", err)
	}
	if err := c.StopAlgo(ctx, got.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the stopped chase's order is cancelled", func() bool { return len(h.openOrders()) == 0 })
	eventually(t, "status says the chase stopped", func() bool {
		st := h.guardStatus()
		return len(st.Algorithms) == 1 && st.Algorithms[0].State == "stopped"
	})
	_ = c.Close()
	eventually(t, "the detached console leaves status", func() bool { return len(h.guardStatus().Consoles) == 0 })
	bid, _ := decimal.NewFromString(h.restingBid())
	lo, hi := bid.Mul(decimal.RequireFromString("0.95")).Round(0), bid.Mul(decimal.RequireFromString("0.97")).Round(0)
	if out := h.ok("scale", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.04", "--from", lo.String(), "--to", hi.String(),
		"--count", "4", "--yes", "--guard"); !strings.Contains(out, "scale ") || !strings.Contains(out, "handed to the guard") {
		t.Fatalf("scale --guard: %q", out)
	}
	if out := h.ok("twap", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--duration", "1h", "--slices", "2", "--guard"); !strings.Contains(out, "handed to the guard") {
		t.Fatalf("twap --guard: %q", out)
	}
	eventually(t, "status lists the scale's rungs placed and the twap running", func() bool {
		kinds := map[string]string{}
		for _, a := range h.guardStatus().Algorithms {
			kinds[a.Kind] = a.State
		}
		return kinds["scale"] == "done" && kinds["twap"] == "running" && len(h.openOrders()) == 4
	})
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("exit %d: %q", code, g.errb.String())
	}
}

// TestGuardDeadManOnExchangeLost: armed at 10s with heartbeats coming, the guard losing the
// exchange for longer than the span and then reaching it again fires the switch once (every
// open order cancelled, journaled as the exchange lost); lost for less than the span it does not.
func TestGuardDeadManOnExchangeLost(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	h.guardEvery = 100 * time.Millisecond // its checks of the exchange and reloads of the alerts
	bid := h.restingBid()
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", bid)
	g := h.startGuard("--allow-account-key", "--dead-man", "10s")
	lose := func(d time.Duration) {
		h.drop.down.Store(true)
		eventually(t, "the guard sees the exchange lost", func() bool { return !h.guardStatus().Exchange.OK })
		for step := 4 * time.Second; d > 0; d -= step { // the heartbeats keep coming: only the lost exchange may fire it
			g.offset.Add(int64(min(step, d)))
			h.guardOK("heartbeat")
		}
		h.drop.down.Store(false)
		eventually(t, "the guard reaches the exchange again", func() bool { return h.guardStatus().Exchange.OK })
	}
	lose(5 * time.Second)
	time.Sleep(500 * time.Millisecond) // five of its checks of the exchange, two of the switch
	if st := h.guardStatus(); len(h.openOrders()) != 1 || st.DeadMan.Fired != nil {
		t.Fatalf("lost 5s of 10s: fired %v, open %+v", st.DeadMan.Fired, h.openOrders())
	}
	lose(11 * time.Second)
	eventually(t, "the switch cancels every order", func() bool { return len(h.openOrders()) == 0 })
	if n := h.deadManIntents("exchange was lost"); n != 1 {
		t.Fatalf("%d dead-man cancel-alls for the lost exchange, want 1", n)
	}
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", bid)
	lose(time.Minute)
	time.Sleep(500 * time.Millisecond)
	if len(h.openOrders()) != 1 || h.deadManIntents("dead-man") != 1 {
		t.Fatalf("it fired again in one arming: open %+v", h.openOrders())
	}
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("exit %d: %q", code, g.errb.String())
	}
}

// TestGuardPicksUpAlertsAddedLater: a guard started with no alert watches nothing; an alert added
// while it runs (alert add, or an attached console's :alert: the journal is shared) is evaluated
// by the guard within its reload (status marks it watched, and it fires: margin is in use).
func TestGuardPicksUpAlertsAddedLater(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	h.guardEvery = 100 * time.Millisecond // its checks of the exchange and reloads of the alerts
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	g := h.startGuard("--allow-account-key")
	if st := h.guardStatus(); len(st.Alerts) != 0 {
		t.Fatalf("alerts at start: %+v", st.Alerts)
	}
	h.ok("alert", "add", "margin > 0.01%")
	eventually(t, "the guard evaluates the new alert and it fires", func() bool {
		st := h.guardStatus()
		return len(st.Alerts) == 1 && st.Alerts[0].Watched && st.Alerts[0].LastFired != nil
	})
	h.guardOK("stop")
	if code := g.wait(); code != 0 || !strings.Contains(g.out.String(), "margin") {
		t.Fatalf("exit %d, stdout %q", code, g.out.String())
	}
}

// TestGuardDeadManFromConfig: the config's [dead_man] table arms the guard's switch at start
// (after, flatten); --dead-man overrides it; the console's arm request re-arms and disarms it.
func TestGuardDeadManFromConfig(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	h.defaults.DeadMan = &profile.DeadMan{After: "20s", Flatten: true}
	g := h.startGuard("--allow-account-key")
	if d := h.guardStatus().DeadMan; !d.Armed || d.After != 20 || !d.Flatten {
		t.Fatalf("armed from the config: %+v", d)
	}
	sock := guard.SocketPath(guard.SocketDir(h.env["XDG_RUNTIME_DIR"], ""), testAddress(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := guard.Send(ctx, sock, guard.Request{Cmd: guard.CmdArm, After: 0.5}); err == nil || !strings.Contains(err.Error(), "at least 1s") {
		t.Fatalf("arm 0.5s: %v", err)
	}
	if resp, err := guard.Send(ctx, sock, guard.Request{Cmd: guard.CmdArm}); err != nil || resp.Status.DeadMan.Armed {
		t.Fatalf("disarm: %+v %v", resp.Status, err)
	}
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	g = h.startGuard("--allow-account-key", "--dead-man", "40s")
	if d := h.guardStatus().DeadMan; !d.Armed || d.After != 40 || d.Flatten {
		t.Fatalf("--dead-man over the config: %+v", d)
	}
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
