package api

import "time"

// A connection's records never reach the inbox before the status that opens their epoch. The
// reader starts before the subscriptions are sent (it reads their answers), so it reads a topic's
// first records while later topics still wait for theirs, and the status says Up with a new Epoch
// only once every subscription was answered (a consumer takes Up as "everything is subscribed:
// reconcile now"). Until then the reader holds what it reads in the connection's own bounded inbox
// (the same merging and limit a subscription as the stream's), and goLive sets the status, then
// hands the held records on, with no record read in between. The alternative, publishing the Up
// as the connection opens, would tell consumers a refused or unanswered subscription is live.
// Holding changes nothing else: a book's sequence is checked as each update is read, a
// resubscribe and an unsubscribe's in-flight drop work on routes as before, and a connection that
// never comes up drops what it held (its epoch never opened; the next one's Up reconciles).

// deliver queues records read on the connection: held until it is up, then in the stream's inbox,
// signalled once the reader has read all the network delivered when the connection can tell
// (quietSignal). It reports false when the subscription's queue is full.
func (c *streamConn) deliver(evs []StreamEvent) bool {
	c.gate.Lock()
	defer c.gate.Unlock()
	if c.held != nil {
		return c.held.put(evs)
	}
	if c.signal.holds() {
		ok := c.s.inbox.putQuiet(evs)
		c.signal.owe() // paid before the reader waits on the network (quietSignal)
		return ok
	}
	return c.s.inbox.put(evs)
}

// dropRow counts and logs a row of topic t left out, and queues it for the console as deliver
// queues records (a dropped row of a held notification is said with its kept rows).
func (c *streamConn) dropRow(t Topic, err error) {
	why := c.s.dropRow(t, err)
	c.gate.Lock()
	defer c.gate.Unlock()
	if c.held != nil {
		c.held.noteDrop(t, why)
		return
	}
	c.s.inbox.noteDrop(t, why)
}

// goLive marks the connection up as epoch, then hands on what it held; from then on records go
// straight to the stream's inbox. Held records the inbox cannot take (its reader is that far
// behind) end the connection as a full queue does.
func (c *streamConn) goLive(epoch uint64) {
	c.gate.Lock()
	defer c.gate.Unlock()
	c.s.setStatus(StreamStatus{Up: true, Epoch: epoch, Since: time.Now()})
	held := c.held.Drain()
	c.held = nil
	if full, ok := c.s.inbox.take(held); !ok {
		c.fail(errQueued(full, c.s.inbox.max))
	}
}
