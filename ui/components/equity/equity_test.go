package equity

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

var t0 = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func points(values ...string) []api.AccountSnapshot {
	out := make([]api.AccountSnapshot, len(values))
	for i, v := range values {
		out[i] = api.AccountSnapshot{AccountValue: d(v), TotalVolume: decimal.NewFromInt(int64(100 * i * i)), TotalPnl: d("-3.5"),
			Time: api.Time{Time: t0.Add(time.Duration(i) * time.Minute)}}
	}
	return out
}

// TestCandles: each bar runs from the value before to the point's own, high and low the larger
// and smaller, volume the volume traded since the point before. Guards the bar's open (the
// point's own value: every bar flat, no curve) and the volume's difference (the running total:
// bars that only grow).
func TestCandles(t *testing.T) {
	cs := Candles(points("100", "110", "105"))
	if len(cs) != 3 {
		t.Fatalf("%d candles", len(cs))
	}
	want := [][5]string{{"100", "100", "100", "100", "0"}, {"100", "110", "110", "100", "100"}, {"110", "110", "105", "105", "300"}}
	for i, c := range cs {
		got := [5]string{c.Open.String(), c.High.String(), c.Close.String(), c.Low.String(), c.Volume.String()}
		if got != want[i] {
			t.Errorf("bar %d (o h c l v) = %v, want %v", i, got, want[i])
		}
	}
	// A total volume that went down (the server reset it) is no negative bar.
	ps := points("1", "2")
	ps[1].TotalVolume = decimal.Zero
	ps[0].TotalVolume = d("50")
	if v := Candles(ps)[1].Volume; !v.IsZero() {
		t.Errorf("volume %s after a reset", v)
	}
}

// TestEquityView: the header says the value now, its change over the series and the PnL, named
// realized (the Account pane's Total PnL adds the unrealized: #13 QA saw "PnL -1.08" there beside
// "Total PnL +36.55" here and no word why); the chart fills the rest; the view is exactly its size.
func TestEquityView(t *testing.T) {
	s := state.New(func() time.Time { return t0 })
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	p := New(c, true)
	p.SetSize(80, 12)
	if v := p.View(); !strings.Contains(v, "loading equity…") {
		t.Errorf("before the first answer:\n%s", v)
	}
	s.Apply(state.EquityMsg{Gen: 1, At: t0, Points: points("100000", "100250.5", "99900", "100500")})
	p.Update(common.DataMsg{Kind: state.KindEquity})
	v := p.View()
	lines := strings.Split(v, "\n")
	if len(lines) != 12 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if w := lipgloss.Width(l); w != 80 {
			t.Fatalf("a line %d wide: %q", w, l)
		}
	}
	// Until the transfers load, the change says it includes them (issue #31, 13).
	if want := "Spot + perp value 100,500.00 USD · +500.00 (+0.50%) incl. transfers"; !strings.HasPrefix(lines[0], want) {
		t.Errorf("header %q, want %q", lines[0], want)
	}
	p.SetSize(120, 12) // room for the start of the series too
	if want := "Spot + perp value 100,500.00 USD · +500.00 (+0.50%) incl. transfers since 01-29 12:00:00 · realized PnL -3.50"; !strings.HasPrefix(p.View(), want) {
		t.Errorf("header at 120 %q, want %q", strings.SplitN(p.View(), "\n", 2)[0], want)
	}
	if !strings.Contains(v, "12:0") {
		t.Errorf("no time axis:\n%s", v)
	}
}

// TestEquityChangeLeavesTransfersOut (issue #31, 13): a withdrawal of 1,000 USDC (and its 1 USDC
// fee) in the series is no loss: the change is the value's less what transfers moved (-501.00 of
// value is +500.00 of result), and the transfers are said beside it; a deposit before the series
// and a move between the account's own balances count for nothing; the header says the value is
// spot and perp together. Guards the change counting a withdrawal as a loss.
func TestEquityChangeLeavesTransfersOut(t *testing.T) {
	const me = "0x1111111111111111111111111111111111111111"
	s := state.New(func() time.Time { return t0 })
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.Account = me
	p := New(c, true)
	p.SetSize(120, 12)
	s.Apply(state.CollateralMsg{Gen: 1, At: t0, Collateral: []api.Collateral{{ID: 0, Symbol: "USDC", Decimals: 6}}})
	s.Apply(state.TransfersMsg{Gen: 1, At: t0, Transfers: []api.TransferRecord{
		{Type: api.TransferDerivativeWithdraw, From: me, To: me, CollateralID: 0, Amount: d("1000"), Fee: d("1"), Time: api.Time{Time: t0.Add(90 * time.Second)}},
		{Type: api.TransferInternal, From: me, To: me, CollateralID: 0, Amount: d("50"), Time: api.Time{Time: t0.Add(100 * time.Second)}},
		{Type: api.TransferDeposit, From: me, To: me, CollateralID: 0, Amount: d("100000"), Time: api.Time{Time: t0.Add(-time.Hour)}},
	}})
	s.Apply(state.EquityMsg{Gen: 1, At: t0, Points: points("100000", "100250.5", "99000", "99499")})
	p.Update(common.DataMsg{Kind: state.KindEquity})
	p.Update(common.DataMsg{Kind: state.KindTransfers})
	want := "Spot + perp value 99,499.00 USD · +500.00 (+0.50%) · transfers -1,001.00 since 01-29 12:00:00"
	if got := strings.SplitN(p.View(), "\n", 2)[0]; !strings.HasPrefix(got, want) {
		t.Errorf("header %q, want %q", got, want)
	}
}
