package feed

import (
	"fmt"
	"slices"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// The stream's data heartbeat (issue #31): a connection that still answers pings but sends no
// market data would freeze prices while the status line says "stream". Each market topic (ticker,
// mids, bbo, orderbook, trades) learns its usual interval between batches: the longest of its
// last few gaps. Silent for stallFactor of them (and at least stallMin) it is stalled: its kinds
// are polled at their own cadence, its channel is subscribed again, and Conn says so. Two
// batches of it end the stall (one could be only the answer to the new subscribe). A topic
// with too few gaps to know its interval is not judged, and the account's channels never are: a
// quiet account sends nothing, and that is not a fault.

const (
	stallFactor = 5               // silent for this many usual intervals: stalled
	stallMin    = 5 * time.Second // and at least this long
	gapsKept    = 8               // the gaps a topic's usual interval is the longest of
	gapsNeeded  = 3               // gaps before a topic is judged
)

// marketChannels are the channels the heartbeat watches.
var marketChannels = []string{api.ChanTicker, api.ChanMids, api.ChanBBO, api.ChanOrderBook, api.ChanTrades}

// isMarketKind reports whether k is the kind of a market channel's records: the heartbeat
// watches its topics.
func isMarketKind(k state.Kind) bool {
	for _, ch := range marketChannels {
		if TopicKind(api.Topic{Channel: ch}) == k {
			return true
		}
	}
	return false
}

// beat is one market topic's heartbeat, on the feed's clock.
type beat struct {
	last    time.Time       // when its last batch came
	gaps    []time.Duration // the last gapsKept gaps between its batches
	stalled bool
	resumed int // batches since the stall
}

// limit is how long the topic may be silent; false while its usual interval is not known.
func (b *beat) limit() (time.Duration, bool) {
	if len(b.gaps) < gapsNeeded {
		return 0, false
	}
	return max(stallFactor*slices.Max(b.gaps), stallMin), true
}

// stallMsg is the heartbeat's timer; a token other than the source's is superseded.
type stallMsg struct{ token uint64 }

func (stallMsg) isFeedMsg() {}

// heard notes a batch's kept records of each market topic at now and arms the check for the
// earliest deadline; it returns the commands of stalls that ended (nil: none).
func (f *Feed) heard(topics map[api.Topic]bool, now time.Time) Cmd {
	s := f.src
	if s.beats == nil {
		s.beats = map[api.Topic]*beat{}
	}
	for t := range topics {
		if !slices.Contains(marketChannels, t.Channel) {
			continue
		}
		b := s.beats[t]
		switch {
		case b == nil:
			s.beats[t] = &beat{last: now}
			continue
		case b.stalled:
			if b.resumed++; b.resumed >= 2 {
				b.stalled, b.resumed = false, 0
			}
		case now.After(b.last):
			b.gaps = append(b.gaps, now.Sub(b.last))
			if len(b.gaps) > gapsKept {
				b.gaps = b.gaps[1:]
			}
		}
		b.last = now
	}
	return f.armStall(now)
}

// armStall sets the heartbeat's timer for the earliest deadline of the topics judged and not
// stalled, unless it is set for that already. A batch heard moves its topic's deadline later, and
// the timer with it: a stream that keeps sending never wakes the check (issue #34: it woke every
// 5 s, found nothing silent and was set again).
func (f *Feed) armStall(now time.Time) Cmd {
	s := f.src
	var next time.Time
	for _, b := range s.beats {
		if limit, ok := b.limit(); ok && !b.stalled {
			if at := b.last.Add(limit); next.IsZero() || at.Before(next) {
				next = at
			}
		}
	}
	if next.IsZero() || next.Equal(s.stallAt) {
		return nil
	}
	s.stallToken++
	s.stallAt = next
	return f.arm(s, next.Sub(now), stallMsg{s.stallToken})
}

// stallCheck runs on the heartbeat's timer: each topic silent past its limit is stalled (its kinds
// polled now, its channel subscribed again); then the timer is set for the next deadline.
func (f *Feed) stallCheck(msg stallMsg) Result {
	s := f.src
	if s == nil || msg.token != s.stallToken {
		return Result{}
	}
	s.stallAt = time.Time{}
	now := f.clock.Now()
	f.forgetUnsubscribed()
	var cmds []Cmd
	for t, b := range s.beats {
		limit, ok := b.limit()
		if !ok || b.stalled || now.Sub(b.last) < limit || !s.up {
			continue
		}
		b.stalled, b.resumed = true, 0
		cmds = append(cmds, f.pollKind(TopicKind(t)))
		if s.src.Resubscribe != nil {
			ch, resub := t.Channel, s.src.Resubscribe
			cmds = append(cmds, func() Message { resub(ch); return nil })
		}
	}
	cmds = append(cmds, f.armStall(now))
	return Result{Cmd: Batch(cmds...)}
}

// forgetUnsubscribed drops the heartbeats of topics no longer subscribed (the book of the
// instrument shown before): silent because nobody asks, not stalled.
func (f *Feed) forgetUnsubscribed() {
	s := f.src
	if s.src.Topics == nil {
		return
	}
	live := map[api.Topic]bool{}
	for _, t := range s.src.Topics() {
		live[t] = true
	}
	for t := range s.beats {
		if !live[t] {
			delete(s.beats, t)
		}
	}
}

// pollKind polls now every started task of kind k.
func (f *Feed) pollKind(k state.Kind) Cmd {
	var cmds []Cmd
	for _, t := range f.tasks {
		if t.started && t.spec.Kind == k {
			cmds = append(cmds, t.Poll())
		}
	}
	return Batch(cmds...)
}

// stalledKind reports whether a stalled topic's records are of kind k.
func (s *streamSource) stalledKind(k state.Kind) bool {
	for t, b := range s.beats {
		if b.stalled && TopicKind(t) == k {
			return true
		}
	}
	return false
}

// stalled is the status line's word on the stalled topics ("" when none): the channel silent
// longest, how long, and how many more ("ticker stream silent 5s", "ticker and 2 more streams
// silent 12s").
func (s *streamSource) stalled(now time.Time) string {
	var names []string
	var longest time.Duration
	first := ""
	for t, b := range s.beats {
		if !b.stalled || slices.Contains(names, t.Channel) {
			continue
		}
		names = append(names, t.Channel)
		if d := now.Sub(b.last); first == "" || d > longest {
			first, longest = t.Channel, d
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("%s stream silent %s", first, longest.Round(time.Second))
	}
	return fmt.Sprintf("%s and %d more streams silent %s", first, len(names)-1, longest.Round(time.Second))
}
