package sim

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

func openCount(t *testing.T, c *api.Client) int {
	t.Helper()
	p, err := c.OpenOrders(ctx(), "", api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	return p.TotalCount
}

// cancelStatuses reads a cancel answer's statuses, failing the test when it cannot.
func cancelStatuses(t *testing.T, r api.TxResponse) []api.CancelStatus {
	t.Helper()
	sts, err := r.CancelStatuses()
	if err != nil {
		t.Fatalf("cancel statuses of %s: %v", r.Data, err)
	}
	return sts
}

// cancelCount reads how many orders a cancel answer says it cancelled, failing the test when it
// cannot.
func cancelCount(t *testing.T, r api.TxResponse) int {
	t.Helper()
	n, err := r.CancelCount()
	if err != nil {
		t.Fatalf("cancel count of %s: %v", r.Data, err)
	}
	return n
}

func TestCancelByOid(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	r := place(t, alice, limit(1, api.SideBuy, "97000", "0.1"), limit(2, api.SideBuy, "3400", "1"))
	ids, err := r.OrderIDs()
	if err != nil || len(ids) != 2 {
		t.Fatalf("order ids %v: %v", ids, err)
	}
	res, err := alice.CancelByOid(ctx(), []api.CancelOid{{Oid: ids[0], InstrumentID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Success == nil || !*res.Success {
		t.Errorf("success %v", res.Success)
	}
	if sts := cancelStatuses(t, res); len(sts) != 1 || !sts[0].OK {
		t.Errorf("statuses %+v (%s)", sts, res.Data)
	}
	if o := findOrder(t, alice, ids[0]); o.State != api.StateCancelled {
		t.Errorf("state %s", o.State)
	}
	// Wrong instrument, someone else's order, an order no longer open.
	if _, err := alice.CancelByOid(ctx(), []api.CancelOid{{Oid: ids[1], InstrumentID: 1}}); err == nil || !strings.Contains(err.Error(), "is on ETH-PERP (instrument 2), not instrument 1") {
		t.Errorf("wrong instrument: %v", err)
	}
	if _, err := bob.CancelByOid(ctx(), []api.CancelOid{{Oid: ids[1], InstrumentID: 2}}); err == nil || !strings.Contains(err.Error(), "is not an open order of this account") {
		t.Errorf("other's order: %v", err)
	}
	// A batch where one cancel works: success false, one status each.
	res, err = alice.CancelByOid(ctx(), []api.CancelOid{{Oid: ids[0], InstrumentID: 1}, {Oid: ids[1], InstrumentID: 2}})
	if err == nil {
		t.Error("partial batch: want an error (success false)")
	}
	if sts := cancelStatuses(t, res); len(sts) != 2 || sts[0].OK || !sts[1].OK {
		t.Errorf("partial statuses %+v", sts)
	}
	if n := openCount(t, alice); n != 0 {
		t.Errorf("%d open", n)
	}
}

func TestCancelByCloid(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	w := limit(1, api.SideBuy, "97000", "0.1")
	w.Cloid = "0b9a7c3e-6a43-4a5c-9d1e-2f4b5c6d7e8f"
	place(t, alice, w)
	res, err := alice.CancelByCloid(ctx(), []api.CancelCloid{{Cloid: w.Cloid, InstrumentID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if n := cancelCount(t, res); n != 1 {
		t.Errorf("count %d", n)
	}
	if _, err := alice.CancelByCloid(ctx(), []api.CancelCloid{{Cloid: w.Cloid, InstrumentID: 1}}); err == nil {
		t.Error("second cancel of the same cloid should fail")
	}
}

func TestCancelByInstrumentAndAll(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideBuy, "97000", "0.1"), limit(1, api.SideBuy, "96000", "0.1"), limit(2, api.SideBuy, "3400", "1"),
		limit(3, api.SideSell, "190", "1"))
	place(t, bob, limit(1, api.SideBuy, "95000", "0.1"))
	res, err := alice.CancelByInstrument(ctx(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := cancelCount(t, res); n != 2 {
		t.Errorf("by instrument cancelled %d, want 2 (%s)", n, res.Data)
	}
	if _, err := alice.CancelByInstrument(ctx(), 77); err == nil || !strings.Contains(err.Error(), "unknown instrument id 77") {
		t.Errorf("unknown instrument: %v", err)
	}
	res, err = alice.CancelAll(ctx())
	if err != nil {
		t.Fatal(err)
	}
	if n := cancelCount(t, res); n != 2 {
		t.Errorf("cancel all cancelled %d, want 2", n)
	}
	if openCount(t, alice) != 0 || openCount(t, bob) != 1 {
		t.Error("cancel all touched the wrong orders")
	}
	res, err = alice.CancelAll(ctx())
	if err != nil {
		t.Fatal(err)
	}
	if n := cancelCount(t, res); n != 0 {
		t.Errorf("empty cancel all: %d", n)
	}
}
