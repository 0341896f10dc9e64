package state

import "testing"

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
