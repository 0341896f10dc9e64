package feed

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// TestStreamDropsUnknownInstruments: against a server that streams tickers and a book of
// instruments the instrument list does not hold (one named with escape codes), only the listed
// instrument's ticker reaches the store; the others are counted and named, cleaned, as bad rows
// are. Guards tickers and books that a server's made-up names grow without bound.
func TestStreamDropsUnknownInstruments(t *testing.T) {
	ws := newHostileWS(t)
	stream := api.NewStream(ws.url, api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(stream.Close)
	clock := NewFakeClock(t0)
	st := state.New(clock.Now)
	st.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")}}}})
	f := New(clock, 5*time.Second, time.Minute)
	f.AddSource(Source{Inbox: stream.Inbox(), Kinds: StreamKinds(false), Message: StreamMessage(st), Kind: TopicKind,
		Drop: UnknownInstrument(st)})
	for _, tp := range []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}, {Channel: api.ChanOrderBook, Symbol: "GHOST-PERP"}} {
		if _, err := stream.Subscribe(context.Background(), tp); err != nil {
			t.Fatal(err)
		}
	}
	ws.subscribed(t, 2)
	ws.send(notify("ticker:all", `[{"symbol":"GHOST-PERP","mark_price":1},{"symbol":"EVIL\u001b[2J-PERP","mark_price":2}]`),
		notify("orderbook:GHOST-PERP", `{"update_type":"snapshot","instrument_name":"GHOST-PERP","books":{"bids":[{"price":1,"size":1}],"asks":[],"sequence_number":1}}`),
		notify("ticker:all", `[{"symbol":"BTC-PERP","mark_price":97000}]`))
	r := &asyncRunner{msgs: make(chan Message, 64)}
	r.run(f.StartSource())
	dropped, why := 0, ""
	deadline := time.After(10 * time.Second)
	for _, ok := st.Ticker("BTC-PERP"); !ok; _, ok = st.Ticker("BTC-PERP") {
		select {
		case msg := <-r.msgs:
			res := f.Update(msg.(Msg))
			for _, m := range res.Msgs {
				st.Apply(m)
			}
			if res.Dropped > 0 && why == "" {
				why = res.DropReason
			}
			dropped += res.Dropped
			r.run(res.Cmd)
		case <-deadline:
			t.Fatalf("the listed ticker never arrived (%d dropped: %q)", dropped, why)
		}
	}
	if n := len(st.Tickers()); n != 1 || dropped != 3 || st.BookWindow("GHOST-PERP", decimal.Zero, 1).Loaded {
		t.Fatalf("%d tickers held, %d records dropped, a book of GHOST-PERP loaded %v: want 1, 3, false", n, dropped,
			st.BookWindow("GHOST-PERP", decimal.Zero, 1).Loaded)
	}
	if !strings.Contains(why, "GHOST-PERP") || !strings.Contains(why, "instrument list does not hold") {
		t.Fatalf("drop reason %q: want the instrument named", why)
	}
}

// TestTheInstrumentCheckReadsNoClock: the stream's check of every ticker's instrument (500 a
// second with 500 instruments streaming) reads the store once, without its clock: before the list
// loads nothing is judged, then an exact name passes and another is named. Guards: the check
// back on Freshness (the clock read for every ticker) and Instrument (a copy of it) (issue #34).
func TestTheInstrumentCheckReadsNoClock(t *testing.T) {
	reads := 0
	st := state.New(func() time.Time { reads++; return t0 })
	drop := UnknownInstrument(st)
	ticker := func(sym string) api.StreamEvent {
		return api.StreamEvent{Topic: api.Topic{Channel: api.ChanTicker, Symbol: "all"}, Data: &api.Ticker{Symbol: sym}}
	}
	if why := drop(ticker("GHOST-PERP")); why != "" {
		t.Errorf("judged before the instrument list loaded: %q", why)
	}
	st.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")}}}})
	reads = 0
	for range 100 {
		if why := drop(ticker("BTC-PERP")); why != "" {
			t.Fatalf("BTC-PERP dropped: %q", why)
		}
	}
	if reads != 0 {
		t.Errorf("100 checks read the store's clock %d times", reads)
	}
	for _, sym := range []string{"btc-perp", "GHOST-PERP"} {
		if why := drop(ticker(sym)); !strings.Contains(why, sym) {
			t.Errorf("%s: %q, want it named as not listed", sym, why)
		}
	}
}

// BenchmarkInstrumentCheck is the stream's check of one ticker's instrument against a list of
// 509.
func BenchmarkInstrumentCheck(b *testing.B) {
	st := state.New(func() time.Time { return time.Now() })
	var ins api.Instruments
	for i := range 509 {
		ins.Perps = append(ins.Perps, api.PerpInstrument{ID: api.InstrumentID(i + 1), Name: fmt.Sprintf("SYN%d-PERP", i),
			TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")})
	}
	st.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: ins})
	drop := UnknownInstrument(st)
	ev := api.StreamEvent{Topic: api.Topic{Channel: api.ChanTicker, Symbol: "all"}, Data: &api.Ticker{Symbol: "SYN300-PERP"}}
	b.ReportAllocs()
	for b.Loop() {
		if drop(ev) != "" {
			b.Fatal("dropped")
		}
	}
}
