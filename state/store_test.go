package state

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

func TestApplyGenerations(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	if !s.Apply(TickersMsg{Gen: 2, Tickers: testTickers()}) {
		t.Fatal("first tickers must change the store")
	}
	if v := s.Version(KindTickers); v != 1 {
		t.Fatalf("version %d, want 1", v)
	}
	if s.Apply(TickersMsg{Gen: 1, Tickers: nil}) {
		t.Fatal("an older generation must be ignored")
	}
	if len(s.Tickers()) != 4 || s.Version(KindTickers) != 1 {
		t.Fatal("older generation changed the data")
	}
	if s.Apply(TickersMsg{Gen: 2, Tickers: testTickers()}) {
		t.Fatal("identical tickers are not a change")
	}
	if s.Version(KindTickers) != 1 {
		t.Fatal("identical tickers bumped the version")
	}
	moved := testTickers()
	moved[0].MarkPrice = d("50001")
	if !s.Apply(&TickersMsg{Gen: 3, Tickers: moved}) || s.Version(KindTickers) != 2 {
		t.Fatal("a moved mark (sent by pointer) must change the store and bump the version")
	}
	if tk, ok := s.Ticker("btc-perp"); !ok || !tk.MarkPrice.Equal(d("50001")) {
		t.Fatalf("ticker lookup %+v %v", tk, ok)
	}
	if s.Version(KindMids) != 0 {
		t.Fatal("versions are per kind")
	}
	if s.Apply(nil) || s.Apply((*FailedMsg)(nil)) || s.Apply(FailedMsg{Of: Kind(99)}) {
		t.Fatal("unknown messages change nothing")
	}
}

func TestFreshness(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	if f := s.Freshness(KindAccount); f.Loaded() || f.Stale || f.Age != 0 {
		t.Fatalf("never loaded: %+v", f)
	}
	s.Apply(AccountMsg{Gen: 1, Summary: testAccount()})
	now = now.Add(3 * time.Second)
	f := s.Freshness(KindAccount)
	if !f.Loaded() || f.Stale || f.Age != 3*time.Second || !f.At.Equal(t0) {
		t.Fatalf("fresh: %+v", f)
	}
	now = now.Add(8 * time.Second)
	if f := s.Freshness(KindAccount); !f.Stale || f.Err != nil {
		t.Fatalf("11s old account must be stale: %+v", f)
	}
	s.SetStaleAfter(KindAccount, time.Minute)
	if s.Freshness(KindAccount).Stale {
		t.Fatal("stale age is configurable")
	}
	boom := errors.New("connection refused")
	v := s.Version(KindAccount)
	if s.Apply(FailedMsg{Gen: 0, Of: KindAccount, Err: boom}) {
		t.Fatal("a failure of an older generation is ignored")
	}
	if !s.Apply(FailedMsg{Gen: 1, Of: KindAccount, Err: boom}) || s.Version(KindAccount) != v+1 {
		t.Fatal("a failure is a change")
	}
	f = s.Freshness(KindAccount)
	if !f.Stale || f.Err != boom || !f.At.Equal(t0) {
		t.Fatalf("failed: %+v", f)
	}
	if !s.Account().AvailableBalance.Equal(d("10000")) {
		t.Fatal("a failure keeps the old data")
	}
	at := now.Add(-time.Second)
	v = s.Version(KindAccount)
	if !s.Apply(AccountMsg{Gen: 2, At: at, Summary: testAccount()}) || s.Version(KindAccount) != v+1 {
		t.Fatal("recovering from a failure is a change even with the same data")
	}
	if f := s.Freshness(KindAccount); f.Stale || f.Err != nil || f.Age != time.Second {
		t.Fatalf("recovered: %+v", f)
	}
	if s.Freshness(KindTickers).Loaded() {
		t.Fatal("freshness is per kind")
	}
	v = s.Version(KindAccount)
	now = now.Add(time.Second)
	if s.Apply(AccountMsg{Gen: 3, Summary: testAccount()}) || s.Version(KindAccount) != v {
		t.Fatal("the same account again is not a change")
	}
	if f := s.Freshness(KindAccount); !f.At.Equal(now) || f.Stale {
		t.Fatalf("an unchanged poll still refreshes the age: %+v", f)
	}
}

func TestAccessors(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(MidsMsg{Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("50010")}}})
	if m, ok := s.Mid("BTC-PERP"); !ok || !m.Equal(d("50010")) {
		t.Fatalf("mid from mids: %s", m)
	}
	if m, ok := s.Mid("ETH-PERP"); !ok || !m.Equal(d("3000.005")) {
		t.Fatalf("mid falls back to the ticker: %s", m)
	}
	if _, ok := s.Mid("NOPE"); ok {
		t.Fatal("no mid for an unknown symbol")
	}
	if in, ok := s.FindInstrument("2"); !ok || in.Name != "ETH-PERP" {
		t.Fatal("find by id")
	}
	if in, ok := s.FindInstrument("hype/usdc"); !ok || !in.Spot {
		t.Fatal("find spot by name")
	}
	if in, ok := s.InstrumentByID(1); !ok || in.Name != "BTC-PERP" {
		t.Fatal("id 1 is the perp")
	}
	names := s.InstrumentNames()
	if fmt.Sprint(names) != "[BTC-PERP ETH-PERP HYPE/USDC ISO-PERP OLD-PERP]" {
		t.Fatalf("names %v", names)
	}
	if c, ok := s.CollateralBySymbol("usdc"); !ok || c.ID != 0 {
		t.Fatal("collateral by symbol")
	}
	if l, ok := s.Leverage("btc-perp"); !ok || !l.Leverage.Equal(d("10")) {
		t.Fatal("leverage")
	}
	if p, ok := s.Position("ETH-PERP"); !ok || !p.Size.Equal(d("2")) {
		t.Fatal("position")
	}
	if rows := s.PositionViews(); len(rows) != 1 || !rows[0].UPnL.Equal(d("200")) {
		t.Fatalf("position views %+v", rows)
	}
	k := ChartKey{Symbol: "BTC-PERP", ChartType: "mark", Resolution: "1"}
	s.Apply(ChartMsg{Key: k, Candles: []api.Candle{{Close: d("1")}}})
	if len(s.Candles(k)) != 1 || len(s.Candles(ChartKey{Symbol: "ETH-PERP"})) != 0 {
		t.Fatal("candles by key")
	}
	s.Apply(OrdersMsg{Orders: []api.OrderRecord{{OrderID: 7}}})
	if len(s.Orders()) != 1 {
		t.Fatal("orders")
	}
	s.Apply(BrokersMsg{Page: api.Page[api.BrokerApproval]{Page: 1, Data: []api.BrokerApproval{{Broker: "a"}}}})
	s.Apply(BrokersMsg{Page: api.Page[api.BrokerApproval]{Page: 2, Data: []api.BrokerApproval{{Broker: "b"}}}})
	if len(s.Brokers()) != 2 {
		t.Fatal("brokers pages")
	}
	if KindLeverage.String() != "leverage" || Kind(42).String() != "kind(42)" || len(Kinds()) != 18 {
		t.Fatal("kind names")
	}
	if DefaultStaleAfter(KindTickers) != 5*time.Second {
		t.Fatal("default stale age")
	}
}

func fills(ids ...int) []api.Fill {
	out := make([]api.Fill, len(ids))
	for i, id := range ids {
		out[i] = api.Fill{TradeID: api.TradeID(id), OrderID: 1, Price: d(fmt.Sprint(id))}
	}
	return out
}

func fillIDs(fs []api.Fill) string {
	s := ""
	for _, f := range fs {
		s += fmt.Sprint(f.TradeID, " ")
	}
	return s
}

func TestFillsMerge(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	if p, ok := s.NextFillsPage(); !ok || p != 1 {
		t.Fatalf("first page to fetch is 1, got %d %v", p, ok)
	}
	s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 1, Data: fills(10, 9, 8), TotalPages: 3, HasNext: true}})
	if p, ok := s.NextFillsPage(); !ok || p != 2 {
		t.Fatalf("next page %d %v", p, ok)
	}
	s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 2, Data: fills(7, 6, 5), TotalPages: 3, HasNext: true}})
	old := s.Fills()
	// New fills arrive: page 1 now holds two new rows and one already seen (and a duplicate row).
	s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 1, Data: fills(12, 11, 11, 10), TotalPages: 3, HasNext: true}})
	if got := fillIDs(s.Fills()); got != "12 11 10 9 8 7 6 5 " {
		t.Fatalf("after new page 1: %s", got)
	}
	if fillIDs(old) != "10 9 8 7 6 5 " {
		t.Fatal("a slice read earlier must not change under the reader")
	}
	// Page 3 overlaps page 2 after the shift; the overlap is not duplicated.
	s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 3, Data: fills(5, 4, 3), TotalPages: 3, HasNext: false}})
	if got := fillIDs(s.Fills()); got != "12 11 10 9 8 7 6 5 4 3 " {
		t.Fatalf("after page 3: %s", got)
	}
	if _, ok := s.NextFillsPage(); ok {
		t.Fatal("all pages loaded")
	}
	v := s.Version(KindFills)
	if s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 1, Data: fills(12, 11, 10), TotalPages: 3}}) || s.Version(KindFills) != v {
		t.Fatal("page 1 with nothing new is not a change")
	}
	// A self-trade: same trade id, two orders; both fills are kept.
	self := append([]api.Fill{{TradeID: 13, OrderID: 1}, {TradeID: 13, OrderID: 2}}, fills(12, 11)...)
	s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 1, Data: self, TotalPages: 3, HasNext: true}})
	if got := fillIDs(s.Fills()); got != "13 13 12 11 10 9 8 7 6 5 4 3 " {
		t.Fatalf("self trade: %s", got)
	}
}

func TestHistoryMerge(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	s.Apply(HistoryMsg{Page: api.Page[api.OrderRecord]{Page: 1, Data: []api.OrderRecord{{OrderID: 2, State: "open"}, {OrderID: 1, State: "filled"}}}})
	s.Apply(HistoryMsg{Page: api.Page[api.OrderRecord]{Page: 1, Data: []api.OrderRecord{{OrderID: 3, State: "open"}, {OrderID: 2, State: "cancelled"}}}})
	h := s.History()
	if len(h) != 3 || h[0].OrderID != 3 || h[1].State != "cancelled" || h[2].OrderID != 1 {
		t.Fatalf("history %+v", h)
	}
	s.Apply(HistoryMsg{Page: api.Page[api.OrderRecord]{Page: 2, Data: []api.OrderRecord{{OrderID: 1, State: "filled", Cloid: "x"}, {OrderID: 0}}}})
	h = s.History()
	if len(h) != 4 || h[2].Cloid != "x" || h[3].OrderID != 0 {
		t.Fatalf("history page 2 %+v", h)
	}
	if p, ok := s.NextHistoryPage(); ok {
		t.Fatalf("no has_next and no total pages: done, got %d", p)
	}
}

func TestStoreConcurrent(t *testing.T) {
	s := New(nil)
	s.Apply(InstrumentsMsg{Instruments: testInstruments()})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			s.Apply(TickersMsg{Gen: uint64(i), Tickers: testTickers()[:1+i%4]})
			s.Apply(FillsMsg{Gen: uint64(i), Page: api.Page[api.Fill]{Page: 2 + i%3, Data: fills(i)}})
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			_ = s.Tickers()
			_ = s.Fills()
			_, _ = s.CheckOrder(limitBuy("BTC-PERP", "50000", "0.01"), DefaultGuard())
			_ = s.Freshness(KindTickers)
		}
	}()
	wg.Wait()
	if len(s.Fills()) != 200 {
		t.Fatalf("fills %d", len(s.Fills()))
	}
}

// TestNoStaleWindowOnlyFailuresAreStale: a kind whose stale age is zero (SetStaleAfter 0) is never
// stale by age, however old its data, but is stale once its poll fails. Guards the zero window
// treated as a window of zero (mutant stale/no-window-never-stale).
func TestNoStaleWindowOnlyFailuresAreStale(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	s.SetStaleAfter(KindOrders, 0)
	s.Apply(OrdersMsg{Gen: 1, At: t0})
	now = t0.Add(time.Hour)
	if f := s.Freshness(KindOrders); f.Stale || f.Age != time.Hour {
		t.Fatalf("an hour old with no stale age: %+v", f)
	}
	s.Apply(FailedMsg{Of: KindOrders, Gen: 2, Err: errors.New("timeout")})
	if f := s.Freshness(KindOrders); !f.Stale {
		t.Fatalf("a failed poll is not stale: %+v", f)
	}
}

// TestStoreAdmitsWhatItHasNotSeen: the first data of a kind is a change even when it is an empty
// list ("loading" becomes "none"); a stream's vouching (CurrentMsg) for a kind with nothing
// loaded changes nothing and does not make it look loaded. Guards both checks dropped (mutants
// store/first-data-is-change, store/vouch-needs-data).
func TestStoreAdmitsWhatItHasNotSeen(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	if s.Apply(CurrentMsg{Of: KindOrders, At: now}) || s.Freshness(KindOrders).Loaded() {
		t.Fatal("vouching for nothing loaded made the orders loaded")
	}
	if !s.Apply(OrdersMsg{Gen: 1, At: now}) || s.Version(KindOrders) != 1 || !s.Freshness(KindOrders).Loaded() {
		t.Fatalf("the first, empty list is not a change: version %d", s.Version(KindOrders))
	}
	if s.Apply(OrdersMsg{Gen: 2, At: now}) {
		t.Fatal("the same empty list again is a change")
	}
}

// TestPricesFreshnessOfAMarketOrder: the prices a limit order is judged on are the tickers'
// only; a market order's are the mids' too when they are stale and older than the tickers (or the
// tickers fresh). Guards the mids read for a limit order and the age comparison dropped (mutants
// stale/prices-market-mids, stale/prices-older-mids).
func TestPricesFreshnessOfAMarketOrder(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	s.Apply(MidsMsg{Gen: 1, At: t0, Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("100")}}})
	now = t0.Add(10 * time.Second)
	s.Apply(TickersMsg{Gen: 1, At: now, Tickers: []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: d("100")}}})
	if f := s.PricesFreshness(false); f.Stale {
		t.Fatalf("a limit order's prices read the stale mids: %+v", f)
	}
	if f := s.PricesFreshness(true); !f.Stale || f.Age != 10*time.Second {
		t.Fatalf("a market order's prices ignore the stale mids: %+v", f)
	}
	// Both stale, the tickers older: the tickers' age is said, not the younger mids'.
	now = t0
	s = New(fixedClock(&now))
	s.Apply(TickersMsg{Gen: 1, At: t0, Tickers: []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: d("100")}}})
	s.Apply(MidsMsg{Gen: 1, At: t0.Add(5 * time.Second), Mids: []api.Mid{{Symbol: "BTC-PERP", MidPrice: d("100")}}})
	now = t0.Add(15 * time.Second)
	if f := s.PricesFreshness(true); !f.Stale || f.Age != 15*time.Second {
		t.Fatalf("both stale: %+v, want the tickers' 15s", f)
	}
}
