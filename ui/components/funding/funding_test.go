package funding

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

var t0 = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// store is a store with BTC-PERP (id 1) and USDC (id 1).
func store() *state.Store {
	s := state.New(func() time.Time { return t0 })
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP",
		TickSize: d("0.1"), LotSize: d("0.0001"), MaxLeverage: d("50"), MinNotionalUSD: d("10")}}}})
	s.Apply(state.CollateralMsg{Gen: 1, At: t0, Collateral: []api.Collateral{{ID: 1, Symbol: "USDC", Decimals: 6}}})
	return s
}

// payments makes n hourly payments, newest first, alternating paid and received.
func payments(n int) []api.FundingPayment {
	out := make([]api.FundingPayment, n)
	for i := range out {
		amt := "-1.25"
		if i%2 == 1 {
			amt = "0.5"
		}
		out[i] = api.FundingPayment{InstrumentID: 1, SettlementCurrency: 1, Payment: d(amt), Rate: d("0.0000125"),
			MarkPrice: d("97000.12"), Size: d("-0.25"), Time: api.Time{Time: t0.Add(-time.Duration(i) * time.Hour)}}
	}
	return out
}

// TestFundingRowsAndNet: each payment at the instrument's and the collateral's precision (size
// signed, rate per hour, payment signed), newest first; the status line counts them and nets
// them. Guards the net's sign and the columns' formats.
func TestFundingRowsAndNet(t *testing.T) {
	s := store()
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	p := newPane(c, nil, source, true)
	p.SetSize(100, 6)
	s.Apply(state.FundingMsg{Gen: 1, At: t0, Page: api.Page[api.FundingPayment]{Page: 1, Limit: 100, TotalCount: 3, TotalPages: 1, Data: payments(3)}})
	p.Update(common.DataMsg{Kind: state.KindFunding})
	lines := strings.Split(p.View(), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, want := range []string{"01-29 12:00:00", "BTC-PERP", "-0.2500", "97,000.1", "+0.0013%/1h", "-1.25", "USDC"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("row 1 %q lacks %q", lines[1], want)
		}
	}
	if !strings.Contains(lines[2], "+0.50") {
		t.Errorf("row 2 %q: a payment received is positive", lines[2])
	}
	if !strings.HasPrefix(lines[5], "3 loaded · net -2.00 USDC · all") {
		t.Errorf("status %q", lines[5])
	}
	if p.Title() != "Funding (3)" {
		t.Errorf("title %q", p.Title())
	}
}

// TestFundingLoadsOlderPages: on the last row the pane asks for the next page, once, and the
// status line says so until it arrives. Guards the paging (nothing asked: older payments never
// show; asked twice: a page merged twice).
func TestFundingLoadsOlderPages(t *testing.T) {
	s := store()
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	var asked []int
	src := source
	src.Page = func(_ api.Exchange, _ string, page int) feed.Request {
		asked = append(asked, page)
		return func(context.Context, uint64, time.Time) (state.Msg, error) { return nil, nil }
	}
	p := newPane(c, nil, src, true)
	p.SetSize(100, 12)
	p.SetFocused(true)
	all := payments(5)
	s.Apply(state.FundingMsg{Gen: 1, At: t0, Page: api.Page[api.FundingPayment]{Page: 1, Limit: 3, TotalCount: 5, TotalPages: 2, HasNext: true, Data: all[:3]}})
	p.Update(common.DataMsg{Kind: state.KindFunding})
	if !strings.Contains(p.View(), "scroll to the end for more") {
		t.Errorf("no hint of more:\n%s", p.View())
	}
	end := tea.KeyMsg{Type: tea.KeyEnd}
	p.Update(end)
	p.Update(end)
	if len(asked) != 1 || asked[0] != 2 || !strings.Contains(p.View(), "loading page 2…") {
		t.Fatalf("asked for %v:\n%s", asked, p.View())
	}
	s.Apply(state.FundingMsg{Gen: 2, At: t0, Page: api.Page[api.FundingPayment]{Page: 2, Limit: 3, TotalCount: 5, TotalPages: 2, Data: all[3:]}})
	p.Update(common.DataMsg{Kind: state.KindFunding})
	if v := p.View(); len(p.rows) != 5 || !strings.Contains(v, "5 loaded") || !strings.Contains(v, "· all") {
		t.Fatalf("after page 2: %d rows\n%s", len(p.rows), v)
	}
}

// TestFundingWithoutAccount: without an account the view says how to get one.
func TestFundingWithoutAccount(t *testing.T) {
	s := store()
	s.Apply(state.FundingMsg{Gen: 1, At: t0, Page: api.Page[api.FundingPayment]{Page: 1}})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	p := newPane(c, nil, source, false)
	p.SetSize(100, 4)
	if !strings.Contains(p.View(), "no account: start with --address") {
		t.Errorf("view:\n%s", p.View())
	}
}

// BenchmarkFundingPane renders the funding view (200x60's share) with 10 and with 10,000
// payments held (issue #16): a frame's cost follows the rows on screen, not the rows held.
func BenchmarkFundingPane(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run("held="+strconv.Itoa(n), func(b *testing.B) {
			s := store()
			c := commontest.NewCommon(b, s, func() time.Time { return t0 })
			p := newPane(c, nil, source, true)
			p.SetSize(196, 24)
			p.SetFocused(true)
			s.Apply(state.FundingMsg{Gen: 1, At: t0, Page: api.Page[api.FundingPayment]{Page: 1, Limit: n, TotalCount: n, TotalPages: 1, Data: payments(n)}})
			p.Update(common.DataMsg{Kind: state.KindFunding})
			p.Tbl.MoveTo(len(p.rows) / 2)
			p.View()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = p.View()
			}
		})
	}
}

// TestFundingGolden: the funding view as the Activity group shows it (columns, signs, the net and
// paging in the status line), in the component's own golden, so a change to this view changes
// this file, not the console's screens. Regenerate with: go test ./ui/components/funding -run
// TestFundingGolden -update
func TestFundingGolden(t *testing.T) {
	s := store()
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	p := newPane(c, nil, source, true)
	p.SetSize(100, 6)
	p.SetFocused(true)
	s.Apply(state.FundingMsg{Gen: 1, At: t0, Page: api.Page[api.FundingPayment]{Page: 1, Limit: 3, TotalCount: 5, TotalPages: 2, HasNext: true, Data: payments(3)}})
	p.Update(common.DataMsg{Kind: state.KindFunding})
	golden.RequireEqual(t, []byte(p.View()))
}
