package api

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// An order book's stream is checked as it arrives: its sequence (an update must follow the last by
// one) and its size (at most MaxBookLevels prices a side, the most a polled book may hold). A
// server whose updates keep adding levels would otherwise grow the book without bound while the
// status line says "stream". Either fault drops the update and subscribes the book again for a
// fresh snapshot; a book grown past the cap says so as a dropped row does.

// inBook checks one book notification: a snapshot starts the count and the prices held; an
// update must follow the last by one and keep each side within MaxBookLevels. An update that
// does not is dropped and the book subscribed again (resubscribe).
func (c *streamConn) inBook(sub *Subscription, u *BookUpdate) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case u.Snapshot:
		sub.seq, sub.haveSeq = u.Sequence, true
		sub.levels = [2]map[string]struct{}{priceSet(u.Bids), priceSet(u.Asks)}
		return true
	case !sub.haveSeq:
		return false // waiting for the snapshot
	case u.Sequence != sub.seq+1:
		sub.haveSeq = false
		go c.resubscribe(sub, "a sequence gap")
		return false
	}
	sub.seq = u.Sequence
	for side, levels := range [2][]BookLevel{u.Bids, u.Asks} {
		if n := applyPrices(sub.levels[side], levels); n > MaxBookLevels {
			sub.haveSeq = false
			name := [2]string{"bids", "asks"}[side]
			c.dropRow(sub.topic, fmt.Errorf("orderbook %s: update %d would hold %d %s, over the %d a side kept: asked for a fresh book",
				sub.topic.Symbol, u.Sequence, n, name, MaxBookLevels))
			go c.resubscribe(sub, "an update past the cap")
			return false
		}
	}
	return true
}

// priceSet is the prices of a snapshot's side.
func priceSet(levels []BookLevel) map[string]struct{} {
	set := make(map[string]struct{}, len(levels))
	for _, l := range levels {
		set[l.Price.String()] = struct{}{}
	}
	return set
}

// applyPrices applies an update's levels to the prices held (a size of 0 deletes the level, any
// other sets it) and returns how many are held. It stops counting once past the cap: the update
// is dropped, and the set is rebuilt from the next snapshot.
func applyPrices(set map[string]struct{}, levels []BookLevel) int {
	for _, l := range levels {
		k := l.Price.String()
		if l.Size.IsZero() {
			delete(set, k)
			continue
		}
		set[k] = struct{}{}
		if len(set) > MaxBookLevels {
			return len(set)
		}
	}
	return len(set)
}

// bookOf checks that a book notification is of the subscribed instrument: one that names none is
// taken as the topic's; one that names another is reported to drop and left out (its levels are
// not this book's; the next update's sequence then asks for a fresh book).
func bookOf(t Topic, u *BookUpdate, drop dropFunc) []StreamEvent {
	switch {
	case u.Instrument == "":
		u.Instrument = t.Symbol
	case !strings.EqualFold(u.Instrument, t.Symbol):
		if drop != nil {
			drop(0, fmt.Errorf("orderbook %s: a book of %s on its channel", t.Symbol, text.Quote(u.Instrument)))
		}
		return nil
	}
	return []StreamEvent{{Topic: t, Data: u}}
}
