package sim

import (
	"sort"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// checkBooks fails the test unless the simulator's books balance: for every collateral, the sum
// over every account (users, market makers, takers, liquidator, fee account, insurance fund) of
// its balances and isolated margin, less the cost of open positions, equals the money that came
// in (demo balances, Deposit) less the money that went out (withdrawals, forgotten accounts), to
// the last unit; every contract has a buyer and a seller; no balance carries more decimals than
// its collateral. Call it at the end of every scenario that moves money.
func checkBooks(t testing.TB, s *Sim) Books {
	t.Helper()
	b := s.Books()
	syms := make([]string, 0, len(b.Held))
	for sym := range b.Held {
		syms = append(syms, sym)
	}
	sort.Strings(syms)
	for _, sym := range syms {
		want := b.In[sym].Sub(b.Out[sym])
		if !b.Held[sym].Equal(want) {
			t.Errorf("books: %s held %s, but in %s − out %s = %s (off by %s)", sym, b.Held[sym], b.In[sym], b.Out[sym],
				want, b.Held[sym].Sub(want))
		}
	}
	for name, lots := range b.OpenLots {
		if lots != 0 {
			t.Errorf("books: positions on %s sum to %d lots, want 0 (a contract without a counterparty)", name, lots)
		}
	}
	for _, l := range b.Loose {
		t.Errorf("books: balance with more decimals than its collateral: %s", l)
	}
	return b
}

// checkFlows fails the test unless the books' money in and out equal what the test itself put in
// and took out (so a ledger that forgets a withdrawal, or counts one twice, is caught too).
func checkFlows(t testing.TB, b Books, in, out map[string]decimal.Decimal) {
	t.Helper()
	for sym, v := range in {
		if !b.In[sym].Equal(v) {
			t.Errorf("books: %s in %s, the test put in %s", sym, b.In[sym], v)
		}
	}
	for sym, v := range out {
		if !b.Out[sym].Equal(v) {
			t.Errorf("books: %s out %s, the test took out %s", sym, b.Out[sym], v)
		}
	}
}

// summaryOf reads any address's account_summary over HTTP.
func summaryOf(t testing.TB, c *api.Client, addr string) api.AccountSummary {
	t.Helper()
	s, err := c.AccountSummary(ctx(), addr)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fillsOf reads every fill of an account over HTTP, newest first.
func fillsOf(t testing.TB, c *api.Client, addr string) []api.Fill {
	t.Helper()
	var out []api.Fill
	for pg := 1; ; pg++ {
		p, err := c.Fills(ctx(), addr, api.PageParams{Page: pg, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Data...)
		if !p.HasNext {
			return out
		}
	}
}

// ordersOf reads an account's whole order history over HTTP, newest first.
func ordersOf(t testing.TB, c *api.Client) []api.OrderRecord {
	t.Helper()
	p, err := c.OrderHistory(ctx(), "", api.PageParams{Page: 1, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return p.Data
}
