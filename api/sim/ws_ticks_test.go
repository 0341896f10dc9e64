package sim

import (
	"bytes"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestTickerFromTicksIsTickerOut (issue #34): the ticker and mids:all notifications written from
// ticks and lots are byte for byte what tickerOut's and midsJSON's decimals write (which
// TestHandWrittenFramesMatchEncodingJSON holds to encoding/json), for every market of a
// simulator with synthetic markets (cents to tens of thousands, spot and perpetual) after a
// minute of trading, for a market with one side of its book empty and one with none, a day's
// change down and up, a volume that rounds. Guards: a field from the wrong figure; the mid not
// halved or rounded; the volume or the change rounded otherwise than the library; a spot market
// given a funding rate or open interest.
func TestTickerFromTicksIsTickerOut(t *testing.T) {
	s := New(WithSeed(7), WithClock(NewTestClock(testStart)), WithMarkets(60), WithStep(5*time.Second))
	s.Advance(2 * time.Minute)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	oneSided, bare := e.markets[len(e.markets)-1], e.markets[len(e.markets)-2]
	for _, o := range append(append([]*order(nil), oneSided.quotes...), bare.quotes...) {
		if o.state == "open" && (o.mkt == bare || o.buy) {
			e.cancel(o)
		}
	}
	spot := 0
	for _, m := range e.markets {
		got := tickerOfTicks(e, m).appendJSON([]byte("x"))
		want := tickerOut(e, m).appendJSON([]byte("x"))
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\nticks %s\nwant  %s", m.name, got, want)
		}
		if m.spot {
			spot++
		}
	}
	var all midsTicks
	for _, m := range e.markets {
		all = append(all, midOfTicks(m))
	}
	if got, want := all.appendJSON(nil), midsJSON(midsOut(e.markets)).appendJSON(nil); !bytes.Equal(got, want) {
		t.Errorf("mids:\nticks %s\nwant  %s", got, want)
	}
	if spot == 0 {
		t.Error("no spot market among them")
	}
	m := e.markets[len(e.markets)-3]
	for _, c := range []struct{ last, open, notional int64 }{{995, 1000, 12345}, {1005, 1000, 5}, {1, 3, 1 << 40}, {3, 1, 0}, {20001, 20000, 50}, {19999, 20000, 150}} {
		tk := tickerOfTicks(e, m)
		tk.last, tk.open, tk.notional = c.last, c.open, c.notional
		var change, volume decimal.Decimal
		change = m.px(c.last-c.open).Mul(hundred).DivRound(m.px(c.open), 2)
		volume = m.tick.d.Mul(m.lot.d).Mul(decimal.NewFromInt(c.notional)).Round(2)
		if got, want := string(tk.appendChange(nil)), change.String(); got != want {
			t.Errorf("change %d from %d: %s, want %s", c.last, c.open, got, want)
		}
		if got, want := string(tk.appendVolume(nil)), volume.String(); got != want {
			t.Errorf("volume of %d units at %s x %s: %s, want %s", c.notional, m.tick.d, m.lot.d, got, want)
		}
	}
}

// TestCollectedTickersAreOneAllocation: with every market's ticker watched (ticker:all) and all
// 509 moved, one collect makes its tickers in one allocation, not one each; each is still its
// market's (TestTickerFromTicksIsTickerOut has what they write). Guards: a ticker allocated per
// market again, a collect's tickers written over by the next collect's (its subscribers may not
// have them yet).
func TestCollectedTickersAreOneAllocation(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(500))
	s.Advance(3 * time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, _, err := s.tapAdd(wsParams{Channel: "ticker", Symbol: "all"}); err != nil {
		t.Fatal(err)
	}
	tp, e := s.ws.tap, s.eng
	moveAll := func() {
		for _, w := range tp.markets {
			w.top = [6]int64{}
		}
	}
	moveAll()
	first := tp.collect(e, true)
	was := map[*tickerTicks]*market{}
	for _, p := range first {
		tk := p.data.(*tickerTicks)
		if p.topic != "ticker:all" && p.topic != tk.m.tickerTopic() {
			t.Fatalf("%s carries %s's ticker", p.topic, tk.m.name)
		}
		was[tk] = tk.m
	}
	moveAll()
	second := tp.collect(e, true)
	if len(first) != 2*len(e.markets) || len(second) != len(first) || len(was) != len(e.markets) {
		t.Fatalf("%d and %d messages, %d tickers, for %d markets: want two messages a market (its topic and ticker:all), one ticker",
			len(first), len(second), len(was), len(e.markets))
	}
	for _, p := range second {
		if _, ok := was[p.data.(*tickerTicks)]; ok {
			t.Fatalf("%s: the next collect wrote over a ticker of the last", p.topic)
		}
	}
	for tk, m := range was {
		if tk.m != m || tk.mark != m.mark {
			t.Fatalf("%s's ticker now %s's (mark %d, want %d) after the next collect", m.name, tk.m.name, tk.mark, m.mark)
		}
	}
	n := testing.AllocsPerRun(10, func() { moveAll(); tp.collect(e, true) })
	if n > 40 {
		t.Errorf("a collect of %d moved markets: %.0f allocations, want at most 40", len(e.markets), n)
	}
}

// TestATickerInLotsOfTenWritesWithoutAllocating: a market traded in lots of 10 or 100 (a cheap
// synthetic market's, about a third of --markets 500) has its sizes written by hand as every
// other market's, without an allocation: a positive exponent went through decimal's String (a
// big.Int and its text each time), about 1,300 allocations a step at 500 markets.
func TestATickerInLotsOfTenWritesWithoutAllocating(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(60))
	s.Advance(time.Minute)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	buf := make([]byte, 0, 4096)
	seen := 0
	for _, m := range e.markets {
		if m.lot.e <= 0 {
			continue
		}
		seen++
		tk := tickerOfTicks(e, m)
		if tk.bidSize == 0 || tk.oi == 0 {
			t.Fatalf("%s: best bid size %d, open interest %d: want both, to be written", m.name, tk.bidSize, tk.oi)
		}
		if n := testing.AllocsPerRun(20, func() { buf = tk.appendJSON(buf[:0]) }); n != 0 {
			t.Errorf("%s (lot %s): %.0f allocations writing its ticker, want none", m.name, m.lot.d, n)
		}
	}
	if seen == 0 {
		t.Fatal("no market in lots of 10 or more among 60 synthetic ones")
	}
}
