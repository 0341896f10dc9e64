package state

import (
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestSideText guards sell being the fallback for anything (a garbled side read as a sell).
func TestSideText(t *testing.T) {
	for in, want := range map[string]string{api.SideBuy: "buy", api.SideSell: "sell", "": "?", "x\x1b[2J": "?"} {
		if got := SideText(in); got != want {
			t.Errorf("SideText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOrderTypeWords: every front end's type words come from one table. Guards tp and sl swapped
// and market and limit swapped.
func TestOrderTypeWords(t *testing.T) {
	trig := api.OptDecimal{Decimal: dec("3300"), Valid: true}
	for _, tc := range []struct {
		tpsl          string
		market        bool
		text, long    string
		record, short string
		trigger       api.OptDecimal
	}{
		{"", false, "limit", "limit", "limit", "limit", api.OptDecimal{}},
		{"", true, "market", "market", "market", "market", api.OptDecimal{}},
		{api.TpslTakeProfit, false, "tp limit", "take profit (trigger), limit", "tp limit @3,300.0", "tp @3,300.0", trig},
		{api.TpslStopLoss, true, "sl market", "stop loss (trigger), market", "sl market @3,300.0", "sl @3,300.0", trig},
		{api.TpslStopLoss, true, "sl market", "stop loss (trigger), market", "sl market", "sl", api.OptDecimal{Decimal: dec("0"), Valid: true}},
	} {
		o := &api.OrderRecord{Tpsl: tc.tpsl, IsMarket: tc.market, TriggerPx: tc.trigger}
		in := Instrument{TickSize: dec("0.1")}
		got := []string{OrderTypeText(tc.tpsl, tc.market), OrderTypeLong(tc.tpsl, tc.market), RecordTypeText(o, in), RecordTypeShort(o, in)}
		want := []string{tc.text, tc.long, tc.record, tc.short}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%q market %v: %q, want %q", tc.tpsl, tc.market, got, want)
		}
	}
}

// TestFlagWords guards a flag dropped, the two swapped, or the abbreviations out of step.
func TestFlagWords(t *testing.T) {
	if got := FlagTexts(true, true); strings.Join(got, ",") != "reduce-only,post-only" {
		t.Errorf("both: %q", got)
	}
	if got := FlagTexts(false, true); strings.Join(got, ",") != "post-only" {
		t.Errorf("post-only: %q", got)
	}
	if got := FlagAbbrevs(true, false); strings.Join(got, ",") != "RO" {
		t.Errorf("RO: %q", got)
	}
	if got := FlagTexts(false, false); got != nil {
		t.Errorf("none: %q", got)
	}
}

// TestTimeText guards a local time zone leaking in and the zero time printed as year 1.
func TestTimeText(t *testing.T) {
	at := time.Date(2026, 3, 2, 10, 15, 4, 0, time.FixedZone("CET", 3600))
	for layout, want := range map[string]string{TimeShort: "03-02 09:15:04", TimeFull: "2026-03-02 09:15:04",
		TimeMinute: "2026-03-02 09:15", TimeExport: "2026-03-02T09:15:04.000Z"} {
		if got := TimeText(at, layout); got != want {
			t.Errorf("%s: %q, want %q", layout, got, want)
		}
	}
	if got := TimeText(time.Time{}, TimeFull); got != "" {
		t.Errorf("zero time: %q", got)
	}
}

// TestDirectionText guards two directions swapped and an unknown one dropped.
func TestDirectionText(t *testing.T) {
	for in, want := range map[string]string{api.DirOpenLong: "open long", api.DirOpenShort: "open short",
		api.DirCloseLong: "close long", api.DirCloseShort: "close short", "liquidation": "liquidation"} {
		if got := DirectionText(in); got != want {
			t.Errorf("DirectionText(%q) = %q, want %q", in, got, want)
		}
	}
}
