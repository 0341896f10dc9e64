package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// TestAPublishOfEveryMarketIsAFewAllocations (issue #34): publishing a step in which all 509
// markets of --markets 500 moved, to a subscriber of every ticker and every mid, makes a few
// allocations (the step's frames, tickers and lists, each made once at its size) and allocates
// under twice the frames' bytes, also when the step writes a little more than the last. Guards:
// a size in lots of 10 or 100 written through decimal's String (about 2,000 allocations), the
// message and mids lists grown by doubling (about 20), the frames' buffer sized as the last
// step's exactly, so a longer step copied it into one twice the size.
func TestAPublishOfEveryMarketIsAFewAllocations(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(500))
	drain, sent := everyTickerAndMid(s)
	publishAll := func() { // every market moved, the last step's frames a sixteenth shorter
		s.mu.Lock()
		for _, w := range s.ws.tap.markets {
			w.top = [6]int64{}
		}
		ps := s.ws.tap.collect(s.eng, true)
		s.mu.Unlock()
		s.ws.mu.Lock()
		s.ws.frameBytes -= s.ws.frameBytes / 16
		s.ws.mu.Unlock()
		s.ws.fanOut(ps)
		drain()
	}
	publishAll()
	if n := testing.AllocsPerRun(5, publishAll); n > 10 {
		t.Errorf("a publish of %d moved markets: %.0f allocations, want at most 10", len(s.eng.markets), n)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	*sent = 0
	publishAll()
	runtime.ReadMemStats(&m1)
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 2*uint64(*sent) {
		t.Errorf("a publish of %d bytes of frames allocated %d bytes, want under twice the frames", *sent, alloc)
	}
}

// everyTickerAndMid subscribes a client of s to every ticker and every mid and steps s 5 s; drain
// empties the client's queue, adding the bytes it took to *sent. The client stays for the test.
func everyTickerAndMid(s *Sim) (drain func(), sent *int) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &wsClient{out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel, subs: map[string]bool{}}
	s.ws.add(c)
	for i, p := range []string{`{"channel":"ticker","symbol":"all"}`, `{"channel":"mids","symbol":"all"}`} {
		s.wsSubscribe(c, rpcIn{JSONRPC: "2.0", ID: json.RawMessage(fmt.Sprint(i)), Method: "subscribe", Params: json.RawMessage(p)})
	}
	sent = new(int)
	drain = func() {
		for len(c.out) > 0 {
			*sent += len(<-c.out)
		}
	}
	s.Advance(5 * time.Second)
	drain()
	return drain, sent
}
