package state

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// FormatPrice writes d with exactly decimals places (rounded half away from zero) and a comma
// between thousands: 50123.5 at 2 -> "50,123.50"; -0.000123 at 6 -> "-0.000123".
func FormatPrice(d decimal.Decimal, decimals int32) string {
	if s, ok := fixedText(d, clampDecimals(decimals), false, ""); ok {
		return s
	}
	return groupThousands(d.StringFixed(clampDecimals(decimals)))
}

// FormatSize writes a size like FormatPrice (use the instrument's SizeDecimals).
func FormatSize(d decimal.Decimal, decimals int32) string {
	return FormatPrice(d, decimals)
}

// FormatSigned writes d like FormatPrice with an explicit sign: "+1,234.50", "-3.00". A value that
// rounds to zero gets no sign ("0.00"), so the sign alone tells gain from loss.
func FormatSigned(d decimal.Decimal, decimals int32) string {
	if s, ok := fixedText(d, clampDecimals(decimals), true, ""); ok {
		return s // a figure rounded to zero has neither sign
	}
	s := FormatPrice(d, decimals)
	if isZeroText(s) {
		return strings.TrimPrefix(s, "-")
	}
	if !strings.HasPrefix(s, "-") {
		return "+" + s
	}
	return s
}

// FormatPercent writes a value already in percent units with decimals places and a % sign:
// 45.678 at 2 -> "45.68%". Negative values keep their minus sign.
func FormatPercent(pct decimal.Decimal, decimals int32) string {
	if s, ok := fixedText(pct, clampDecimals(decimals), false, "%"); ok {
		return s
	}
	s := FormatPrice(pct, decimals)
	if isZeroText(s) {
		s = strings.TrimPrefix(s, "-")
	}
	return s + "%"
}

// FormatSignedPercent is FormatPercent with an explicit + on gains: "+5.23%", "-1.20%", "0.00%".
func FormatSignedPercent(pct decimal.Decimal, decimals int32) string {
	if s, ok := fixedText(pct, clampDecimals(decimals), true, "%"); ok {
		return s
	}
	return FormatSigned(pct, decimals) + "%"
}

// clampDecimals keeps a precision in a sane range (negative means 0; more than 18 is cut to 18).
func clampDecimals(n int32) int32 {
	if n < 0 {
		return 0
	}
	if n > 18 {
		return 18
	}
	return n
}

func isZeroText(s string) bool {
	return strings.Trim(s, "-0.,") == ""
}

// groupThousands inserts commas into the integer part of a plain decimal string.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	if len(intPart) <= 3 {
		return sign + intPart + frac
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/3 + 1)
	b.WriteString(sign)
	head := len(intPart) % 3
	if head > 0 {
		b.WriteString(intPart[:head])
	}
	for i := head; i < len(intPart); i += 3 {
		if b.Len() > len(sign) {
			b.WriteByte(',')
		}
		b.WriteString(intPart[i : i+3])
	}
	b.WriteString(frac)
	return b.String()
}

// Count is n of a noun, its plural when n is not 1: "1 order", "3 orders", "0 orders".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// NotApplicable is written where a figure does not apply (funding and open interest of a spot
// market, a best bid on an empty book), so it is never mistaken for a zero.
const NotApplicable = "—"

// DisplayDecimals is the one precision of fees and balances in a collateral: 2 for a US-dollar
// stablecoin, the asset's own for others (at most 8, past which a trader reads no difference).
func DisplayDecimals(symbol string, assetDecimals int32) int32 {
	switch strings.ToUpper(symbol) {
	case "", "USD", "USDC", "USDT", "USDE", "USDH", "DAI", "USDS":
		return 2
	}
	if assetDecimals <= 0 || assetDecimals > 8 {
		return 8
	}
	return assetDecimals
}

// FormatFee writes a fee at decimals places, never rounded to zero: a fee too small to show is
// "<0.01" (at 2 places). A negative fee is a rebate and says so in words ("rebate 0.01"), so it
// reads without colour. Zero is "0.00".
func FormatFee(fee decimal.Decimal, decimals int32) string {
	decimals = clampDecimals(decimals)
	abs := fee.Abs()
	s := FormatPrice(abs, decimals)
	if !abs.IsZero() && isZeroText(s) {
		s = "<" + decimal.New(1, -decimals).StringFixed(decimals)
	}
	if fee.IsNegative() {
		return "rebate " + s
	}
	return s
}

// FormatFunding writes a funding rate (a fraction per period) as a signed percentage with its
// period: 0.000019 per hour -> "+0.0019%/1h". A period of zero leaves the period out.
func FormatFunding(rate decimal.Decimal, period time.Duration) string {
	s := FormatSignedPercent(rate.Shift(2), 4)
	if period > 0 {
		s += "/" + periodText(period)
	}
	return s
}

// periodText is a funding period the short way: "1h", "8h", "30m", "1d".
func periodText(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/time.Minute)) + "m"
}

// FormatCompact writes a large amount with a suffix ("12.35M", "1.20B", "56.3K"), for volume and
// open interest; below 10,000 it is written in full at 2 places.
func FormatCompact(d decimal.Decimal) string {
	// |d| >= N, N a whole number, is |d's integer part| >= N: read without a big.Int.
	whole := int64(math.MaxInt64)
	if d.NumDigits()+int(d.Exponent()) <= 18 {
		whole = abs64(d.IntPart())
	}
	switch {
	case whole >= 1_000_000_000:
		return compactIn(d, 9, 2) + "B"
	case whole >= 1_000_000:
		return compactIn(d, 6, 2) + "M"
	case whole >= 10_000:
		return compactIn(d, 3, 1) + "K"
	}
	return FormatPrice(d, 2)
}

// compactIn is d / 10^k at places, as d.Div(10^k).StringFixed(places) writes it: the division
// by a power of ten is a shift of the exponent, exact, and the library's 16 places hold it
// whole unless d has more than 16 - k decimals (then the library divides, as it did).
func compactIn(d decimal.Decimal, k, places int32) string {
	if d.Exponent()-k >= -int32(decimal.DivisionPrecision) {
		return stringFixed(d.Shift(-k), places)
	}
	return d.Div(decimal.New(1, k)).StringFixed(places)
}

// FormatUSDFee is FormatFee at a US-dollar stablecoin's precision: "0.32", "<0.01", "rebate 0.01".
func FormatUSDFee(fee decimal.Decimal) string { return FormatFee(fee, DisplayDecimals("USDC", 6)) }

// FundingPeriod is how often funding is paid: every hour, on the hour (the exchange and the
// simulator alike), so a rate is per hour.
const FundingPeriod = time.Hour

// NextFunding is when the next funding payment falls after now: the next whole FundingPeriod
// (the top of the next hour).
func NextFunding(now time.Time) time.Time {
	return now.Truncate(FundingPeriod).Add(FundingPeriod)
}

// FormatOpenInterest writes open interest compactly with its unit, the instrument's base asset:
// "12.35K BTC".
func FormatOpenInterest(oi decimal.Decimal, symbol string) string {
	base := symbol
	if i := strings.IndexAny(symbol, "-/"); i > 0 {
		base = symbol[:i]
	}
	return FormatCompact(oi) + " " + base
}

// FormatBalance writes a balance of a collateral at its display precision (DisplayDecimals):
// "100,000.00" USDC, "1.25000000" WETH.
func FormatBalance(d decimal.Decimal, symbol string, assetDecimals int32) string {
	return FormatPrice(d, DisplayDecimals(symbol, assetDecimals))
}
