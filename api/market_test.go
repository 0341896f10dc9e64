package api_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// TestTradesAndBBOFromTheSimulator reads the tape and the best bid and offer over HTTP after the
// simulated market has traded: the tape is newest first and of the instrument asked, and the BBO
// is the book's top (guards a swapped bid and ask, or an oldest-first tape).
func TestTradesAndBBOFromTheSimulator(t *testing.T) {
	clock := sim.NewTestClock(time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC))
	s := sim.New(sim.WithSeed(7), sim.WithClock(clock))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	for range 60 {
		s.Advance(time.Second)
	}
	c := api.New(srv.URL, api.WithClock(clock.Now))
	ctx := context.Background()
	trades, err := c.Trades(ctx, "BTC-PERP", 30)
	if err != nil {
		t.Fatal(err)
	}
	if len(trades) == 0 || len(trades) > 30 {
		t.Fatalf("%d trades after a minute of trading, want 1 to 30", len(trades))
	}
	for i, tr := range trades {
		if tr.Instrument != "BTC-PERP" || !tr.Price.IsPositive() || !tr.Size.IsPositive() || (tr.Side != api.SideBuy && tr.Side != api.SideSell) {
			t.Fatalf("trade %d: %+v", i, tr)
		}
		if i > 0 && tr.TradeID >= trades[i-1].TradeID {
			t.Fatalf("trade %d (id %d) is not older than the one before (id %d)", i, tr.TradeID, trades[i-1].TradeID)
		}
	}
	bbo, err := c.BBO(ctx, "BTC-PERP")
	if err != nil {
		t.Fatal(err)
	}
	book, err := c.OrderBook(ctx, "BTC-PERP", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !bbo.BidPrice.Equal(book.Bids[0].Price) || !bbo.AskPrice.Equal(book.Asks[0].Price) || !bbo.BidSize.Equal(book.Bids[0].Size) {
		t.Errorf("bbo %+v is not the book's top %+v / %+v", bbo, book.Bids[0], book.Asks[0])
	}
	if !bbo.BidPrice.LessThan(bbo.AskPrice) {
		t.Errorf("bbo bid %s not below ask %s", bbo.BidPrice, bbo.AskPrice)
	}
	if _, err := c.Trades(ctx, "", 0); err == nil {
		t.Error("an empty symbol was sent")
	}
}

// TestTradeAndBBODecodeNumbersAndStrings: the stream sends numbers, /info strings; both decode
// exactly, and the BBO takes its short field names and an array wrapper.
func TestTradeAndBBODecodeNumbersAndStrings(t *testing.T) {
	var tr api.Trade
	if err := json.Unmarshal([]byte(`{"instrument_id":1,"instrument":"BTC-PERP","trade_id":"12","side":"s","price":97000.123456789,"size":"0.1","timestamp":1769688000000}`), &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Price.String() != "97000.123456789" || tr.Size.String() != "0.1" || tr.TradeID != 12 || tr.Time.UnixMilli() != 1769688000000 {
		t.Errorf("decoded %+v", tr)
	}
	var b api.BBO
	if err := json.Unmarshal([]byte(`[{"instrument_name":"ETH-PERP","bid_px":"3400.5","bid_sz":2,"ask_px":3401,"ask_sz":"1.5"}]`), &b); err != nil {
		t.Fatal(err)
	}
	if b.Symbol != "ETH-PERP" || b.BidPrice.String() != "3400.5" || b.AskPrice.String() != "3401" || b.AskSize.String() != "1.5" || b.BidSize.String() != "2" {
		t.Errorf("decoded %+v", b)
	}
}
