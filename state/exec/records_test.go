package exec

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// saidRecords is what a stream said of an order: the record it gives for any order the settle
// asks about, its oid and client id filled in unless they are set.
type saidRecords struct {
	rec   api.OrderRecord
	fills []api.Fill
	asked int
}

func (s *saidRecords) Settled(_ context.Context, cloid string, oid api.OrderID) (api.OrderRecord, []api.Fill, bool) {
	s.asked++
	rec := s.rec
	if rec.OrderID == 0 {
		rec.OrderID = oid
	}
	if rec.Cloid == "" {
		rec.Cloid = cloid
	}
	return rec, s.fills, true
}

// TestAPlacementSettlesFromItsCallersRecordsOnlyWhenTheyAgree: an answered placement whose caller
// gives its stream's records (Ask.Records) is settled from them when their record is the order's
// and its fills add up to what it says filled (here the stream says the resting bid was cancelled
// whole: the result says so, the exchange not read); records of another order, or whose fills do
// not add up to the record, are not taken: the exchange's records settle it (the bid rests).
func TestAPlacementSettlesFromItsCallersRecordsOnlyWhenTheyAgree(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	size := decimal.RequireFromString("0.001")
	for _, c := range []struct {
		cloid string
		recs  *saidRecords
		taken bool
	}{
		{"said-1", &saidRecords{rec: api.OrderRecord{Size: size, Unfilled: size, State: api.StateCancelled}}, true},
		{"said-2", &saidRecords{rec: api.OrderRecord{Cloid: "someone-else", Size: size, Unfilled: size, State: api.StateCancelled}}, false},
		{"said-3", &saidRecords{rec: api.OrderRecord{OrderID: 1, Size: size, Unfilled: size, State: api.StateCancelled}}, false},
		{"said-4", &saidRecords{rec: api.OrderRecord{Size: size, State: api.StateFilled}}, false}, // filled, no fills
	} {
		res, err := e.Place(bg, r.bid(e, c.cloid, api.TifGTC), Ask{Who: journal.WhoAlgorithm, What: "buy", Records: c.recs})
		if err != nil || c.recs.asked != 1 {
			t.Fatalf("%s: %+v %v (records asked %d times)", c.cloid, res, err, c.recs.asked)
		}
		if c.taken && (res.Kind != Unfilled || res.Outcome.Kind != state.OutcomeUnfilled || res.Outcome.Resting) {
			t.Errorf("%s: the records were not taken: %+v", c.cloid, res)
		}
		if !c.taken && (res.Kind != Placed || !res.Outcome.Resting || res.Outcome.Filled.IsPositive()) {
			t.Errorf("%s: records that do not agree were taken: %+v", c.cloid, res)
		}
	}
}
