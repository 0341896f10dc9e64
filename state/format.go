package state

import (
	"strings"

	"github.com/shopspring/decimal"
)

// FormatPrice writes d with exactly decimals places (rounded half away from zero) and a comma
// between thousands: 50123.5 at 2 -> "50,123.50"; -0.000123 at 6 -> "-0.000123".
func FormatPrice(d decimal.Decimal, decimals int32) string {
	return groupThousands(d.StringFixed(clampDecimals(decimals)))
}

// FormatSize writes a size like FormatPrice (use the instrument's SizeDecimals).
func FormatSize(d decimal.Decimal, decimals int32) string {
	return FormatPrice(d, decimals)
}

// FormatSigned writes d like FormatPrice with an explicit sign: "+1,234.50", "-3.00". A value that
// rounds to zero gets no sign ("0.00"), so the sign alone tells gain from loss.
func FormatSigned(d decimal.Decimal, decimals int32) string {
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
	s := FormatPrice(pct, decimals)
	if isZeroText(s) {
		s = strings.TrimPrefix(s, "-")
	}
	return s + "%"
}

// FormatSignedPercent is FormatPercent with an explicit + on gains: "+5.23%", "-1.20%", "0.00%".
func FormatSignedPercent(pct decimal.Decimal, decimals int32) string {
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
