package profiles

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestARowShowsItsModeEquityAndMark: the active profile's row is marked, shows its mode and its
// equity in USD, and names an open dialog; a profile whose account has not arrived shows "…".
func TestARowShowsItsModeEquityAndMark(t *testing.T) {
	keys := commontest.Keys(t)
	st := common.NewStyles(commontest.Theme)
	v := Values{Rows: []Row{
		{Label: "main", Mode: "live", Loaded: true, Equity: decimal.RequireFromString("1234.5"), Active: true, DialogOpen: true},
		{Label: "alt", Mode: "demo"},
	}, ActiveLabel: "main", Width: 120, Height: 40}
	out := ansi.Strip(View(v, st, &keys))
	want := "• " + common.Pad("main", 12) + " " + common.Pad("live", 9) + " " + common.Fit("1,234.50 USD", 16, true) + "  dialog open"
	if !strings.Contains(out, want) {
		t.Fatalf("no row %q in:\n%s", want, out)
	}
	if want := "  " + common.Pad("alt", 12) + " " + common.Pad("demo", 9) + " " + common.Fit("…", 16, true); !strings.Contains(out, want) {
		t.Fatalf("no row %q in:\n%s", want, out)
	}
	if !strings.Contains(out, "vaults       of main") {
		t.Fatalf("no vaults row of the active profile in:\n%s", out)
	}
}
