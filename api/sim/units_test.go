package sim

import (
	"testing"

	"github.com/shopspring/decimal"
)

// FuzzCountText: whenever the fast reader accepts a text, the decimal path reads the same count.
func FuzzCountText(f *testing.F) {
	for _, s := range []string{"97000.5", "0.0001", "1", "0.00100", "1e3", "-1", " 1", "1.", ".5", "0",
		"123456789012345678", "1234567890123456789", "000000000000000000000001", "97000.55"} {
		f.Add(s, "0.1")
		f.Add(s, "0.0001")
		f.Add(s, "25")
	}
	f.Fuzz(func(t *testing.T, s, unitText string) {
		d, err := decimal.NewFromString(unitText)
		if err != nil || !d.IsPositive() || d.Exponent() < -12 || d.Exponent() > 6 || d.Coefficient().BitLen() > 20 {
			return
		}
		u := mustUnit(unitText)
		n, ok := u.countText(s)
		if !ok {
			return
		}
		v, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatalf("countText(%q) = %d but the decimal path cannot read it: %v", s, n, err)
		}
		want, err := u.count(v, "x")
		if err != nil || want != n || n <= 0 {
			t.Fatalf("countText(%q) in %s = %d, the decimal path %d (%v)", s, unitText, n, want, err)
		}
	})
}

func TestCountText(t *testing.T) {
	t.Parallel()
	tick := mustUnit("0.1")
	for s, want := range map[string]int64{"97000.5": 970005, "97000.50": 970005, "0.1": 1, "10": 100, "007.0": 70} {
		if n, ok := tick.countText(s); !ok || n != want {
			t.Errorf("%q: %d %v, want %d", s, n, ok, want)
		}
	}
	for _, s := range []string{"97000.55", "0", "", "-1", "1e3", " 1", "1.", ".5", "1.2.3", "12345678901234567890"} {
		if n, ok := tick.countText(s); ok {
			t.Errorf("%q read as %d: the decimal path must explain it", s, n)
		}
	}
}
