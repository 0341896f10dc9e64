package sim

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// TestStoreCheckCatchesAnUnwrittenChange: the store check (withStoreCheck), which the restart
// and load tests lean on, fails the next write when an open or a closed order, or an account,
// changed without its dirty mark; a field given an equal value in a new decimal is no change
// (the row's JSON is the same), so verify's fast path (rows equal by ==) decides nothing alone.
func TestStoreCheckCatchesAnUnwrittenChange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(a *account, open, closed *order)
		want   string // "" for no error
	}{
		{"an open order's rest", func(_ *account, o, _ *order) { o.rest-- }, "store check: order"},
		{"a closed order's reason", func(_ *account, _, c *order) { c.reason = "changed" }, "store check: order"},
		{"a closed order's limit", func(_ *account, _, c *order) { c.limit = c.limit.Add(decimal.NewFromInt(1)) }, "store check: order"},
		{"an account's pnl", func(a *account, _, _ *order) { a.pnl = a.pnl.Add(decimal.NewFromInt(1)) }, "store check: account"},
		{"an equal limit in a new decimal", func(_ *account, o, c *order) {
			o.limit, c.limit = decimal.RequireFromString(o.limit.String()), decimal.RequireFromString(c.limit.String())
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := envAt(t, testStart, WithStateFile(filepath.Join(t.TempDir(), "sim.db")), WithStartNonceFloor(), withStoreCheck())
			alice := e.client("alice")
			bid := ids(t, alice, limit(1, api.SideBuy, "60000", "0.01"), limit(1, api.SideBuy, "61000", "0.01"))
			if _, err := alice.CancelByOid(ctx(), []api.CancelOid{{Oid: bid[1], InstrumentID: 1}}); err != nil {
				t.Fatal(err)
			}
			if err := e.sim.StateError(); err != nil {
				t.Fatalf("before the change: %v", err)
			}
			e.sim.mu.Lock()
			var a *account
			for _, u := range e.sim.eng.users {
				if strings.EqualFold(u.addr, alice.Address()) {
					a = u
				}
			}
			open, closed := a.open[bid[0]], a.history[len(a.history)-1]
			if open == nil || closed.oid != bid[1] || closed.state == api.StateOpen {
				e.sim.mu.Unlock()
				t.Fatalf("want alice's open bid %d and cancelled bid %d", bid[0], bid[1])
			}
			tc.change(a, open, closed)
			e.sim.saveState()
			e.sim.mu.Unlock()
			err := e.sim.StateError()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("an equal value is no change, got %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
