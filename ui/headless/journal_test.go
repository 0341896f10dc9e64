package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestOrdersAndCancelsGoThroughTheJournal: `order` and `cancel` are journaled by the executor
// (who asked: headless), and `journal` lists them newest first with their outcomes, in a 0600
// file that holds no key.
func TestOrdersAndCancelsGoThroughTheJournal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cloid := "6f8fad5b-d9cb-469f-a165-70867728950e"
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(), "--cloid", cloid)
	h.ok("cancel", "--instrument", "BTC-PERP", "--cloid", cloid)
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Kind != "cancel" || es[0].Outcome != "cancelled" || es[1].ID != cloid || es[1].Kind != "place" ||
		es[1].Outcome != "placed" || !es[1].Settled || es[1].Oid == 0 || es[1].Who != "headless" || es[1].Nonce == 0 ||
		es[1].ExpiresAfter <= es[1].Nonce || !strings.Contains(es[1].What, "buy 0.0100 BTC-PERP @") {
		t.Fatalf("journal: %+v", es)
	}
	table := h.ok("journal", "--limit", "1")
	if lines := strings.Split(strings.TrimSpace(table), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "cancelled") || !strings.HasPrefix(lines[0], "CREATED") {
		t.Fatalf("journal --limit 1:\n%s", table)
	}
	if code, _, errs := h.run("journal", "--limit", "0"); code != ExitUsage || !strings.Contains(errs, "--limit 0") {
		t.Fatalf("--limit 0: %d %q", code, errs)
	}
	st, err := os.Stat(h.journalFile())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("journal file: %v %v", st, err)
	}
	h.checkNoKey()
}

func (h *harness) journalFile() string {
	u, _ := url.Parse(h.srv.URL)
	return journal.Path(h.stateDir, u.Host, testAddress(h.t))
}

// TestAnOrderLeftSentIsResolvedFirst: an order an earlier run committed and sent but never heard
// back about is resolved by its client id before the next order is sent, said on stderr, and
// not sent again.
func TestAnOrderLeftSentIsResolvedFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	h.stateDir = t.TempDir()
	j, err := journal.Open(h.journalFile())
	if err != nil {
		t.Fatal(err)
	}
	left := "7f8fad5b-d9cb-469f-a165-70867728950e"
	id, err := j.Begin(context.Background(), journal.Intent{ID: left, Kind: "place", Who: journal.WhoHeadless, What: "an earlier order", Cloids: []string{left}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := api.WithBeforeSign(context.Background(), func(s api.Signing) error { return j.Sent(context.Background(), id, s) })
	in := api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: px, Size: "0.01", Tif: api.TifGTC, Cloid: left}
	if _, err := h.client().PlaceOrders(ctx, []api.OrderWire{in}); err != nil {
		t.Fatal(err)
	}
	_ = j.Close() // the earlier run ends here: no outcome recorded

	next := "8f8fad5b-d9cb-469f-a165-70867728950e"
	code, _, errs := h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--cloid", next)
	if code != 0 || !strings.Contains(errs, "journal: place "+left+" (an earlier order, headless): placed, order ") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	n := map[string]int{}
	for _, o := range h.openOrders() {
		n[o.Cloid]++
	}
	if n[left] != 1 || n[next] != 1 || len(n) != 2 {
		t.Fatalf("open orders by cloid: %v", n)
	}
}

// TestHalfTheOrderAnswersLost: 100 headless orders (under -race 30: each is a whole command run,
// and they made this the package's costliest test under the race detector) whose answers the
// exchange loses half the time (it acts, then drops the connection) each appear exactly once at
// the exchange, and each has a settled outcome in the journal.
func TestHalfTheOrderAnswersLost(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	if testing.Short() {
		t.Skip("100 orders")
	}
	h := newHarness(t)
	px := h.restingBid()
	coin := rand.New(rand.NewPCG(1, 2))
	lose := func() bool { return coin.IntN(2) == 0 }
	h.drop.lose.Store(&lose)
	n := 100
	if raceBuild {
		n = 30
	}
	for i := range n {
		// IOC under the market: nothing fills and nothing rests, so a second copy would not be
		// refused as a duplicate open cloid: only the executor keeps it to one.
		cloid := fmt.Sprintf("half-lost-%03d", i)
		code, out, errs := h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.001", "--price", px, "--tif", "IOC", "--cloid", cloid)
		if code != 0 {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", cloid, code, out, errs)
		}
	}
	h.drop.lose.Store(nil)
	var hist api.Page[api.OrderRecord]
	if err := json.Unmarshal([]byte(h.ok("history", "--limit", "1000", "--json")), &hist); err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for _, o := range hist.Data {
		at[o.Cloid]++
	}
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--limit", "1000", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	lost := 0
	for _, e := range es {
		if !e.Settled || e.Outcome != "unfilled" {
			t.Errorf("%s: %s %s", e.ID, e.Outcome, e.Detail)
		}
		if strings.Contains(e.Detail, "answer lost") {
			lost++
		}
	}
	for i := range n {
		if cloid := fmt.Sprintf("half-lost-%03d", i); at[cloid] != 1 {
			t.Errorf("%s is at the exchange %d times", cloid, at[cloid])
		}
	}
	if len(es) != n || lost < n/4 {
		t.Fatalf("%d journal entries, %d answers lost", len(es), lost)
	}
}

// TestLostAnswerLookupFromEnv: the executor looks a lost answer up with Env's Skew,
// LookupGrace and LookupWait (zero: exec's defaults), so a test on loopback settles one sooner.
func TestLostAnswerLookupFromEnv(t *testing.T) {
	r := &runner{env: Env{Skew: 100 * time.Millisecond, LookupGrace: 300 * time.Millisecond, LookupWait: 20 * time.Millisecond},
		client: &fakeExchange{}}
	if c := r.execConfig(); c.Skew != 100*time.Millisecond || c.LookupGrace != 300*time.Millisecond ||
		c.LookupWait != 20*time.Millisecond || c.Account != r.client.Address() {
		t.Errorf("Skew %s, LookupGrace %s, LookupWait %s, Account %q", c.Skew, c.LookupGrace, c.LookupWait, c.Account)
	}
	r.env = Env{}
	if c := r.execConfig(); c.Skew != 0 || c.LookupGrace != 0 || c.LookupWait != 0 {
		t.Errorf("unset: Skew %s, LookupGrace %s, LookupWait %s, want exec's defaults (0)", c.Skew, c.LookupGrace, c.LookupWait)
	}
}

// TestAlgoRepriceFromEnv: the algorithms a command runs and the guard's reprice no sooner than
// Env.AlgoReprice (zero: algo's default), so a test on loopback sees reprices sooner.
func TestAlgoRepriceFromEnv(t *testing.T) {
	t.Parallel()
	for _, every := range []time.Duration{0, 100 * time.Millisecond} {
		env := Env{StateDir: t.TempDir(), AlgoReprice: every}
		env.fill()
		r := &runner{env: env, client: &fakeExchange{}}
		d, done, err := r.algoDeps(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		done()
		e, closeExec, err := r.recoveredExecutor(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		g := newGuardProc(r, e, slog.New(slog.DiscardHandler))
		closeExec()
		if d.MinReprice != every || g.deps.MinReprice != every {
			t.Errorf("Env.AlgoReprice %s: a command's algorithms reprice after %s, the guard's after %s", every, d.MinReprice, g.deps.MinReprice)
		}
	}
}
