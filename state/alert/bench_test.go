package alert

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// BenchmarkTickerUpdate200Alerts is the cost of one streamed ticker with 200 rules standing: price
// rules over 20 instruments, move and funding rules, a liquidation and a margin rule (issue #37's
// target: under 0.2 ms an update; reported, not asserted).
func BenchmarkTickerUpdate200Alerts(b *testing.B) {
	s := state.New(nil)
	var tickers []api.Ticker
	for i := range 20 {
		tickers = append(tickers, api.Ticker{Symbol: fmt.Sprintf("C%d-PERP", i), MarkPrice: decimal.NewFromInt(int64(1000 + i)),
			LastPrice: decimal.NewFromInt(int64(1000 + i)), FundingRate: decimal.RequireFromString("0.0001")})
	}
	s.Apply(state.TickersMsg{Tickers: tickers})
	var rules []Rule
	for i := range 200 {
		sym := fmt.Sprintf("c%d-perp", i%20)
		var r Rule
		switch i % 10 {
		case 8:
			r = mustParse(b, sym+" move > 5% in 5m")
		case 9:
			r = mustParse(b, sym+" funding > 0.05%")
		default:
			r = mustParse(b, fmt.Sprintf("%s > %d", sym, 2000+i))
		}
		rules = append(rules, r)
	}
	e := New()
	e.Set(rules)
	now := t0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now = now.Add(time.Millisecond)
		tk := tickers[i%20]
		tk.MarkPrice = tk.MarkPrice.Add(decimal.New(int64(i%7), -1))
		m := state.TickerUpdateMsg{At: now, Ticker: tk}
		s.Apply(m)
		e.Check(now, s, Link{ExchangeUp: true}, m)
	}
}

// TestAHostileInstrumentNameIsCleaned: a server's instrument name with terminal escapes reaches
// the alert's instrument and text without them.
func TestAHostileInstrumentNameIsCleaned(t *testing.T) {
	s := state.New(nil)
	e := New()
	e.Set([]Rule{mustParse(t, "cancel")})
	m := state.OrderUpdateMsg{At: t0, Record: api.OrderRecord{OrderID: 7, Instrument: "BTC\x1b]0;pwned\x07-PERP\x1b[2J",
		State: api.StateCancelled, Size: decimal.NewFromInt(1), LimitPrice: decimal.NewFromInt(5)}}
	s.Apply(m)
	evs := e.Check(t0, s, Link{ExchangeUp: true}, m)
	if len(evs) != 1 {
		t.Fatalf("got %+v", evs)
	}
	for _, f := range []string{evs[0].Instrument, evs[0].Text, evs[0].Rule} {
		if strings.ContainsAny(f, "\x1b\x07") {
			t.Fatalf("escape in %q", f)
		}
	}
}
