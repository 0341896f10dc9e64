package state

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

func TestFormat(t *testing.T) {
	cases := []struct{ got, want string }{
		{FormatPrice(d("50123.5"), 2), "50,123.50"},
		{FormatPrice(d("1234567.891"), 1), "1,234,567.9"},
		{FormatPrice(d("999"), 0), "999"},
		{FormatPrice(d("1000"), 0), "1,000"},
		{FormatPrice(d("-1234.5"), 2), "-1,234.50"},
		{FormatPrice(d("0.000123"), 6), "0.000123"},
		{FormatPrice(d("0.000123"), 2), "0.00"},
		{FormatPrice(d("123456"), -1), "123,456"},
		{FormatSize(d("-0.5"), 3), "-0.500"},
		{FormatSize(d("100000"), 1), "100,000.0"},
		{FormatSigned(d("1234.5"), 2), "+1,234.50"},
		{FormatSigned(d("-3"), 2), "-3.00"},
		{FormatSigned(d("0"), 2), "0.00"},
		{FormatSigned(d("-0.001"), 2), "0.00"},
		{FormatPercent(d("45.678"), 2), "45.68%"},
		{FormatPercent(d("-1.2"), 1), "-1.2%"},
		{FormatPercent(d("-0.001"), 2), "0.00%"},
		{FormatSignedPercent(d("5.234"), 2), "+5.23%"},
		{FormatSignedPercent(d("-1.2"), 2), "-1.20%"},
		{FormatSignedPercent(d("0"), 2), "0.00%"},
	}
	for i, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

// TestNumberStyle (#24): the one number style, one row per kind of figure. Each row is written by
// the function both front ends call (the console's panes and the headless tables), so the two
// cannot differ; the mutations each row guards are named beside it.
func TestNumberStyle(t *testing.T) {
	dec := decimal.RequireFromString
	btc := Instrument{Name: "BTC-PERP", TickSize: dec("0.1"), LotSize: dec("0.0001")}
	sol := Instrument{Name: "SOL-PERP", TickSize: dec("0.001"), LotSize: dec("0.01")}
	eth := Instrument{Name: "ETH-PERP", TickSize: dec("0.01"), LotSize: dec("0.001")}
	trig := func(px string) api.OptDecimal { return api.OptDecimal{Decimal: dec(px), Valid: true} }
	slBTC := api.OrderRecord{Instrument: "BTC-PERP", Side: api.SideSell, Tpsl: api.TpslStopLoss, IsMarket: true, TriggerPx: trig("94439.5")}
	slSOL := api.OrderRecord{Instrument: "SOL-PERP", Side: api.SideSell, Tpsl: api.TpslStopLoss, IsMarket: true, TriggerPx: trig("179.83"),
		Unfilled: dec("25")}
	limitBTC := api.OrderRecord{Instrument: "BTC-PERP", Side: api.SideBuy, LimitPrice: dec("97000"), Unfilled: dec("0.1")}
	for _, tc := range []struct {
		kind, got, want string
	}{
		{"price at the tick, separators", FormatPrice(dec("97000.1"), 1), "97,000.1"},
		{"size at the lot", FormatSize(dec("0.01"), 4), "0.0100"},
		{"USD balance at 2", FormatBalance(dec("99897.678712"), "USDC", 6), "99,897.68"},
		{"other balance at its own decimals", FormatBalance(dec("1.5"), "WBTC", 8), "1.50000000"},
		{"18-decimal asset capped at 8", FormatBalance(dec("0.123456789012345678"), "WETH", 18), "0.12345679"},
		{"fee at 2", FormatUSDFee(dec("0.68267")), "0.68"},
		{"fee never rounded to zero", FormatUSDFee(dec("0.0011")), "<0.01"}, // mutation: drop the "<" branch
		{"rebate in words", FormatUSDFee(dec("-0.0125")), "rebate 0.01"},    // mutation: flipped sign test
		{"tiny rebate", FormatUSDFee(dec("-0.004")), "rebate <0.01"},        // both
		{"zero fee", FormatUSDFee(decimal.Zero), "0.00"},                    // mutation: "<0.01" for zero
		{"funding with its period", FormatFunding(dec("0.000019"), FundingPeriod), "+0.0019%/1h"},
		{"negative funding", FormatFunding(dec("-0.0000125"), 8*time.Hour), "-0.0013%/8h"}, // rounds half away from zero
		{"open interest with its unit", FormatOpenInterest(dec("12345.6"), "BTC-PERP"), "12.3K BTC"},
		{"large open interest", FormatOpenInterest(dec("2500000"), "ETH-PERP"), "2.50M ETH"},
		{"not applicable", NotApplicable, "—"},
		// QA item 10: every figure of a record or a notice goes through the instrument's tick and lot.
		{"trigger at the tick, separators", RecordTypeShort(&slBTC, btc), "sl @94,439.5"}, // mutation: the trigger's .String()
		{"trigger at a 3-decimal tick", RecordTypeShort(&slSOL, sol), "sl @179.830"},      // ... which gave "sl @179.83"
		{"order in words", RecordText(&limitBTC, btc), "buy 0.1000 BTC-PERP @ 97,000.0"},  // the cancel notice
		{"market order in words", RecordText(&slSOL, sol), "sell 25.00 SOL-PERP market sl @179.830"},
		{"price of an unknown instrument", Instrument{}.PriceText(dec("3406.06024")), "3,406.06024"}, // nothing rounded away
		{"average at the tick", eth.PriceText(dec("3406.06024")), "3,406.06"},
		{"size at the lot", eth.SizeText(dec("3.5")), "3.500"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.kind, tc.got, tc.want)
		}
	}
}

// TestCountAndTicksText (#13 QA 6): counts say "1 order" and "3 orders", never "order(s)"; a
// distance in ticks is whole ("331 ticks" for 331.1, "1 tick", "<1 tick" for a part of one).
// Guards a plural for one, a fraction of a tick shown, and a part of a tick rounded to "0 ticks".
func TestCountAndTicksText(t *testing.T) {
	for n, want := range map[int]string{0: "0 orders", 1: "1 order", 3: "3 orders"} {
		if got := Count(n, "order"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	for in, want := range map[string]string{"331.1": "331 ticks", "495.5": "496 ticks", "1": "1 tick", "1.2": "1 tick",
		"0.3": "<1 tick", "0": "0 ticks", "-2.6": "-3 ticks", "12345": "12,345 ticks"} {
		if got := TicksText(decimal.RequireFromString(in)); got != want {
			t.Errorf("TicksText(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestStringFixedMatchesDecimal: the int64 path writes what decimal.StringFixed writes (the
// rounding half away from zero, the padding, the sign, past the int64 range), for random and
// edge values, and formats a price without a big.Int. Guards: a rounding or padding mismatch in
// stringFixed; FormatPrice back on StringFixed for every price.
func TestStringFixedMatchesDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []string{"0", "-0.001", "0.005", "-0.005", "0.0049", "123.445", "-123.455", "999.995", "5e-30",
		"-922337203685477580.7", "99999999999999999.9", "1e18", "12345678901234567890.5", "-1.5e-19", "0.5"}
	for range 3000 {
		c := rng.Int64N(2_000_000_000_000) - 1_000_000_000_000
		vals = append(vals, decimal.New(c, int32(rng.IntN(30)-20)).String())
	}
	for _, s := range vals {
		d := decimal.RequireFromString(s)
		for places := int32(0); places <= 18; places++ {
			if got, want := stringFixed(d, places), d.StringFixed(places); got != want {
				t.Fatalf("stringFixed(%s, %d) = %q, want %q", s, places, got, want)
			}
			checkFormatsMatchDecimal(t, d, places)
		}
	}
	px := decimal.RequireFromString("-97278.65")
	for name, f := range map[string]func(decimal.Decimal, int32) string{"FormatPrice": FormatPrice, "FormatSigned": FormatSigned,
		"FormatPercent": FormatPercent, "FormatSignedPercent": FormatSignedPercent} {
		if n := testing.AllocsPerRun(20, func() { f(px, 1) }); n > 1 {
			t.Errorf("%s: %.0f allocations, want 1 (the string)", name, n)
		}
	}
}

// checkFormatsMatchDecimal: FormatPrice, FormatSigned, FormatPercent and FormatSignedPercent
// write what StringFixed's text with commas between thousands gives, a + before a gain, no sign
// on a figure that rounds to zero.
func checkFormatsMatchDecimal(t *testing.T, d decimal.Decimal, places int32) {
	t.Helper()
	plain := groupThousands(d.StringFixed(places))
	signed := plain
	switch {
	case isZeroText(plain):
		signed = strings.TrimPrefix(plain, "-")
		plain = signed
	case !strings.HasPrefix(plain, "-"):
		signed = "+" + plain
	}
	if got := FormatPrice(d, places); got != groupThousands(d.StringFixed(places)) {
		t.Fatalf("FormatPrice(%s, %d) = %q, want %q", d, places, got, groupThousands(d.StringFixed(places)))
	}
	if got := FormatSigned(d, places); got != signed {
		t.Fatalf("FormatSigned(%s, %d) = %q, want %q", d, places, got, signed)
	}
	if got := FormatPercent(d, places); got != plain+"%" {
		t.Fatalf("FormatPercent(%s, %d) = %q, want %q", d, places, got, plain+"%")
	}
	if got := FormatSignedPercent(d, places); got != signed+"%" {
		t.Fatalf("FormatSignedPercent(%s, %d) = %q, want %q", d, places, got, signed+"%")
	}
}

// FormatCompact writes what dividing by the library and StringFixed wrote ("1.23B", "-45.7K",
// "9,999.99"), at and around each threshold and for random figures, and no more than four
// allocations. Guards: a threshold off by one; a negative figure taken as small; the integer
// division rounding otherwise than the library's.
func TestFormatCompactMatchesTheLibrary(t *testing.T) {
	old := func(d decimal.Decimal) string {
		abs := d.Abs()
		switch {
		case abs.GreaterThanOrEqual(decimal.NewFromInt(1_000_000_000)):
			return d.Div(decimal.NewFromInt(1_000_000_000)).StringFixed(2) + "B"
		case abs.GreaterThanOrEqual(decimal.NewFromInt(1_000_000)):
			return d.Div(decimal.NewFromInt(1_000_000)).StringFixed(2) + "M"
		case abs.GreaterThanOrEqual(decimal.NewFromInt(10_000)):
			return d.Div(decimal.NewFromInt(1_000)).StringFixed(1) + "K"
		}
		return FormatPrice(d, 2)
	}
	vals := []string{"0", "9999.99", "10000", "-10000", "-9999.995", "999999.99", "1000000", "-1000000", "999999999.99",
		"1000000000", "-1000000000", "1004999.999", "10049.99", "1234567890123456789012.5", "0.005"}
	rng := rand.New(rand.NewPCG(34, 1))
	for range 5000 {
		vals = append(vals, decimal.New(rng.Int64N(2e15)-1e15, -rng.Int32N(9)).String())
	}
	for _, s := range vals {
		d := decimal.RequireFromString(s)
		if got, want := FormatCompact(d), old(d); got != want {
			t.Fatalf("FormatCompact(%s) = %q, want %q", s, got, want)
		}
	}
	vol := decimal.RequireFromString("123456789.12")
	if n := testing.AllocsPerRun(20, func() { FormatCompact(vol) }); n > 4 {
		t.Errorf("FormatCompact: %.0f allocations, want at most 4", n)
	}
}
