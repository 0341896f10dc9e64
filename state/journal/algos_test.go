package journal

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestAnAlgorithmSurvivesAReopen: an algorithm begun, with two child numbers taken, is listed as
// running by a journal opened again on the same file, and its next child number follows on (a
// restarted process never reuses a child's client id); once ended it is no longer running.
func TestAnAlgorithmSurvivesAReopen(t *testing.T) {
	path := Path(t.TempDir(), "sim", "0xabc")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := j.BeginAlgo(ctx, Algo{ID: "chase-1", Kind: "chase", Params: json.RawMessage(`{"size":"1"}`)})
	if err != nil || id != "chase-1" {
		t.Fatalf("begin: %q %v", id, err)
	}
	if _, err := j.BeginAlgo(ctx, Algo{ID: "chase-1", Kind: "chase", Params: json.RawMessage(`{}`)}); err == nil {
		t.Fatal("an algorithm id was taken twice")
	}
	if _, err := j.BeginAlgo(ctx, Algo{Kind: "chase", Params: json.RawMessage(`{`)}); err == nil {
		t.Fatal("parameters that are not JSON were taken")
	}
	for want := 1; want <= 2; want++ {
		if n, err := j.NextChild(ctx, id); err != nil || n != want {
			t.Fatalf("child %d: %d %v", want, n, err)
		}
	}
	_ = j.Close()
	j = open2(t, path)
	run, err := j.Algos(ctx, true)
	if err != nil || len(run) != 1 || run[0].ID != "chase-1" || run[0].Children != 2 || string(run[0].Params) != `{"size":"1"}` {
		t.Fatalf("running after a reopen: %+v %v", run, err)
	}
	if n, err := j.NextChild(ctx, id); err != nil || n != 3 {
		t.Fatalf("the next child after a reopen: %d %v", n, err)
	}
	if _, err := j.NextChild(ctx, "nope"); err == nil {
		t.Fatal("a child of no algorithm")
	}
	if err := j.SetAlgo(ctx, id, "done", "filled 1"); err != nil {
		t.Fatal(err)
	}
	if run, _ := j.Algos(ctx, true); len(run) != 0 {
		t.Fatalf("an ended algorithm is still running: %+v", run)
	}
	if a, ok, err := j.GetAlgo(ctx, id); !ok || err != nil || a.State != "done" || a.Detail != "filled 1" {
		t.Fatalf("get: %+v %v %v", a, ok, err)
	}
}

func open2(t *testing.T, path string) *Journal {
	t.Helper()
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

// TestAChildNumberIsTakenByItsIntentsCommit: a child number read free (FreeChild) is taken only
// by the commit that writes its intent before the signing (Sent), or its never-signed settle: a
// process that dies before that left nothing and sent nothing, and the restarted one hands the
// same number out again; once written, no other intent can carry it, not even one prepared before
// (two intents racing for a number: the second's commit is refused and nothing is signed). A batch
// takes its numbers in its one commit.
func TestAChildNumberIsTakenByItsIntentsCommit(t *testing.T) {
	path := Path(t.TempDir(), "sim", "0xabc")
	j := open2(t, path)
	id, _ := j.BeginAlgo(ctx, Algo{ID: "ch", Kind: "chase", Params: json.RawMessage(`{}`)})
	free := func(want int) {
		t.Helper()
		if n, err := j.FreeChild(ctx, id); err != nil || n != want {
			t.Fatalf("free child: %d %v, want %d", n, err, want)
		}
	}
	child := func(cloid string, from, to int) *Pending {
		t.Helper()
		p, err := j.Prepare(ctx, Intent{ID: cloid, Parent: id, Kind: "place", Who: WhoAlgorithm, Cloids: []string{cloid}, Numbers: Numbers{From: from, To: to}})
		if err != nil {
			t.Fatalf("prepare %s: %v", cloid, err)
		}
		return p
	}
	free(1)
	child("ch-1", 1, 1)
	_ = j.Close() // the process dies before the intent's commit
	j = open2(t, path)
	free(1)
	c0 := j.Commits()
	p, q := child("ch-1", 1, 1), child("ch-1b", 1, 1)
	if err := p.Sent(ctx, signing(1700000000000)); err != nil || j.Commits() != c0+1 {
		t.Fatalf("sent: %v, %d commits", err, j.Commits()-c0)
	}
	free(2)
	if err := q.Sent(ctx, signing(1700000000001)); !errors.Is(err, ErrUsedID) || q.Written() {
		t.Fatalf("a number taken meanwhile by another intent: %v", err)
	}
	if _, ok, _ := j.Get(ctx, "ch-1b"); ok {
		t.Fatal("the refused intent is in the file")
	}
	if _, err := j.Prepare(ctx, Intent{ID: "ch-1c", Parent: id, Kind: "place", Who: WhoAlgorithm, Numbers: Numbers{From: 1, To: 1}}); !errors.Is(err, ErrUsedID) {
		t.Fatalf("a taken number prepared again: %v", err)
	}
	if ok, err := child("ch-2", 2, 2).Settle(ctx, Outcome{Kind: "not placed", Settled: true}); !ok || err != nil {
		t.Fatalf("never signed: %v %v", ok, err)
	}
	free(3)
	c1 := j.Commits()
	if err := child("ch-3", 3, 12).Sent(ctx, signing(1700000000002)); err != nil || j.Commits() != c1+1 {
		t.Fatalf("a batch: %v, %d commits", err, j.Commits()-c1)
	}
	free(13)
	for _, bad := range []Numbers{{From: 0, To: 1}, {From: 3, To: 2}} {
		if _, err := j.Prepare(ctx, Intent{ID: "ch-x", Parent: id, Kind: "place", Who: WhoAlgorithm, Numbers: bad}); err == nil {
			t.Fatalf("numbers %+v were taken", bad)
		}
	}
	if _, err := j.Prepare(ctx, Intent{ID: "ch-x", Kind: "place", Who: WhoAlgorithm, Numbers: Numbers{From: 13, To: 13}}); err == nil {
		t.Fatal("numbers of no algorithm were taken")
	}
}

// TestRunningIDsAreTheRunningAlgorithms: the shared read for a pause lists the running algorithms
// alone (not a paused one, nor one that ended), appended to the slice it is given; an algorithm's
// own state is read as it is written, by this handle or another on the same file.
func TestRunningIDsAreTheRunningAlgorithms(t *testing.T) {
	path := Path(t.TempDir(), "sim", "0xabc")
	j, other := open2(t, path), open2(t, path)
	for _, id := range []string{"a", "b", "c"} {
		if _, err := j.BeginAlgo(ctx, Algo{ID: id, Kind: "chase", Params: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := other.SwitchAlgo(ctx, "b", AlgoRunning, AlgoPaused); !ok || err != nil {
		t.Fatalf("pause: %v %v", ok, err)
	}
	if err := j.SetAlgo(ctx, "c", "done", ""); err != nil {
		t.Fatal(err)
	}
	ids, err := j.RunningIDs(ctx, []string{"x"})
	if err != nil || len(ids) != 2 || ids[0] != "x" || ids[1] != "a" {
		t.Fatalf("running: %q %v", ids, err)
	}
	for id, want := range map[string]string{"a": AlgoRunning, "b": AlgoPaused, "c": "done", "d": ""} {
		if st, err := j.AlgoState(ctx, id); err != nil || st != want {
			t.Fatalf("%s: %q %v, want %q", id, st, err, want)
		}
	}
}
