package chart

import (
	"math"
	"strconv"
	"strings"
)

// formatPrice writes v with the given decimals and thousands separators.
func formatPrice(v float64, decimals int32) string {
	s := strconv.FormatFloat(v, 'f', int(max(decimals, 0)), 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	if neg && strings.Trim(s, "0.") != "" {
		b.WriteByte('-')
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// labelWidth is the width of the widest price label of the range.
func labelWidth(lo, hi, volume float64, decimals int32) int {
	return max(len(formatPrice(lo, decimals)), len(formatPrice(hi, decimals)), len(compact(volume)))
}

// compact writes a volume in at most six characters: 950, 12.3k, 4.56M, 7.8B.
func compact(v float64) string {
	units := []struct {
		div    float64
		suffix string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}}
	for _, u := range units {
		if math.Abs(v) >= u.div {
			return trimZeros(strconv.FormatFloat(v/u.div, 'f', 2, 64)) + u.suffix
		}
	}
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// fit pads or cuts s to exactly n columns (labels are ASCII).
func fit(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}
