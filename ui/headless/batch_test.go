package headless

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func (h *harness) batchFile(lines ...string) string {
	h.t.Helper()
	p := filepath.Join(h.t.TempDir(), "orders.txt")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// TestBatch: the lines (order's flags) are checked and signed as one placeOrder, journaled as one
// intent naming each order's client id.
func TestBatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	f := h.batchFile("# two bids", "--instrument BTC-PERP --side buy --size 0.01 --price "+px+" --cloid 1a8fad5b-d9cb-469f-a165-70867728950e",
		"", "--instrument BTC-PERP --side buy --size 0.02 --price "+tickBelow(px, 3)+" --post-only")
	var res batchJSON
	code, out, errs := h.run("batch", "--file", f, "--json")
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || !res.Sent || len(res.Orders) != 2 || res.Orders[0].Line != 2 ||
		res.Orders[1].Line != 4 || res.Orders[0].Status != "placed" || res.Orders[1].Oid == 0 {
		t.Fatalf("batch: exit %d %+v %v %q", code, res, err, errs)
	}
	if n := len(h.openOrders()); n != 2 {
		t.Fatalf("%d open orders", n)
	}
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil || len(es) != 1 || es[0].Kind != "batch" ||
		len(es[0].Cloids) != 2 || es[0].Cloids[0] != "1a8fad5b-d9cb-469f-a165-70867728950e" || !es[0].Settled {
		t.Fatalf("journal: %+v %v", es, err)
	}
}

// TestBatchBadInput: a line to fix, or more than 100 orders, sends nothing and says what to fix.
func TestBatchBadInput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	good := "--instrument BTC-PERP --side buy --size 0.01 --price " + px
	many := make([]string, 101)
	for i := range many {
		many[i] = good
	}
	for _, c := range []struct {
		lines []string
		code  int
		want  string
	}{
		{[]string{good, "--instrument BTC-PERP --side up --size 0.01 --price " + px}, ExitUsage, "line 2: --side"},
		{[]string{good, good + " --tp 2%"}, ExitUsage, "line 2: --tp is not for a batch line"},
		{[]string{good, "buy BTC 0.1"}, ExitUsage, "line 2: \"buy\" is not a flag"},
		{[]string{good + " --size 999999"}, ExitRefused, "line 1: order refused"},
		{[]string{"# nothing"}, ExitUsage, "no orders"},
		{many, ExitUsage, "101 orders; one placeOrder takes at most 100"},
	} {
		code, _, errs := h.run("batch", "--file", h.batchFile(c.lines...))
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.lines[len(c.lines)-1], code, errs, c.code, c.want)
		}
	}
	if n := len(h.openOrders()); n != 0 {
		t.Fatalf("a refused batch sent %d orders", n)
	}
}

// TestBatchLostAnswer: each order of a batch whose answer was lost is found by its client id, once.
func TestBatchLostAnswer(t *testing.T) {
	t.Parallel() // waits on the wall clock while the others run
	h := newHarness(t)
	h.expiry = time.Second
	px := h.restingBid()
	f := h.batchFile("--instrument BTC-PERP --side buy --size 0.01 --price "+px, "--instrument BTC-PERP --side buy --size 0.01 --price "+tickBelow(px, 2))
	h.drop.afterActing.Store(true)
	code, out, errs := h.run("batch", "--file", f)
	if code != 0 || strings.Count(out, "placed") != 2 {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	if n := len(h.openOrders()); n != 2 {
		t.Fatalf("%d open orders, want 2", n)
	}
}
