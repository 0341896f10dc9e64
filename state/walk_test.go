package state

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// walkStore is loadedStore with a BTC-PERP book: asks 50000.5 x0.1, 50010 x0.2, 50600 x5 (outside
// a 1% bound from the 50000 mid); bids 49999.5 x0.1, 49990 x0.3.
func walkStore(t *testing.T) *Store {
	now := t0
	s := loadedStore(&now)
	s.Apply(BookMsg{At: now, Book: api.OrderBook{Symbol: "BTC-PERP",
		Asks: []api.BookLevel{lv("50000.5", "0.1"), lv("50010", "0.2"), lv("50600", "5")},
		Bids: []api.BookLevel{lv("49999.5", "0.1"), lv("49990", "0.3")}}})
	return s
}

// TestPreviewWalksTheBook: a market buy of 0.5 takes 0.1 at 50000.5 and 0.2 at 50010 within its
// 1% bound (worst 50500) and no more: expected average 50006.833..., fillable 0.3, and the preview
// says in words that 0.2 would be cancelled. Guards: the price bound's comparison flipped (all 0.5
// filled at 50600), the size cap dropped, the slippage sign flipped, the short warning dropped,
// and the fill margin computed on the whole size.
func TestPreviewWalksTheBook(t *testing.T) {
	s := walkStore(t)
	co, errs := s.CheckOrder(OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Market, Size: "0.5"}, DefaultGuard())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	w := co.Preview.Walk
	avg := d("50000.5").Mul(d("0.1")).Add(d("50010").Mul(d("0.2"))).Div(d("0.3"))
	if !w.Known || !w.Fillable.Equal(d("0.3")) || !w.AvgPrice.Equal(avg) || !w.Mid.Equal(d("50000")) {
		t.Fatalf("walk %+v", w)
	}
	if !w.SlippagePct.IsPositive() || !w.SlippageTicks.Equal(avg.Sub(d("50000")).Div(d("0.5"))) {
		t.Fatalf("slippage %s%% %s ticks", w.SlippagePct, w.SlippageTicks)
	}
	if !w.FillMargin.IsPositive() || !w.FillMargin.LessThan(co.Preview.MarginRequired) || !w.FillUtilization.LessThan(co.Preview.UtilizationAfter) {
		t.Fatalf("fill margin %s util %s; whole %s util %s", w.FillMargin, w.FillUtilization, co.Preview.MarginRequired, co.Preview.UtilizationAfter)
	}
	said := strings.Join(co.Warnings, "\n")
	if !strings.Contains(said, "the book holds only 0.300 of 0.500 BTC-PERP") || !strings.Contains(said, "0.200 would not fill and be cancelled") || !co.NeedsTypedConfirm {
		t.Fatalf("warnings %q typed %v", said, co.NeedsTypedConfirm)
	}

	// A sell that the bids fill whole: no warning, slippage positive (worse than mid) for a sell too.
	co, _ = s.CheckOrder(OrderIntent{Instrument: "BTC-PERP", Side: "sell", Type: Market, Size: "0.2"}, DefaultGuard())
	w = co.Preview.Walk
	if !w.Fillable.Equal(d("0.2")) || !w.AvgPrice.Equal(d("49994.75")) || !w.SlippageTicks.Equal(d("10.5")) || len(co.Warnings) > 0 {
		t.Fatalf("sell walk %+v warnings %q", w, co.Warnings)
	}
}

// TestPreviewWalkTifWords: a crossing limit's remainder rests (GTC, no typed confirmation), an
// IOC's is cancelled, a FOK fills nothing; a passive limit is not walked. Guards: the tif branches
// swapped, a passive limit walked.
func TestPreviewWalkTifWords(t *testing.T) {
	s := walkStore(t)
	for tif, want := range map[string]string{"GTC": "0.200 would rest on the book at 50,010", "IOC": "would not fill and be cancelled (IOC)", "FOK": "FOK order would fill nothing"} {
		in := OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Limit, Price: "50010", Size: "0.5", Tif: tif}
		co, errs := s.CheckOrder(in, DefaultGuard())
		said := strings.Join(co.Warnings, "\n")
		if len(errs) > 0 || !co.Preview.Walk.Fillable.Equal(d("0.3")) || !strings.Contains(said, want) || co.NeedsTypedConfirm != (tif != "GTC") {
			t.Errorf("%s: %v walk %+v warnings %q typed %v", tif, errs, co.Preview.Walk, said, co.NeedsTypedConfirm)
		}
	}
	co, _ := s.CheckOrder(limitBuy("BTC-PERP", "49000", "0.5"), DefaultGuard())
	if co.Preview.Walk.Known {
		t.Fatalf("passive limit walked: %+v", co.Preview.Walk)
	}
}

// TestSellLimitTakesTheBidAtItsPrice: a sell limit priced exactly at a bid takes that bid (at or
// better than its price): an IOC sell of 0.4 at 49990 takes 0.1 at 49999.5 and 0.3 at 49990.
// Guards the sell side's price bound made strict (mutant walk/sell-limit-boundary).
func TestSellLimitTakesTheBidAtItsPrice(t *testing.T) {
	s := walkStore(t)
	co, errs := s.CheckOrder(OrderIntent{Instrument: "BTC-PERP", Side: "sell", Type: Limit, Price: "49990", Size: "0.4", Tif: api.TifIOC}, DefaultGuard())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if w := co.Preview.Walk; !w.Known || !w.Fillable.Equal(d("0.4")) || !w.Fills.Equal(d("0.4")) || len(co.Warnings) > 0 {
		t.Fatalf("walk %+v warnings %q", w, co.Warnings)
	}
}
