package journal

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

// TestAPendingIntentIsWrittenInOneCommit: Prepare writes nothing; Sent writes the intent, its
// arrival and its signing in one commit; its outcome is one more. One never signed is written
// with its outcome in one commit, new and settled. An id the journal holds is refused.
func TestAPendingIntentIsWrittenInOneCommit(t *testing.T) {
	j := open(t)
	c0 := j.Commits()
	p, err := j.Prepare(ctx, Intent{ID: "c-1", Kind: "place", Who: WhoAlgorithm, What: "buy", Cloids: []string{"c-1"}})
	if err != nil || j.Commits() != c0 || p.Written() {
		t.Fatalf("prepare: %v, %d commits", err, j.Commits()-c0)
	}
	if _, ok, _ := j.Get(ctx, "c-1"); ok {
		t.Fatal("a prepared intent is in the file")
	}
	p.Arrive("c-1", Arrival{Mid: decimal.NewFromInt(100)})
	if err := p.Sent(ctx, signing(1700000000000)); err != nil || j.Commits() != c0+1 || !p.Written() {
		t.Fatalf("sent: %v, %d commits", err, j.Commits()-c0)
	}
	en, ok, _ := j.Get(ctx, "c-1")
	arr, _ := j.Arrivals(ctx)
	if !ok || en.State != StateSent || en.Nonce != 1700000000000 || en.Intent.Parent != "" || !arr["c-1"].Mid.Equal(decimal.NewFromInt(100)) {
		t.Fatalf("after Sent: %+v %+v", en, arr)
	}
	if err := p.Sent(ctx, signing(1700000000001)); err == nil {
		t.Fatal("an intent was signed twice")
	}
	if ok, err := p.Settle(ctx, Outcome{Kind: "placed", Settled: true, Oid: 7}); !ok || err != nil || j.Commits() != c0+2 {
		t.Fatalf("outcome: %v %v, %d commits", ok, err, j.Commits()-c0)
	}
	if _, err := j.Prepare(ctx, Intent{ID: "c-1", Kind: "place", Who: WhoAlgorithm}); !errors.Is(err, ErrUsedID) {
		t.Fatalf("a used id: %v", err)
	}
	q, _ := j.Prepare(ctx, Intent{Kind: "cancel", Who: WhoForm, What: "cancel"})
	c1 := j.Commits()
	if ok, err := q.Settle(ctx, Outcome{Kind: "not sent", Settled: true}); !ok || err != nil || j.Commits() != c1+1 {
		t.Fatalf("never signed: %v %v, %d commits", ok, err, j.Commits()-c1)
	}
	if en, ok, _ := j.Get(ctx, q.ID()); !ok || en.State != StateNew || en.Outcome == nil || en.Outcome.Kind != "not sent" {
		t.Fatalf("never signed, in the file: %+v", en)
	}
	if un, _ := j.Unsent(ctx); len(un) != 0 {
		t.Fatalf("unsent: %+v", un)
	}
	// Another intent taking the id between Prepare and Sent: the send is stopped.
	r, _ := j.Prepare(ctx, Intent{ID: "c-2", Kind: "place", Who: WhoAlgorithm})
	if _, err := j.Begin(ctx, Intent{ID: "c-2", Kind: "place", Who: WhoForm}); err != nil {
		t.Fatal(err)
	}
	if err := r.Sent(ctx, signing(1700000000002)); !errors.Is(err, ErrUsedID) {
		t.Fatalf("an id taken meanwhile: %v", err)
	}
}
