package feed

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// heartbeatFeed is a feed with a stream source that is up, its topics those of live (nil: every
// topic heard is subscribed), for driving the heartbeat by hand.
func heartbeatFeed(live *[]api.Topic) *Feed {
	f := New(NewFakeClock(t0), 5*time.Second, time.Minute)
	src := Source{Inbox: api.NewInbox(0)}
	if live != nil {
		src.Topics = func() []api.Topic { return *live }
	}
	f.AddSource(src)
	f.src.up = true
	return f
}

// TestAStallsLimitIsFiveIntervalsAtLeastFiveSeconds: a topic is judged once it has three gaps;
// its limit is five of its longest gap, never under 5 s. Guards the gaps needed, the factor and
// the floor (mutants feed/stall-needs-gaps, feed/stall-factor, feed/stall-floor).
func TestAStallsLimitIsFiveIntervalsAtLeastFiveSeconds(t *testing.T) {
	for _, c := range []struct {
		gaps []time.Duration
		want time.Duration
		ok   bool
	}{
		{[]time.Duration{time.Second, time.Second}, 0, false},
		{[]time.Duration{time.Second, time.Second, 2 * time.Second}, 10 * time.Second, true},
		{[]time.Duration{time.Second / 2, time.Second / 2, time.Second / 2}, 5 * time.Second, true},
	} {
		b := beat{gaps: c.gaps}
		if got, ok := b.limit(); got != c.want || ok != c.ok {
			t.Errorf("gaps %v: limit %s %v, want %s %v", c.gaps, got, ok, c.want, c.ok)
		}
	}
}

// TestTheHeartbeatKeepsItsLastGapsAndMarketTopics: a topic's usual interval is the longest of its
// last eight gaps (a slow start is forgotten); an account topic has no heartbeat; a stall ends on
// the second batch after it, not the first. Guards the window, the market filter and the two
// batches (mutants feed/stall-gaps-window, feed/stall-market-only, feed/stall-ends-on-two).
func TestTheHeartbeatKeepsItsLastGapsAndMarketTopics(t *testing.T) {
	f := heartbeatFeed(nil)
	tick := api.Topic{Channel: api.ChanTicker, Symbol: "all"}
	orders := api.Topic{Channel: api.ChanOrders, User: "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"}
	at := t0
	f.heard(map[api.Topic]bool{tick: true, orders: true}, at)
	at = at.Add(20 * time.Second) // a slow start
	f.heard(map[api.Topic]bool{tick: true, orders: true}, at)
	for range 8 {
		at = at.Add(time.Second)
		f.heard(map[api.Topic]bool{tick: true}, at)
	}
	if _, ok := f.src.beats[orders]; ok {
		t.Error("an account topic has a heartbeat")
	}
	b := f.src.beats[tick]
	if limit, ok := b.limit(); !ok || limit != 5*time.Second {
		t.Fatalf("after eight 1 s gaps the limit is %s (%v), want 5s: gaps %v", limit, ok, b.gaps)
	}
	b.stalled = true
	f.heard(map[api.Topic]bool{tick: true}, at.Add(time.Second))
	if !b.stalled {
		t.Fatal("one batch ended the stall")
	}
	f.heard(map[api.Topic]bool{tick: true}, at.Add(2*time.Second))
	if b.stalled {
		t.Fatal("two batches did not end the stall")
	}
}

// TestAStallIsJudgedOnlyWhileUpAndSubscribed: the check stalls a silent topic only while the
// stream is up, forgets a topic no longer subscribed, and says the channel silent longest.
// Guards the up check, the forgetting and the longest (mutants feed/stall-only-while-up,
// feed/stall-forgets-unsubscribed, feed/stall-says-longest).
func TestAStallIsJudgedOnlyWhileUpAndSubscribed(t *testing.T) {
	tick := api.Topic{Channel: api.ChanTicker, Symbol: "all"}
	mids := api.Topic{Channel: api.ChanMids, Symbol: "all"}
	book := api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}
	live := []api.Topic{tick, mids, book}
	f := heartbeatFeed(&live)
	now := f.clock.Now()
	gaps := []time.Duration{time.Second, time.Second, time.Second}
	f.src.beats = map[api.Topic]*beat{
		tick: {last: now.Add(-10 * time.Second), gaps: gaps},
		mids: {last: now.Add(-20 * time.Second), gaps: gaps},
		book: {last: now.Add(-30 * time.Second), gaps: gaps},
	}
	f.src.up = false
	f.stallCheck(stallMsg{f.src.stallToken})
	if s := f.src.stalled(now); s != "" {
		t.Fatalf("stalled while the stream is down: %q", s)
	}
	f.src.up = true
	live = []api.Topic{tick, mids} // the book of the instrument shown before
	f.stallCheck(stallMsg{f.src.stallToken})
	if _, ok := f.src.beats[book]; ok {
		t.Error("a topic no longer subscribed keeps its heartbeat")
	}
	if s := f.src.stalled(now); s != "mids and 1 more streams silent 20s" {
		t.Errorf("stalled: %q, want the mids silent 20s and one more", s)
	}
}

// TestATopicHeardHoldsItsCheckOff (issue #34): a market topic heard every second moves the
// heartbeat's check later with each batch, so in a minute of batches the check never wakes (it
// woke every 5 s, found nothing silent and was set again); silent after, it wakes once, five
// seconds after the last batch, and stalls the topic.
func TestATopicHeardHoldsItsCheckOff(t *testing.T) {
	f := heartbeatFeed(nil)
	clock := f.clock.(*FakeClock)
	tick := api.Topic{Channel: api.ChanTicker, Symbol: "all"}
	wakes := 0
	step := func(d time.Duration) {
		for _, m := range clock.Advance(d) {
			wakes++
			run(f.Update(m.(Msg)).Cmd)
		}
	}
	for range 60 {
		run(f.heard(map[api.Topic]bool{tick: true}, clock.Now()))
		step(time.Second)
	}
	if wakes != 0 {
		t.Fatalf("a topic heard every second for a minute: the check woke %d times, want none", wakes)
	}
	step(5 * time.Second)
	if b := f.src.beats[tick]; wakes != 1 || !b.stalled {
		t.Fatalf("silent 6 s after the last batch: %d wakes, stalled %v; want one wake that stalls it", wakes, b.stalled)
	}
}
