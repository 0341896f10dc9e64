package headless

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestMovesAndControlsGoThroughTheJournal: transfer, leverage, broker and agent revoke are
// journaled by the executor (exec.Executor.Do) before they are signed, with their own kinds, and
// `journal` lists them with their outcomes; their output and exit statuses are as before.
func TestMovesAndControlsGoThroughTheJournal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if out := h.ok("transfer", "--collateral", "USDC", "--amount", "10", "--to-derivatives", "--yes"); !strings.Contains(out, "done (tx 0x") {
		t.Fatalf("transfer: %q", out)
	}
	if out := h.ok("leverage", "--instrument", "BTC-PERP", "--leverage", "20"); !strings.Contains(out, "-> 20x") || !strings.Contains(out, "(tx 0x") {
		t.Fatalf("leverage: %q", out)
	}
	broker := "0x9908658A316D743159F001026F1ef08aa8F0b55B"
	h.ok("broker", "approve", "--broker", broker, "--max-fee-rate", "0.1%", "--yes")
	// An agent the account never registered: the exchange refuses the revocation (exit 3).
	code, _, errs := h.run("agent", "revoke", "--agent", broker)
	if code != ExitRejected || !strings.Contains(errs, "not revoked") {
		t.Fatalf("revoke of an unknown agent: %d %q", code, errs)
	}
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	want := []struct{ kind, action, outcome, in string }{
		{"agent", "revokeAgent", "rejected", "revoke agent " + broker},
		{"broker", "approveBrokerFee", "done", "approve broker " + broker},
		{"leverage", "updatePerpInstrumentLeverage", "done", "leverage on BTC-PERP"},
		{"transfer", "internalBalanceTransferRequest", "done", "spot to derivative 10 USDC"},
	}
	if len(es) != len(want) {
		t.Fatalf("journal: %+v", es)
	}
	for i, w := range want {
		e := es[i]
		if e.Kind != w.kind || e.Action != w.action || e.Outcome != w.outcome || !e.Settled || e.Who != "headless" || e.Nonce == 0 ||
			e.State != "sent" || !strings.Contains(e.What, w.in) || !strings.Contains(string(e.Request), `"nonce":`) {
			t.Errorf("journal entry %d: %+v (want %+v)", i, e, w)
		}
	}
	if !strings.Contains(es[3].Detail, "tx 0x") || !strings.Contains(string(es[3].Request), `"amount": "10"`) {
		t.Errorf("the transfer's entry: %+v", es[3])
	}
	table := h.ok("journal")
	if !strings.Contains(table, "transfer") || !strings.Contains(table, "leverage") || !strings.Contains(table, "done") {
		t.Fatalf("journal table:\n%s", table)
	}
	h.checkNoKey()
}

// TestALostTransferIsNotSentTwice: a transfer whose answer is lost after the exchange acted is
// found in the transfer history (exit 0); one lost before it reached the exchange is not found and
// stays unknown (exit 4, said how to check), is not sent again, and does not stop an order.
func TestALostTransferIsNotSentTwice(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := newHarness(t)
	moved := func() int {
		recs, err := h.client().TransferHistory(t.Context(), testAddress(t), 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			if r.Type == "internal_balance_transfer" {
				n++
			}
		}
		return n
	}
	h.drop.afterActing.Store(true)
	out := h.ok("transfer", "--collateral", "USDC", "--amount", "10", "--to-derivatives", "--yes")
	if !strings.Contains(out, "done (tx 0x") || moved() != 1 {
		t.Fatalf("a lost answer: %q, %d moves", out, moved())
	}
	h.drop.beforeActing.Store(true)
	code, _, errs := h.run("transfer", "--collateral", "USDC", "--amount", "11", "--to-derivatives", "--yes")
	if code != ExitUnknown || !strings.Contains(errs, "outcome unknown") || !strings.Contains(errs, "tradedesk account") || moved() != 1 {
		t.Fatalf("a lost request: %d %q, %d moves", code, errs, moved())
	}
	// The next run looks it up again (said on stderr), and still sends an order.
	code, _, errs = h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid())
	if code != ExitOK || !strings.Contains(errs, "journal: transfer ") || !strings.Contains(errs, "unknown") || moved() != 1 {
		t.Fatalf("an order after an unknown transfer: %d %q", code, errs)
	}
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[1].Kind != "transfer" || es[1].Outcome != "unknown" || es[1].Settled || es[2].Outcome != "done" {
		t.Fatalf("journal: %+v", es)
	}
}

// TestALostAgentRegistrationIsFound: agent add whose answer is lost after the exchange registered
// the agent finds it among the account's agents: exit 0, the key file kept; one lost before it
// reached the exchange exits 4 and keeps the key file too (it may yet be registered).
func TestALostAgentRegistrationIsFound(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := newHarness(t)
	h.env[api.EnvPassphrase] = "agent pass"
	file := filepath.Join(t.TempDir(), "desk.json")
	h.drop.afterActing.Store(true)
	out := h.ok("agent", "add", "--name", "desk-bot", "--out", file)
	if !strings.Contains(out, "registered for "+testAddress(t)) {
		t.Fatalf("agent add said %q", out)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the key file: %v", err)
	}
	lost := filepath.Join(t.TempDir(), "lost.json")
	h.drop.beforeActing.Store(true)
	code, _, errs := h.run("agent", "add", "--name", "lost-bot", "--out", lost)
	if code != ExitUnknown || !strings.Contains(errs, "outcome unknown") || !strings.Contains(errs, "tradedesk agent list") {
		t.Fatalf("a lost registration: %d %q", code, errs)
	}
	if _, err := os.Stat(lost); err != nil {
		t.Fatalf("the key file of an agent that may be registered: %v", err)
	}
	h.checkNoKey()
}
