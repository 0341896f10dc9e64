package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestAPlaceAndACancelCommitTwiceEach counts the journal's commits (SQLite's commit hook; each is
// an fsync): a place is one commit before it is signed (its intent, arrival and signing) and one
// for its outcome, and so is a cancel. The intent is in the file before the request leaves: the
// sender reads it there.
func TestAPlaceAndACancelCommitTwiceEach(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	seen := &journalSeen{j: r.j, real: r.client}
	e := r.executor(seen)
	if _, err := e.Place(bg, r.bid(e, "warm-1", api.TifGTC), Ask{Who: journal.WhoHeadless}); err != nil {
		t.Fatal(err) // the first send recovers the journal
	}
	before := r.j.Commits()
	res, err := e.Place(bg, r.bid(e, "count-1", api.TifGTC), Ask{Who: journal.WhoHeadless, What: "buy"})
	if err != nil || res.Kind != Placed {
		t.Fatalf("place: %+v %v", res, err)
	}
	if n := r.j.Commits() - before; n != 2 {
		t.Errorf("a place committed %d times, want 2 (intent with arrival and signing, outcome)", n)
	}
	before = r.j.Commits()
	c, err := e.Cancel(bg, Cancel{InstrumentID: 1, Cloid: "count-1"}, Ask{Who: journal.WhoHeadless, What: "cancel count-1"})
	if err != nil || c.Kind != Cancelled {
		t.Fatalf("cancel: %+v %v", c, err)
	}
	if n := r.j.Commits() - before; n != 2 {
		t.Errorf("a cancel committed %d times, want 2 (intent with signing, outcome)", n)
	}
	if seen.missing != "" {
		t.Fatal(seen.missing)
	}
	arr, err := r.j.Arrivals(bg)
	if a, ok := arr["count-1"]; err != nil || !ok || a.Mid.IsZero() {
		t.Fatalf("the place's arrival: %+v %v", arr, err)
	}
}

// journalSeen is a Sender that, once the client has signed (and so committed) a request, reads
// the journal from a connection of its own before the request leaves: the intent must be there,
// sent, with its nonce.
type journalSeen struct {
	j       *journal.Journal
	real    *api.Client
	missing string
}

func (s *journalSeen) check(action, cloid string) {
	es, err := s.j.Unresolved(bg)
	for _, en := range es {
		if en.Nonce != 0 && en.Action == action && slices.Contains(en.Intent.Cloids, cloid) {
			return
		}
	}
	s.missing = "the " + action + " of " + cloid + " was not in the journal as sent before the request left: " + errText(err)
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

func (s *journalSeen) PlaceOrders(ctx context.Context, o []api.OrderWire) (api.TxResponse, error) {
	return s.real.PlaceOrders(api.WithSigned(ctx, func() { s.check(api.ActionPlaceOrder, o[0].Cloid) }), o)
}

func (s *journalSeen) CancelByOid(ctx context.Context, c []api.CancelOid) (api.TxResponse, error) {
	return s.real.CancelByOid(ctx, c)
}

func (s *journalSeen) CancelByCloid(ctx context.Context, c []api.CancelCloid) (api.TxResponse, error) {
	return s.real.CancelByCloid(api.WithSigned(ctx, func() { s.check(api.ActionCancelByCloid, c[0].Cloid) }), c)
}

func (s *journalSeen) CancelByInstrument(ctx context.Context, id api.InstrumentID) (api.TxResponse, error) {
	return s.real.CancelByInstrument(ctx, id)
}

func (s *journalSeen) CancelAll(ctx context.Context) (api.TxResponse, error) {
	return s.real.CancelAll(ctx)
}
