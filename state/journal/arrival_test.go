package journal

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestArrivalIsKeptOnce (issue #41): the arrival recorded at send time is read back exactly,
// survives a reopen, and a second record for the same intent does not replace it; a zero price
// stays zero (not known). Guards: the arrival overwritten by a later (retried) send, decimals
// rounded on the way through SQLite.
func TestArrivalIsKeptOnce(t *testing.T) {
	ctx := context.Background()
	j := open(t)
	at := time.UnixMilli(1_780_000_000_123).UTC()
	want := Arrival{Mid: decimal.RequireFromString("97012.35"), Mark: decimal.RequireFromString("97010.1"), At: at}
	if err := j.SetArrival(ctx, "c1", want); err != nil {
		t.Fatal(err)
	}
	if err := j.SetArrival(ctx, "c1", Arrival{Mid: decimal.NewFromInt(1), At: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	path := j.File()
	_ = j.Close()
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	got, err := j.Arrivals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a := got["c1"]
	if len(got) != 1 || !a.Mid.Equal(want.Mid) || !a.Mark.Equal(want.Mark) || !a.Expected.IsZero() || !a.At.Equal(at) {
		t.Errorf("arrival %+v, want %+v", got, want)
	}
}
