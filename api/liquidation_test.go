package api

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestLiquidationPrice: the rule Equity + Size*P - Cost = OtherMM + MMR*|Size|*P - MMD solved for
// P, long and short, with other positions' maintenance margin and a tier's deduction; zero when
// flat or when no positive price liquidates the position.
func TestLiquidationPrice(t *testing.T) {
	d := decimal.RequireFromString
	cases := []struct {
		name string
		l    Liquidation
		want string
	}{
		// 1 at 100 with 10 of equity, 1% mmr: 10 + p - 100 = 0.01 p: p = 90 / 0.99.
		{"long", Liquidation{Size: d("1"), Cost: d("100"), Equity: d("10"), MMR: d("0.01")}, "90.90909091"},
		// short 1 at 100: 10 - p + 100 = 0.01 p: p = 110 / 1.01.
		{"short", Liquidation{Size: d("-1"), Cost: d("-100"), Equity: d("10"), MMR: d("0.01")}, "108.91089109"},
		// other positions need 5, the tier deducts 1: 10 + p - 100 = 5 + 0.01 p - 1: p = 94 / 0.99.
		{"others and deduction", Liquidation{Size: d("1"), Cost: d("100"), Equity: d("10"), OtherMM: d("5"), MMR: d("0.01"), MMD: d("1")}, "94.94949495"},
		{"covered", Liquidation{Size: d("1"), Cost: d("100"), Equity: d("200"), MMR: d("0.01")}, "0"},
		{"flat", Liquidation{Equity: d("10"), MMR: d("0.01")}, "0"},
	}
	for _, tc := range cases {
		if got := tc.l.Price(); !got.Equal(d(tc.want)) {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
