package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEveryHeadlessSigningCommandIsJournaled enumerates every command that takes a key to sign
// (every registered command that takes a key and no watch-only account) and runs each against
// the simulator: each leaves at least one intent in the journal, asked by headless, and the
// exchange receives exactly as many signed requests as the journal holds, so none signs around
// the executor. A new signing command without a case here fails the test.
func TestEveryHeadlessSigningCommandIsJournaled(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := newHarness(t)
	px := h.restingBid()
	broker := "0x9908658A316D743159F001026F1ef08aa8F0b55B"
	agentFile := filepath.Join(t.TempDir(), "agent.json")
	h.env["TRADEDESK_PASSPHRASE"] = "agent passphrase for the test"
	var agent string
	cases := map[string]func() []string{
		"order": func() []string {
			return []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--cloid", "sp-order"}
		},
		"modify": func() []string {
			oid := h.placeResting(px, "sp-modify")
			return []string{"modify", "--oid", fmt.Sprint(oid), "--size", "0.02"}
		},
		"batch": func() []string {
			line := "--instrument BTC-PERP --side buy --size 0.01 --price " + px
			return []string{"batch", "--file", h.batchFile(line, line)}
		},
		"cancel": func() []string {
			return []string{"cancel", "--instrument", "BTC-PERP", "--cloid", "sp-order"}
		},
		"cancel-all": func() []string { return []string{"cancel-all", "--yes"} },
		"transfer": func() []string {
			return []string{"transfer", "--collateral", "USDC", "--amount", "10", "--to-derivatives", "--yes"}
		},
		"withdraw": func() []string {
			return []string{"withdraw", "--collateral", "USDC", "--amount", "5", "--chain", "42161", "--from", "derivative", "--yes"}
		},
		"leverage": func() []string { return []string{"leverage", "--instrument", "BTC-PERP", "--leverage", "15"} },
		"broker approve": func() []string {
			return []string{"broker", "approve", "--broker", broker, "--max-fee-rate", "0.1%", "--yes"}
		},
		"broker revoke": func() []string { return []string{"broker", "revoke", "--broker", broker, "--yes"} },
		"agent add":     func() []string { return []string{"agent", "add", "--name", "sp-bot", "--out", agentFile} },
		"agent revoke":  func() []string { return []string{"agent", "revoke", "--agent", agent} },
		// Two rungs: algos --cancel cancels them one by one, at the algorithms' pace (five a second).
		"scale": func() []string {
			return []string{"scale", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--from", "90000", "--to", "91000", "--count", "2", "--yes"}
		},
		"algos": func() []string {
			var list []algoJSON
			_ = json.Unmarshal([]byte(h.ok("algos", "--json")), &list)
			return []string{"algos", "--cancel", list[0].ID}
		},
		"twap": func() []string {
			return []string{"twap", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--duration", "200ms", "--slices", "2"}
		},
		// It protects a long bought here first; stopped once its stop rests, the stop stays.
		"trail": func() []string {
			h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
			return []string{"trail", "--instrument", "BTC-PERP", "--distance", "500"}
		},
		// Nothing fills it here: it works its order until Ctrl+C once it rests, and stops short
		// (exit 6). (With --for 1s, under -race on a loaded machine it expired before its first
		// order and signed nothing.)
		"chase": func() []string {
			return []string{"chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5t", "--for", "1m"}
		},
		"close": func() []string {
			h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
			return []string{"close", "--instrument", "BTC-PERP", "--percent", "50"}
		},
		"reverse": func() []string { return []string{"reverse", "--instrument", "BTC-PERP"} },
		"flatten": func() []string { return []string{"flatten", "--yes"} },
		// It signs only when its dead-man's switch fires: no heartbeat for 1s, then stopped.
		"guard": func() []string { return []string{"guard", "--allow-account-key", "--dead-man", "1s"} },
		"breakeven": func() []string {
			h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
			h.liftMark("BTC-PERP", h.position("BTC-PERP").EntryPrice.Mul(dec("1.02")).Round(0))
			return []string{"breakeven", "--instrument", "BTC-PERP"}
		},
	}
	order := []string{"order", "modify", "batch", "cancel", "cancel-all", "transfer", "withdraw", "leverage",
		"broker approve", "broker revoke", "agent add", "agent revoke", "scale", "algos", "chase", "twap",
		"close", "reverse", "flatten", "breakeven", "trail", "guard"}
	for _, c := range commands {
		if c.groups&gKey != 0 && c.groups&gWatch == 0 { // a key, and no watch-only account: it signs
			if _, ok := cases[c.name]; !ok {
				t.Errorf("the command %q can sign and has no case here: add one", c.name)
			}
		}
	}
	for _, name := range order {
		if name == "agent revoke" {
			agent = agentAddress(t, agentFile)
		}
		args := cases[name]()
		before, sent := len(h.journalJSON()), h.drop.exchanges.Load()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if name == "trail" || name == "chase" { // Ctrl+C once its order rests beside those the commands before left
			go h.stopOnceResting(ctx, cancel, len(h.openOrders()))
		}
		if name == "guard" { // SIGTERM once the switch fired: its cancel-all settled in the journal
			ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
			go h.cancelOnceSettled(ctx, cancel, before)
		}
		code, _, errs := h.runCtx(ctx, args...)
		cancel()
		if code != 0 && !(name == "chase" && code == ExitPartial) {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
		es, signed := h.journalJSON(), h.drop.exchanges.Load()-sent
		added := es[:len(es)-before] // newest first
		if len(added) == 0 {
			t.Errorf("%s: signed %d requests and left nothing in the journal", name, signed)
			continue
		}
		if int64(len(added)) != signed {
			t.Errorf("%s: %d signed requests at the exchange, %d journal intents", name, signed, len(added))
		}
		who := "headless"
		if name == "scale" || name == "algos" || name == "chase" || name == "twap" || name == "trail" {
			who = "algorithm" // an algorithm's children: no keystroke asked for each
		}
		for _, e := range added {
			if e.Who != who || e.State != "sent" || !e.Settled {
				t.Errorf("%s: journal entry %+v", name, e)
			}
		}
	}
	h.checkNoKey()
}

// cancelOnceSettled calls cancel once the journal holds more than n intents, the newest settled,
// or when ctx ends first.
func (h *harness) cancelOnceSettled(ctx context.Context, cancel func(), n int) {
	defer cancel()
	for ctx.Err() == nil {
		var es []journalJSON
		if _, out, _ := h.runCtx(ctx, "journal", "--limit", "1000", "--json"); json.Unmarshal([]byte(out), &es) == nil && len(es) > n && es[0].Settled {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// journalJSON is `tradedesk journal --json`, newest first.
func (h *harness) journalJSON() []journalJSON {
	h.t.Helper()
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--limit", "1000", "--json")), &es); err != nil {
		h.t.Fatal(err)
	}
	return es
}

// agentAddress is the address of the agent keystore `agent add` wrote.
func agentAddress(t *testing.T, file string) string {
	t.Helper()
	var ks struct {
		Address string `json:"address"`
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ks); err != nil || ks.Address == "" {
		t.Fatalf("agent keystore %s: %v", file, err)
	}
	if !strings.HasPrefix(ks.Address, "0x") {
		ks.Address = "0x" + ks.Address
	}
	return ks.Address
}
