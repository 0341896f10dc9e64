package chart

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestFollowLive(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	cs := []api.Candle{{Time: api.Time{Time: t0}, Open: d("10"), High: d("12"), Low: d("9"), Close: d("11")}}
	cases := []struct {
		name          string
		now           time.Time
		period        time.Duration
		price         string
		n             int
		o, h, l, last string
	}{
		{"inside the candle, a new high", t0.Add(5 * time.Minute), 15 * time.Minute, "13", 1, "10", "13", "9", "13"},
		{"inside the candle, a new low", t0.Add(14 * time.Minute), 15 * time.Minute, "8", 1, "10", "12", "8", "8"},
		{"after it: a new candle opens at the last close", t0.Add(16 * time.Minute), 15 * time.Minute, "11.5", 2, "11", "11.5", "11", "11.5"},
		{"day candles", t0.Add(20 * time.Hour), 24 * time.Hour, "10.5", 1, "10", "12", "9", "10.5"},
		{"the next day", t0.Add(25 * time.Hour), 24 * time.Hour, "10.5", 2, "11", "11", "10.5", "10.5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := followLive(cs, d(c.price), c.now, c.period)
			k := out[len(out)-1]
			if len(out) != c.n || k.Open.String() != c.o || k.High.String() != c.h || k.Low.String() != c.l || k.Close.String() != c.last {
				t.Fatalf("%d candles, last %s/%s/%s/%s", len(out), k.Open, k.High, k.Low, k.Close)
			}
			if !cs[0].Close.Equal(d("11")) {
				t.Fatal("the input was changed")
			}
		})
	}
}
