package state

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// rowValue is the value of the preview row labelled label ("" when there is none).
func rowValue(rows []PreviewRow, label string) string {
	for _, r := range rows {
		if r.Label == label {
			return r.Value
		}
	}
	return ""
}

// TestPreviewFeeOnWhatFills (#17): when walkStore's book cannot fill a buy of 0.5 (it fills 0.3 for
// 15,002.05 USD: 0.1 at 50,000.5 and 0.2 at 50,010), the fee is on what really happens: the taker
// rate (0.045%) on the 0.3 that fills at once, the maker rate (0.015%) on a GTC limit's 0.2 that
// rests, nothing on what is cancelled; a FOK fills nothing and pays nothing. Mutations it kills:
// the fee left on the whole size (11.25 for the market order), the maker part dropped or charged
// at the taker rate, a FOK charged for the part the book holds, the rest of an IOC charged.
func TestPreviewFeeOnWhatFills(t *testing.T) {
	s := walkStore(t)
	market := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Market, Size: "0.5"}, DefaultGuard())
	checkDec(t, "market fee", market.Preview.Fee, "6.7509225") // 15,002.05 x 0.045%
	w := market.Preview.Walk
	checkDec(t, "market fills", w.Fills, "0.3")
	checkDec(t, "market cancelled", w.Cancelled, "0.2")
	checkDec(t, "market rests", w.Rests, "0")
	for tif, want := range map[string]string{
		"GTC": "8.2512225", // + 0.2 x 50,010 x 0.015%
		"IOC": "6.7509225",
		"FOK": "0",
	} {
		co := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Limit, Price: "50010", Size: "0.5", Tif: tif}, DefaultGuard())
		checkDec(t, tif+" fee", co.Preview.Fee, want)
	}
	// A market order the book fills whole has its notional and fee at the expected fills (the
	// bids give 9,998.95 USD for 0.2), not at the mid 50,000 (issue #31, 13: 10,000 and 4.50).
	whole := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "sell", Type: Market, Size: "0.2"}, DefaultGuard())
	checkDec(t, "whole notional", whole.Preview.Notional, "9998.95")
	checkDec(t, "whole fee", whole.Preview.Fee, "4.4995275") // 9,998.95 x 0.045%
}

// TestPreviewMarginOnWhatFills (#17): the margin, utilization and liquidation estimate the
// preview shows for a market order the book cannot fill whole are those of the 0.3 that fills
// (0.3 x 50,500 (the rule values a market buy at its worst price) / 10 = 1,515 USD; (600 + 1,515) /
// 12,000 = 17.63% used after) and the rows say so; a FOK that fills nothing needs no margin and
// leaves the utilization at 5%. Mutations it kills: the fill margin on the whole size (2,525), the
// FOK's on the size the book holds, the rows showing the whole order's figures when it is partial.
func TestPreviewMarginOnWhatFills(t *testing.T) {
	s := walkStore(t)
	co := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Market, Size: "0.5"}, DefaultGuard())
	w := co.Preview.Walk
	checkDec(t, "fill margin", w.FillMargin, "1515")
	checkDec(t, "fill utilization", w.FillUtilization, "17.625")
	checkDec(t, "whole margin", co.Preview.MarginRequired, "2525")
	rows := co.PreviewRows()
	if got := rowValue(rows, RowMargin); got != "1,515.00 USD at 10x (valued at the worst price 50,500.0), on the 0.300 that fills" {
		t.Errorf("margin row %q", got)
	}
	if got := rowValue(rows, RowUtilization); got != "17.63%" {
		t.Errorf("utilization row %q", got)
	}
	if got := rowValue(rows, RowFee); got != "6.75 USD (taker on the 0.300 that fills)" {
		t.Errorf("fee row %q", got)
	}
	liq := "none"
	if w.FillLiquidation.IsPositive() {
		liq = FormatPrice(w.FillLiquidation, 1)
	}
	if got := rowValue(rows, RowLiquidation); got != liq {
		t.Errorf("liquidation row %q, want the fill's %q", got, liq)
	}

	fok := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Limit, Price: "50010", Size: "0.5", Tif: "FOK"}, DefaultGuard())
	checkDec(t, "FOK fill margin", fok.Preview.Walk.FillMargin, "0")
	checkDec(t, "FOK fill utilization", fok.Preview.Walk.FillUtilization, "5")
	rows = fok.PreviewRows()
	if got := rowValue(rows, RowMargin); got != "0.00 USD: nothing fills" || rowValue(rows, RowUtilization) != "5.00%" {
		t.Errorf("FOK rows %+v", rows)
	}

	// A GTC limit whose rest rests keeps the whole order's margin (the resting part reserves it).
	gtc := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Limit, Price: "50010", Size: "0.5"}, DefaultGuard())
	rows = gtc.PreviewRows()
	if got := rowValue(rows, RowMargin); got != "2,500.50 USD at 10x" || !strings.Contains(rowValue(rows, RowFee), "maker on the 0.200 that rests") {
		t.Errorf("GTC rows %+v", rows)
	}
}

// TestPreviewRowsSayMakerOrTaker (#13): a limit order that cannot cross pays the maker rate and
// the rows say "maker"; one that crosses (the book fills it whole) says "taker"; post-only is maker;
// a perp always has a liquidation row ("none" when the equity covers a fall to zero). Mutations it
// kills: the words swapped, the liquidation row left out when there is no price.
func TestPreviewRowsSayMakerOrTaker(t *testing.T) {
	s := walkStore(t)
	for _, tc := range []struct {
		in   OrderIntent
		want string
	}{
		{limitBuy("BTC-PERP", "49000", "0.1"), "0.74 USD (maker)"},   // 4,900 x 0.015%
		{limitBuy("BTC-PERP", "50000.5", "0.1"), "2.25 USD (taker)"}, // 5,000.05 x 0.045%
		{OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Limit, Price: "49000", Size: "0.1", PostOnly: true}, "0.74 USD (maker)"},
	} {
		co := mustCheck(t, s, tc.in, DefaultGuard())
		rows := co.PreviewRows()
		if got := rowValue(rows, RowFee); got != tc.want {
			t.Errorf("%+v: fee row %q, want %q", tc.in, got, tc.want)
		}
		if rowValue(rows, RowLiquidation) == "" {
			t.Errorf("%+v: no liquidation row: %+v", tc.in, rows)
		}
	}
}

// TestPreviewSaysWhatTheMarginIsValuedAt (QA item 11): the exchange values margin at the highest
// of the mark, the order's price and the trigger (api.MarginOrder), so a buy under the mark needs
// the mark's margin, and the row says so; a sell over the mark is valued at its own price and the
// row adds nothing; a market order's notional is at the mid, so a margin at its worst price is
// said too. Mutations it kills: the note dropped, the note on every order (the price==basis
// branch dropped), the mark and the price swapped in marginBasis, a comparison flipped.
func TestPreviewSaysWhatTheMarginIsValuedAt(t *testing.T) {
	s := walkStore(t) // mark 50,000
	for _, tc := range []struct {
		in   OrderIntent
		want string
	}{
		{limitBuy("BTC-PERP", "49000", "0.1"), "500.00 USD at 10x (valued at the mark 50,000.0)"},
		{OrderIntent{Instrument: "BTC-PERP", Side: "sell", Type: Limit, Price: "51000", Size: "0.1"}, "510.00 USD at 10x"},
		{OrderIntent{Instrument: "BTC-PERP", Side: "sell", Type: Market, Size: "0.2"}, "1,000.00 USD at 10x (valued at the mark 50,000.0)"},
		{OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Market, Size: "0.2"}, "1,010.00 USD at 10x (valued at the worst price 50,500.0)"},
	} {
		co := mustCheck(t, s, tc.in, DefaultGuard())
		if got := rowValue(co.PreviewRows(), RowMargin); got != tc.want {
			t.Errorf("%s %s @ %q: margin row %q, want %q", tc.in.Side, tc.in.Size, tc.in.Price, got, tc.want)
		}
	}
}

// TestMarginBasis: which price the rule values an order at. Mutations it kills: the trigger
// case dropped (a trigger above the mark read as the mark), ties not going to the price.
func TestMarginBasis(t *testing.T) {
	for _, tc := range []struct {
		price, trig, mark, at, basis string
	}{
		{"100", "0", "90", "100", MarginAtPrice},
		{"100", "0", "100", "100", MarginAtPrice},
		{"90", "0", "100", "100", MarginAtMark},
		{"90", "110", "100", "110", MarginAtTrigger},
		{"90", "95", "100", "100", MarginAtMark},
	} {
		rule := api.MarginOrder{Buy: true, Size: d("1"), Price: d(tc.price), Trigger: d(tc.trig), Mark: d(tc.mark), Leverage: d("10")}
		at, basis := marginBasis(rule, rule.Need().Price)
		if !at.Equal(d(tc.at)) || basis != tc.basis {
			t.Errorf("%+v: %s %s", tc, at, basis)
		}
	}
}

// TestPreviewSaysCostAndWhenUtilizationMoves (issue #31, 13): a resting spot buy's Cost row is what
// it is expected to cost (98 USD and the maker fee), and what the exchange holds for it until it
// fills (the taker fee's reserve) is said as a hold, not as the cost; a resting perpetual limit's
// utilization is what it will be once it fills (the exchange's does not move while it rests),
// while a crossing order's is plain. Guards the reservation labelled as the cost and "Util. after"
// read as the account's state once the order is placed.
func TestPreviewSaysCostAndWhenUtilizationMoves(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	spot := mustCheck(t, s, limitBuy("HYPE/USDC", "20", "4.9"), Guard{})
	if got, want := rowValue(spot.PreviewRows(), RowCost), "98.01 USD with the fee; holds up to 98.04 until it fills"; got != want {
		t.Errorf("spot cost %q, want %q", got, want)
	}
	resting := mustCheck(t, s, limitBuy("ETH-PERP", "2900", "1"), Guard{})
	if got := rowValue(resting.PreviewRows(), RowUtilization); !resting.Rests || !strings.HasSuffix(got, "% once it fills") {
		t.Errorf("a resting limit's utilization %q (rests %v)", got, resting.Rests)
	}
	crossing := mustCheck(t, s, limitBuy("ETH-PERP", "3001", "1"), Guard{})
	if got := rowValue(crossing.PreviewRows(), RowUtilization); crossing.Rests || strings.Contains(got, "once") {
		t.Errorf("a crossing limit's utilization %q (rests %v)", got, crossing.Rests)
	}
}
