package api

import "testing"

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
