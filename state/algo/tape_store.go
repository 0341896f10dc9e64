package algo

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// The account and market state a child's risk check reads (Market.Store), as the stream keeps it:
// the tickers, the mids, the account summary and the positions. A store built for a child takes
// them from the tape (ApplyTo) instead of four reads, as the console's own store takes them from
// the same stream for the trader's orders.

// tapeState is the stream's latest account and market state (under Tape.mu).
type tapeState struct {
	tickers   map[string]stamped[api.Ticker]
	mids      map[string]stamped[decimal.Decimal]
	account   *stamped[api.AccountSummary]
	positions *stamped[[]api.Position]
	levs      map[string]keptLeverage // the leverage settings read (KeepLeverage)
	levPrint  string                  // the leverages the positions and summary last showed
}

// stamped is a streamed record with the connection that brought it and when.
type stamped[T any] struct {
	v     T
	epoch uint64
	at    time.Time
}

// putState keeps a record of the account's or the market's state (under mu); it reports
// whether ev was one.
func (t *Tape) putState(ev api.StreamEvent, st api.StreamStatus, now time.Time) bool {
	s := &t.state
	switch d := ev.Data.(type) {
	case *api.Ticker:
		if s.tickers == nil {
			s.tickers = map[string]stamped[api.Ticker]{}
		}
		if _, known := s.tickers[d.Symbol]; known || len(s.tickers) < tapeSymbols {
			s.tickers[d.Symbol] = stamped[api.Ticker]{*d, st.Epoch, now}
		}
	case []api.Mid:
		if s.mids == nil {
			s.mids = map[string]stamped[decimal.Decimal]{}
		}
		for _, m := range d {
			if _, known := s.mids[m.Symbol]; known || len(s.mids) < tapeSymbols {
				s.mids[m.Symbol] = stamped[decimal.Decimal]{m.MidPrice, st.Epoch, now}
			}
		}
	case *api.AccountSummary:
		s.account = &stamped[api.AccountSummary]{*d, st.Epoch, now}
		s.leverageMoved()
	case []api.Position:
		s.positions = &stamped[[]api.Position]{append([]api.Position(nil), d...), st.Epoch, now}
		s.leverageMoved()
	default:
		return false
	}
	return true
}

// ApplyTo applies the stream's tickers, mids, account summary and positions to st, for a child's
// risk check on instrument symbol (its name), and reports whether it did: only while the stream is
// up and holds, from its current connection, the account summary, the positions and the
// instrument's ticker and mid, the ticker at most QuoteAge old. When it reports false st is
// untouched and the caller reads them from the exchange.
func (t *Tape) ApplyTo(st *state.Store, symbol string) bool {
	status := t.status()
	t.mu.Lock()
	s := &t.state
	cur := func(epoch uint64) bool { return status.Up && epoch == status.Epoch }
	tk, okT := s.tickers[symbol]
	mid, okM := s.mids[symbol]
	if !status.Up || s.account == nil || s.positions == nil || !cur(s.account.epoch) || !cur(s.positions.epoch) ||
		!okT || !okM || !cur(tk.epoch) || !cur(mid.epoch) || time.Since(tk.at) > t.quoteAge() {
		t.mu.Unlock()
		return false
	}
	tickers := make([]api.Ticker, 0, len(s.tickers))
	for _, x := range s.tickers {
		if cur(x.epoch) {
			tickers = append(tickers, x.v)
		}
	}
	mids := make([]api.Mid, 0, len(s.mids))
	for sym, x := range s.mids {
		if cur(x.epoch) {
			mids = append(mids, api.Mid{Symbol: sym, MidPrice: x.v})
		}
	}
	acct, pos := s.account.v, append([]api.Position(nil), s.positions.v...)
	t.mu.Unlock()
	sort.Slice(tickers, func(i, j int) bool { return tickers[i].Symbol < tickers[j].Symbol })
	sort.Slice(mids, func(i, j int) bool { return mids[i].Symbol < mids[j].Symbol })
	st.Apply(state.TickersMsg{Tickers: tickers})
	st.Apply(state.MidsMsg{Mids: mids})
	st.Apply(state.AccountMsg{Summary: acct})
	st.Apply(state.PositionsMsg{Positions: pos})
	return true
}
