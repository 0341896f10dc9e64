package alert

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestParseReadsTheGrammar(t *testing.T) {
	for _, tc := range []struct {
		in, canon string
		kind      Kind
	}{
		{"btc > 100000", "BTC mark > 100000", KindPrice},
		{"BTC-PERP mark > 97,240.0", "BTC-PERP mark > 97240", KindPrice},
		{"eth last below 3000", "ETH last < 3000", KindPrice},
		{"btc mid >= 97000 once", "BTC mid > 97000 once", KindPrice},
		{"btc move > 2% in 5m", "BTC move > 2% in 5m", KindMove},
		{"eth liq < 5%", "ETH liq < 5%", KindLiq},
		{"margin > 80%", "margin > 80%", KindMargin},
		{"btc funding > 0.01%", "BTC funding > 0.01%", KindFunding},
		{"btc funding < -0.0001", "BTC funding < -0.01%", KindFunding},
		{"btc fills", "BTC fill", KindOrder},
		{"funding payment > 5", "funding payment > 5", KindPayment},
		{"eth funding payment > 2.5 once", "ETH funding payment > 2.5 once", KindPayment},
		{"partial", "partial", KindOrder},
		{"eth cancelled repeat", "ETH cancel", KindOrder},
		{"triggered", "trigger", KindOrder},
		{"stream down > 30s", "stream down > 30s", KindDown},
		{"exchange down > 2m rearm 1% cooldown 0s", "exchange down > 120s rearm 1% cooldown 0s", KindDown},
	} {
		r, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if r.Kind != tc.kind || r.Canon() != tc.canon {
			t.Errorf("%q: got %s %q, want %s %q", tc.in, r.Kind, r.Canon(), tc.kind, tc.canon)
		}
		back, err := Parse(r.Canon())
		if err != nil || back.ID != r.ID {
			t.Errorf("%q: canon %q reads back as %v (%v); ids %s %s", tc.in, r.Canon(), back, err, back.ID, r.ID)
		}
	}
}

func TestParseRefusesWithWhatToWrite(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "empty rule",
		"btc":                  "after BTC write",
		"btc > ":               "ends",
		"btc > -5":             "above zero",
		"btc > 5%":             "above zero",
		"eth liq > 5%":         "liq alerts take <",
		"margin < 80%":         "margin alerts take >",
		"btc move > 2%":        "say the window",
		"btc move > 2% in 5x":  "not a time",
		"stream up":            "stream down > 30s",
		"btc > 1 loudly":       "once, rearm",
		"b\x1b[2Jc > 1":        "not an instrument",
		"btc > 1e9":            "number",
		"funding > 5":          "funding payment > 5",
		"funding payment > 5%": "USD above zero",
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %q", in, err, want)
		}
		if err != nil && strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%q: the error carries an escape: %q", in, err)
		}
	}
}

func TestStableIDIsTheDefinitions(t *testing.T) {
	a, _ := Parse("btc > 100000")
	b, _ := Parse("BTC mark >100,000")
	c, _ := Parse("btc > 100001")
	if a.ID != b.ID || a.ID == c.ID || !strings.HasPrefix(a.ID, "al-") {
		t.Fatalf("ids %s %s %s", a.ID, b.ID, c.ID)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"btc > 100000", "eth liq < 5%", "btc move > 2% in 5m", "margin > 80%",
		"stream down > 30s", "btc funding < -0.01%", "fills once", "btc > 1 rearm 1% cooldown 1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(r.Canon())
		if err != nil {
			t.Fatalf("%q parsed to %q which does not parse: %v", s, r.Canon(), err)
		}
		if back.Canon() != r.Canon() || back.ID != r.ID {
			t.Fatalf("%q: %q then %q", s, r.Canon(), back.Canon())
		}
		if r.Window < 0 || r.Level.GreaterThan(decimal.New(1, 41)) || r.Cooldown > 24*time.Hour {
			t.Fatalf("%q: out of bounds %+v", s, r)
		}
	})
}
