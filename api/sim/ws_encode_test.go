package sim

import (
	"bytes"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// TestHandWrittenFramesMatchEncodingJSON (issue #34): the ticker and mids notifications written
// by hand are byte for byte what encoding/json writes (notificationFrame), for every market of a
// simulator with synthetic markets after a minute of trading (the values the stream sends), and
// for made-up edge cases: names encoding/json escapes, zero, negative and small figures, an empty
// and a nil list. And a fan-out's 500 tickers cost far fewer allocations than encoding/json's
// (the same test measures both). Guards a field left out, reordered, renamed, quoted or not,
// and a hand-written frame dearer than the one it replaces.
func TestHandWrittenFramesMatchEncodingJSON(t *testing.T) {
	s := New(WithSeed(5), WithClock(NewTestClock(testStart)), WithMarkets(20), WithStep(10*time.Second))
	s.Advance(time.Minute)
	s.mu.Lock()
	var tickers []tickerStreamJSON
	for _, m := range s.eng.markets {
		tickers = append(tickers, tickerOut(s.eng, m))
	}
	mids := midsOut(s.eng.markets)
	s.mu.Unlock()
	if len(tickers) < 20 {
		t.Fatalf("%d markets, want the default ones and 20 synthetic", len(tickers))
	}
	odd := tickerStreamJSON{InstrumentName: `a"b\c<d>&e` + "\u00e9\u2028\x01", Symbol: "Z\u2029", Type: "",
		MarkPrice: nm(d("-0.000001")), MidPrice: nm(d("0")), FundingRate: nm(d("-12345678901234567890.5")), LastUpdated: -1}
	tickers = append(tickers, odd, tickerStreamJSON{})
	match := func(channel string, hand, std any) {
		t.Helper()
		want, err := notificationFrame(channel, std)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendFrame([]byte("kept"), channel, hand)
		if err != nil || !bytes.Equal(got[4:], want) || string(got[:4]) != "kept" {
			t.Errorf("%s:\nhand %s (%v)\njson %s", channel, got, err, want)
		}
	}
	for _, tk := range tickers {
		match("ticker:"+tk.Symbol, tk, tk)
		match("ticker:all", tk, tk)
	}
	match("mids:all", midsJSON(mids), mids)
	match("mids:"+mids[0].Symbol, midsJSON(mids[:1]), mids[:1])
	odds := []api.Mid{{Symbol: odd.InstrumentName, MidPrice: d("-1.5")}, {}}
	match("mids:<all>", midsJSON(odds), odds)
	match("mids:all", midsJSON{}, []api.Mid{})
	match("mids:all", midsJSON(nil), []api.Mid(nil))

	std := testing.AllocsPerRun(5, func() {
		for range 500 / len(tickers) {
			for _, tk := range tickers {
				_, _ = notificationFrame("ticker:all", tk)
			}
		}
	})
	buf := make([]byte, 0, 1<<20)
	hand := testing.AllocsPerRun(5, func() {
		b := buf[:0]
		for range 500 / len(tickers) {
			for _, tk := range tickers {
				b, _ = appendFrame(b, "ticker:all", tk)
			}
		}
	})
	t.Logf("500 tickers: %.0f allocations written by hand, %.0f by encoding/json", hand, std)
	if hand*3 > std {
		t.Errorf("500 tickers: %.0f allocations written by hand, %.0f by encoding/json: want under a third", hand, std)
	}
}

// TestAppendDecimalIsString: appendDecimal writes what String does, for coefficients with and
// without trailing zeros, of 1 to 20 digits, either sign, at exponents 19 to -20. Guards the
// point misplaced, trailing zeros kept, leading zeros lost and an overflowing coefficient.
func TestAppendDecimalIsString(t *testing.T) {
	t.Parallel()
	coefs := []string{"0", "1", "7", "10", "100", "105", "1050", "123456789", "100000000000000000",
		"999999999999999999", "1000000000000000000", "9223372036854775807", "12345678901234567890"}
	for _, c := range coefs {
		for _, sign := range []string{"", "-"} {
			for exp := int32(19); exp >= -20; exp-- {
				v := decimal.NewFromBigInt(d(sign+c).BigInt(), exp)
				if got, want := string(appendDecimal([]byte("x"), v)), "x"+v.String(); got != want {
					t.Errorf("%se%d: %q, want %q", sign+c, exp, got, want)
				}
			}
		}
	}
}
