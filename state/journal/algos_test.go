package journal

import (
	"encoding/json"
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
