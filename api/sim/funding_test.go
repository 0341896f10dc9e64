package sim

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// envAt is a quiet simulator whose test clock starts at the given time.
func envAt(t *testing.T, at time.Time, opts ...Option) *env {
	t.Helper()
	clock := NewTestClock(at)
	s := New(append([]Option{WithSeed(7), WithClock(clock), WithQuietMarkets()}, opts...)...)
	e := &env{t: t, sim: s, clock: clock}
	e.srv = httptest.NewServer(s)
	t.Cleanup(e.srv.Close)
	return e
}

// fundingTimes reads an account's funding_history: the timestamps, newest first.
func fundingTimes(t *testing.T, e *env, addr string) []string {
	t.Helper()
	code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":"funding_history","params":{"user":%q}}`, addr))
	var out struct {
		Data []struct{ Timestamp string }
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil || code != 200 {
		t.Fatalf("funding_history: %d %s", code, raw)
	}
	var ts []string
	for _, r := range out.Data {
		ts = append(ts, r.Timestamp)
	}
	return ts
}

// TestFundingOnTheHour (issue #39.3): with the market steps 300 ms after each second, a position
// opened 100 ms after the hour (before the first step after it) pays nothing for that hour, and
// one closed 100 ms after it pays the hour, dated at the hour. Guards funding paid by the first
// step after the hour on the positions held then.
func TestFundingOnTheHour(t *testing.T) {
	t.Parallel()
	start := testStart.Add(300 * time.Millisecond)
	hour := start.Truncate(time.Hour).Add(time.Hour)
	trade := func(e *env, sellerPrice string, buyer, seller *api.Client) {
		t.Helper()
		place(t, seller, limit(1, api.SideSell, sellerPrice, "0.1"))
		place(t, buyer, limit(1, api.SideBuy, sellerPrice, "0.1"))
	}
	for _, opened := range []bool{true, false} {
		e := envAt(t, start)
		alice, bob := e.client("alice"), e.client("bob")
		e.sim.Advance(hour.Add(-500 * time.Millisecond).Sub(e.clock.Now())) // last step: 700 ms before the hour
		if !opened {
			trade(e, "97250", alice, bob) // alice long before the hour
		}
		e.clock.Add(600 * time.Millisecond) // 100 ms after the hour; no step has run since it
		if opened {
			trade(e, "97250", alice, bob) // alice long after the hour
		} else {
			trade(e, "97250", bob, alice) // and closed after it
		}
		e.sim.Advance(3 * time.Second)
		got := fundingTimes(t, e, alice.Address())
		switch {
		case opened && len(got) != 0:
			t.Errorf("a position opened 100 ms after the hour paid %v for it", got)
		case !opened && (len(got) != 1 || got[0] != hour.Format("2006-01-02T15:04:05.000Z")):
			t.Errorf("a position closed 100 ms after the hour: funding %v, want one payment dated %s", got, hour)
		}
	}
}
