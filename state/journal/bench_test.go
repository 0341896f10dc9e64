package journal

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkCommitBeforeSend is the journal's cost on the send path: Begin, then Sent (the commit
// made before signing), each a committed transaction in WAL mode with synchronous=FULL, on a file
// under the test's temporary directory. It reports the median of Sent alone and of both together
// (the README's Performance section keeps the figures; no test asserts them).
func BenchmarkCommitBeforeSend(b *testing.B) {
	j := open(b)
	sent := make([]time.Duration, 0, b.N)
	both := make([]time.Duration, 0, b.N)
	s := signing(1700000000000)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		id, err := j.Begin(ctx, Intent{ID: "bench-" + strconv.Itoa(i), Kind: "place", Who: WhoHeadless, What: "buy 0.1 BTC-PERP @ 50,000", Cloids: []string{"bench-" + strconv.Itoa(i)}})
		if err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if err := j.Sent(ctx, id, s); err != nil {
			b.Fatal(err)
		}
		end := time.Now()
		sent, both = append(sent, end.Sub(mid)), append(both, end.Sub(start))
	}
	b.StopTimer()
	b.ReportMetric(median(sent).Seconds()*1000, "ms-sent-median")
	b.ReportMetric(median(both).Seconds()*1000, "ms-begin+sent-median")
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// BenchmarkRunningRead is the read twenty running algorithms share to see a pause (several times
// a second), in a journal of 20 running and 200 ended: the running algorithms' every column
// (Algos) against their ids alone (RunningIDs).
func BenchmarkRunningRead(b *testing.B) {
	j := open(b)
	for i := range 220 {
		id, err := j.BeginAlgo(ctx, Algo{Kind: "chase", Params: []byte(`{"instrument":"BTC-PERP","side":"buy","size":"0.001","offset":"5000"}`)})
		if err != nil {
			b.Fatal(err)
		}
		if i >= 20 {
			_ = j.SetAlgo(ctx, id, "done", "filled 0.001 at 97,000.0")
		}
	}
	b.Run("Algos", func(b *testing.B) {
		for range b.N {
			if all, err := j.Algos(ctx, true); err != nil || len(all) != 20 {
				b.Fatal(len(all), err)
			}
		}
	})
	b.Run("RunningIDs", func(b *testing.B) {
		var ids []string
		for range b.N {
			var err error
			if ids, err = j.RunningIDs(ctx, ids[:0]); err != nil || len(ids) != 20 {
				b.Fatal(len(ids), err)
			}
		}
	})
}
