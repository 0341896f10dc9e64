package session

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestSwitchNamesTheKnownProfiles: the first profile is active; Switch moves to another; an
// unknown name is refused naming those that exist (the top level as "top level"); a name twice
// is refused.
func TestSwitchNamesTheKnownProfiles(t *testing.T) {
	s, err := NewSet(TopLevel, "a", "b")
	if err != nil || s.Active() != TopLevel {
		t.Fatalf("new: %v %q", err, s.Active())
	}
	if err := s.Switch("b"); err != nil || s.Active() != "b" {
		t.Fatalf("switch b: %v %q", err, s.Active())
	}
	if err := s.Switch("c"); err == nil || !strings.Contains(err.Error(), "known: top level, a, b") || s.Active() != "b" {
		t.Fatalf("switch c: %v, active %q", err, s.Active())
	}
	if _, err := NewSet("a", "a"); err == nil {
		t.Fatal("a profile twice was accepted")
	}
	if _, err := NewSet(); err == nil {
		t.Fatal("no profile was accepted")
	}
}

// TestTheTotalIsTheSumOfTheProfiles: equity, margin used and unrealised PnL add up; positions and
// orders are every profile's; the net of an instrument is each profile's signed size summed; the
// total is loaded only when every profile is.
func TestTheTotalIsTheSumOfTheProfiles(t *testing.T) {
	a := Summary{Profile: "a", Loaded: true, Equity: d("1000.5"), MarginUsed: d("100"), Upnl: d("-3"),
		Positions: []api.Position{{Instrument: "ETH-PERP", Size: d("0.5")}}, Orders: []api.OrderRecord{{OrderID: 1}}}
	b := Summary{Profile: "b", Loaded: true, Equity: d("250.25"), MarginUsed: d("50"), Upnl: d("4.5"),
		Positions: []api.Position{{Instrument: "ETH-PERP", Size: d("-0.2")}, {Instrument: "BTC-PERP", Size: d("0.01")}}}
	tot := Total([]Summary{a, b})
	if !tot.Loaded || tot.Equity.String() != "1250.75" || tot.MarginUsed.String() != "150" || tot.Upnl.String() != "1.5" ||
		len(tot.Positions) != 3 || len(tot.Orders) != 1 {
		t.Fatalf("total %+v", tot)
	}
	if got := tot.MarginUse().StringFixed(4); got != "0.1199" {
		t.Fatalf("margin use %s", got)
	}
	nets := Nets([]Summary{a, b})
	if len(nets) != 2 || nets[0].Instrument != "BTC-PERP" || nets[1].Total.String() != "0.3" || nets[1].By["b"].String() != "-0.2" {
		t.Fatalf("nets %+v", nets)
	}
	b.Loaded = false
	if Total([]Summary{a, b}).Loaded {
		t.Fatal("a total with a profile not loaded says it is complete")
	}
	if !(Summary{}).MarginUse().IsZero() {
		t.Fatal("margin use with no equity")
	}
}
