package api

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestInboxDrainTakesTheSignal: records put after the reader took the Ready signal (the rest of a
// burst) come in the same Drain, and no signal is left behind for an empty batch; a record put
// after the Drain signals again. Guards: Drain leaving the stale signal (the console then drew an
// empty batch a frame after every real one, and the next event waited out that frame).
func TestInboxDrainTakesTheSignal(t *testing.T) {
	in := NewInbox(0)
	tk := Topic{Channel: ChanTrades, Symbol: "BTC-PERP"}
	in.put([]StreamEvent{{Topic: tk, Data: 1}})
	<-in.Ready()
	in.put([]StreamEvent{{Topic: tk, Data: 2}})
	if b := in.Drain(); len(b.Events) != 2 {
		t.Fatalf("drained %d records: want the burst's 2", len(b.Events))
	}
	select {
	case <-in.Ready():
		t.Fatal("Ready signalled with nothing waiting")
	default:
	}
	in.put([]StreamEvent{{Topic: tk, Data: 3}})
	select {
	case <-in.Ready():
	default:
		t.Fatal("a record put after the drain did not signal")
	}
}

// TestInboxKeepsTheNewestOfAKey: records with the same key (a ticker's symbol) are merged, the
// newest kept in the first one's place, and do not count against the subscription's limit;
// keyless events are all kept. Guards the merge dropped (mutant stream/inbox-coalesces).
func TestInboxKeepsTheNewestOfAKey(t *testing.T) {
	in := NewInbox(2)
	tk := Topic{Channel: ChanTicker, Symbol: "all"}
	for i := range 5 {
		if !in.put([]StreamEvent{{Topic: tk, Key: "ticker:BTC-PERP", Data: i}}) {
			t.Fatalf("record %d of one key refused: merged records fill no queue", i)
		}
	}
	in.put([]StreamEvent{{Topic: tk, Key: "ticker:ETH-PERP", Data: 9}})
	b := in.Drain()
	if len(b.Events) != 2 || b.Events[0].Data != 4 || b.Events[1].Data != 9 {
		t.Fatalf("drained %+v, want BTC's newest (4) then ETH's", b.Events)
	}
}

// TestInboxQueuesATopicsRecordsWithoutAllocating: 500 tickers of one topic, put one
// notification at a time as the stream reads them, allocate no key each (the topic's key is made
// once while the topic stays the same); a record of another topic still counts against its own
// queue. Guards: Topic.key made for every record (500 strings a market step, issue #34).
func TestInboxQueuesATopicsRecordsWithoutAllocating(t *testing.T) {
	in := NewInbox(0)
	tk := Topic{Channel: ChanTicker, Symbol: "all"}
	evs := make([][]StreamEvent, 500)
	for i := range evs {
		evs[i] = []StreamEvent{{Topic: tk, Key: fmt.Sprintf("ticker:SYN%d-PERP", i), Data: i}}
	}
	step := func() {
		for _, ev := range evs {
			in.put(ev)
		}
		in.Drain()
	}
	step()
	if n := testing.AllocsPerRun(10, step); n > 50 {
		t.Errorf("%.0f allocations to queue and drain 500 tickers of one topic: want the list's growth only (under 50)", n)
	}
	small := NewInbox(1)
	small.put([]StreamEvent{{Topic: tk, Data: 1}})
	if !small.put([]StreamEvent{{Topic: Topic{Channel: ChanTrades, Symbol: "BTC-PERP"}, Data: 2}}) {
		t.Error("another topic's record was refused: its queue is its own")
	}
	if small.put([]StreamEvent{{Topic: tk, Data: 3}}) {
		t.Error("a full topic's record was queued")
	}
}

// TestStreamRecordsOfTheNewerGeneration: a ticker that names its instrument only by
// instrument_name gets it as its symbol, and a fill that says original_size and original_price
// (not start_*) gets them as its start size and price; fields already set are kept. Guards both
// readings dropped (mutants stream/ticker-name-fallback, stream/fill-original-size).
func TestStreamRecordsOfTheNewerGeneration(t *testing.T) {
	evs, err := decodeData(Topic{Channel: ChanTicker, Symbol: "all"}, []byte(`{"instrument_name":"BTC-PERP","mark_price":"97000"}`), nil)
	if err != nil || len(evs) != 1 || evs[0].Data.(*Ticker).Symbol != "BTC-PERP" || evs[0].Key != "ticker:BTC-PERP" {
		t.Fatalf("ticker by instrument_name: %+v %v", evs, err)
	}
	var f Fill
	fixFill([]byte(`{"original_size":"0.5","original_price":"100.5"}`), &f)
	if f.StartSize.String() != "0.5" || f.StartPrice.String() != "100.5" {
		t.Fatalf("fill of the newer generation: start %s @ %s", f.StartSize, f.StartPrice)
	}
	f.StartSize = f.StartSize.Add(f.StartSize)
	fixFill([]byte(`{"original_size":"7","original_price":"7"}`), &f)
	if f.StartSize.String() != "1" {
		t.Fatalf("a start size already read was replaced: %s", f.StartSize)
	}
}

// TestMidsAsAMap: mids sent as a map of symbol to price are read, sorted by symbol, each with its
// price. Guards the price dropped (mutant stream/mids-map-price).
func TestMidsAsAMap(t *testing.T) {
	ms, err := decodeMids([]byte(`{"ETH-PERP":"3400.5","BTC-PERP":"97000"}`), nil)
	if err != nil || len(ms) != 2 || ms[0].Symbol != "BTC-PERP" || ms[0].MidPrice.String() != "97000" || ms[1].MidPrice.String() != "3400.5" {
		t.Fatalf("mids %+v %v", ms, err)
	}
}

// TestReconnectWaitIsCapped: the wait before reconnection attempt n grows by the base each
// attempt and stops at the cap (plus at most a quarter of jitter). Guards the cap dropped (mutant
// stream/backoff-cap: the hundredth attempt would wait 100 bases).
func TestReconnectWaitIsCapped(t *testing.T) {
	s := &Stream{cfg: streamConfig{backoffBase: time.Second, backoffMax: 5 * time.Second}}
	for n, lo := range map[int]time.Duration{1: time.Second, 3: 3 * time.Second, 100: 5 * time.Second} {
		if d := s.backoff(n); d < lo || d > lo+lo/4 {
			t.Errorf("attempt %d waits %s, want %s to %s", n, d, lo, lo+lo/4)
		}
	}
}

// TestABookUpdateDeletesItsZeroLevels: an update's level of size 0 removes its price from the
// prices held, so a full book that loses one level and gains another stays within the cap.
// Guards the delete dropped (mutant stream/book-zero-deletes: the book would be dropped as past
// the cap and subscribed again).
func TestABookUpdateDeletesItsZeroLevels(t *testing.T) {
	var snap []BookLevel
	for i := range MaxBookLevels {
		snap = append(snap, BookLevel{Price: decimal.NewFromInt(int64(1000 + i)), Size: decimal.NewFromInt(1)})
	}
	set := priceSet(snap)
	upd := []BookLevel{{Price: decimal.NewFromInt(1000), Size: decimal.Zero}, {Price: decimal.NewFromInt(999), Size: decimal.NewFromInt(2)}}
	if n := applyPrices(set, upd); n != MaxBookLevels {
		t.Fatalf("after one level out and one in, %d prices held, want %d", n, MaxBookLevels)
	}
	if _, ok := set["1000"]; ok {
		t.Fatal("the level of size 0 is still held")
	}
}

// BenchmarkInboxStep queues 500 tickers of one topic, one notification each, and drains them: a
// market step of 500 instruments through the stream's inbox.
func BenchmarkInboxStep(b *testing.B) {
	in := NewInbox(0)
	tk := Topic{Channel: ChanTicker, Symbol: "all"}
	evs := make([][]StreamEvent, 500)
	for i := range evs {
		evs[i] = []StreamEvent{{Topic: tk, Key: fmt.Sprintf("ticker:SYN%d-PERP", i), Data: i}}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, ev := range evs {
			in.put(ev)
		}
		in.Drain()
	}
}
