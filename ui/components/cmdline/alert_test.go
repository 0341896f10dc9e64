package cmdline

import (
	"strings"
	"testing"
)

func TestAlertLines(t *testing.T) {
	for _, tc := range []struct {
		line, rule  string
		list, alert bool
	}{
		{"alert btc > 100000", "btc > 100000", false, true},
		{"  ALERT eth liq < 5%", "eth liq < 5%", false, true},
		{"alerts", "", true, true},
		{"alerts now", "", true, false},
		{"buy 0.1 btc 97000", "", false, false},
	} {
		rule, list, ok := alertLine(tc.line)
		if rule != tc.rule || list != tc.list || ok != tc.alert {
			t.Errorf("%q: %q %v %v", tc.line, rule, list, ok)
		}
	}
	if u := Usage("alert btc"); !strings.Contains(u, "eth liq < 5%") {
		t.Errorf("usage %q", u)
	}
}
