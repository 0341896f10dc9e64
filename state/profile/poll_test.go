package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEveryCadenceIsAPollSetting: each of the panes' cadences is a [poll] setting of the config
// file that reaches Intervals; the others keep their defaults.
func TestEveryCadenceIsAPollSetting(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	body := "[poll]\nfills = \"7s\"\nhistory = \"8s\"\nleverage = \"9s\"\nbrokers = \"2m\"\nequity = \"11s\"\nfunding = \"12s\"\ntransfers = \"13s\"\n"
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := f.Poll.Intervals()
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultIntervals()
	want.Fills, want.History, want.Leverage, want.Brokers = 7*time.Second, 8*time.Second, 9*time.Second, 2*time.Minute
	want.Equity, want.Funding, want.Transfers = 11*time.Second, 12*time.Second, 13*time.Second
	if iv != want {
		t.Errorf("intervals %+v, want %+v", iv, want)
	}
	if (Intervals{}).WithDefaults() != DefaultIntervals() {
		t.Error("a zero Intervals does not take every default")
	}
}

// TestBadPollValuesSayWhatAndTheRange: a value that is no duration, too fast or too slow is
// refused with the setting's name and the range it takes.
func TestBadPollValuesSayWhatAndTheRange(t *testing.T) {
	for _, c := range []struct {
		poll Poll
		want []string
	}{
		{Poll{Fills: "often"}, []string{"[poll] fills", "want a duration"}},
		{Poll{Brokers: "1s"}, []string{"[poll] brokers = 1s is too fast", "from 10s to 1h0m0s"}},
		{Poll{Equity: "2h"}, []string{"[poll] equity = 2h0m0s is too slow", "at most 1h0m0s", "from 5s"}},
		{Poll{Tickers: "-1s"}, []string{"[poll] tickers", "too fast", "at least 200ms"}},
		{Poll{Transfers: "0"}, []string{"[poll] transfers", "too fast"}},
	} {
		_, err := c.poll.Intervals()
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %v, want %q", c.poll, err, w)
			}
		}
	}
}
