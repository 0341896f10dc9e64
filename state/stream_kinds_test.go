package state

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestStreamedStateOutlivesOlderPolls: for each kind the stream replaces whole (account,
// positions) or per instrument (tickers, mids), a poll sent before a streamed record was received
// and answered after it does not take it back; a poll sent after it does. Guards: the comparison
// of the poll's send time with the record's receive time flipped or dropped.
func TestStreamedStateOutlivesOlderPolls(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	tick := func(sym, mark string) api.Ticker { return api.Ticker{Symbol: sym, MarkPrice: d(mark)} }
	s.Apply(TickersMsg{Gen: 1, At: t0, Tickers: []api.Ticker{tick("BTC-PERP", "100"), tick("ETH-PERP", "10")}})
	s.Apply(MidsMsg{Gen: 1, At: t0, Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("100")}}})
	s.Apply(AccountMsg{Gen: 1, At: t0, Summary: api.AccountSummary{Upnl: d("1")}})
	s.Apply(PositionsMsg{Gen: 1, At: t0, Positions: []api.Position{{Instrument: "BTC-PERP", Size: d("1")}}})

	sent := t0.Add(time.Second) // polls are sent; then the stream brings newer records
	now = t0.Add(2 * time.Second)
	for _, m := range []Msg{
		TickerUpdateMsg{At: now, Ticker: tick("BTC-PERP", "101")},
		MidsUpdateMsg{At: now, Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("101")}}},
		AccountUpdateMsg{At: now, Summary: api.AccountSummary{Upnl: d("2")}},
		PositionsUpdateMsg{At: now, Positions: []api.Position{{Instrument: "BTC-PERP", Size: d("2")}}},
	} {
		if !s.Apply(m) {
			t.Fatalf("%T is a change", m)
		}
	}
	// The polls' answers arrive, from before the stream's records.
	s.Apply(TickersMsg{Gen: 2, At: sent, Tickers: []api.Ticker{tick("BTC-PERP", "100"), tick("ETH-PERP", "11")}})
	s.Apply(MidsMsg{Gen: 2, At: sent, Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("100")}}})
	s.Apply(AccountMsg{Gen: 2, At: sent, Summary: api.AccountSummary{Upnl: d("1")}})
	s.Apply(PositionsMsg{Gen: 2, At: sent, Positions: []api.Position{{Instrument: "BTC-PERP", Size: d("1")}}})
	check := func(when string, btc, eth, mid, upnl, size string) {
		t.Helper()
		b, _ := s.Ticker("BTC-PERP")
		e, _ := s.Ticker("ETH-PERP")
		m, _ := s.Mid("BTC-PERP")
		if b.MarkPrice.String() != btc || e.MarkPrice.String() != eth || m.String() != mid ||
			s.Account().Upnl.String() != upnl || s.Positions()[0].Size.String() != size {
			t.Fatalf("%s: btc %s eth %s mid %s upnl %s size %s", when, b.MarkPrice, e.MarkPrice, m, s.Account().Upnl, s.Positions()[0].Size)
		}
	}
	check("after older polls", "101", "11", "101", "2", "2")
	// Polls sent after the stream's records are the whole truth.
	now = t0.Add(3 * time.Second)
	s.Apply(TickersMsg{Gen: 3, At: now, Tickers: []api.Ticker{tick("BTC-PERP", "102"), tick("ETH-PERP", "12")}})
	s.Apply(MidsMsg{Gen: 3, At: now, Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("102")}}})
	s.Apply(AccountMsg{Gen: 3, At: now, Summary: api.AccountSummary{Upnl: d("3")}})
	s.Apply(PositionsMsg{Gen: 3, At: now, Positions: []api.Position{{Instrument: "BTC-PERP", Size: d("3")}}})
	check("after newer polls", "102", "12", "102", "3", "3")
}
