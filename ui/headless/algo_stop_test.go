package headless

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestAStopWhileAChildsAnswerIsInFlightResolvesIt: Ctrl+C while the exchange has taken an
// algorithm's first child but its answer is still on the way (a slow exchange) leaves nothing
// unknown: the command waits for the answer, then a chase cancels the child and exits partial,
// stopped, and a trail leaves its stop at the exchange and exits 0 saying so. Neither exits 4
// ("a child's outcome is not known yet") with the child live and the algorithm running.
func TestAStopWhileAChildsAnswerIsInFlightResolvesIt(t *testing.T) {
	t.Parallel() // each case owns its simulator and journal
	for _, tc := range []struct {
		name, before string
		args         []string
		code, open   int
		last         string
	}{
		{"chase", "", []string{"chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5t", "--json"}, ExitPartial, 0, ""},
		{"trail", "position", []string{"trail", "--instrument", "BTC-PERP", "--distance", "500", "--json"}, ExitOK, 1, "the stop stays"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			if tc.before == "position" {
				h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
			}
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			slow := func(r *http.Request) {
				stop() // the trader's Ctrl+C: the child is at the exchange, its answer not sent yet
				select {
				case <-r.Context().Done(): // the command gave up on the answer
				case <-time.After(500 * time.Millisecond): // it waits for it
				}
			}
			h.drop.held.Store(&slow)
			code, out, errs := h.runCtx(ctx, tc.args...)
			ps := progressLines(t, out)
			last := ps[len(ps)-1]
			open := h.openOrders()
			working := "" // the chase's child cancelled; the trail's stop resting, said so
			if len(open) == 1 {
				working = open[0].Cloid
			}
			if code != tc.code || last.State != "stopped" || !strings.Contains(last.Detail, tc.last) || len(open) != tc.open || last.Working != working {
				t.Fatalf("exit %d (want %d), last %+v, open %+v, stderr %q", code, tc.code, last, open, errs)
			}
			var list []algoJSON
			if err := json.Unmarshal([]byte(h.ok("algos", "--json")), &list); err != nil || len(list) != 1 || list[0].State != "stopped" || list[0].Children != 1 {
				t.Fatalf("algos: %+v %v", list, err)
			}
		})
	}
}
