package history

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// The helpers below are the ui package's pane-test helpers (ui's fills_test), for the history
// pane's own tests.

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

const fakeUser = "0x00000000000000000000000000000000000000aa"

var paneNow = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// fakeEx serves fills and order history from slices (newest first) in pages; every other method
// of api.Exchange is left nil and panics if a pane calls it.
type fakeEx struct {
	api.Exchange
	fills   []api.Fill
	history []api.OrderRecord
	pages   []int // pages asked for, in order
}

func (f *fakeEx) Address() string { return fakeUser }
func (f *fakeEx) CanTrade() bool  { return false }
func (f *fakeEx) IsAgent() bool   { return false }

func (f *fakeEx) Fills(_ context.Context, _ string, p api.PageParams) (api.Page[api.Fill], error) {
	f.pages = append(f.pages, p.Page)
	return pageOf(f.fills, p), nil
}

func (f *fakeEx) OrderHistory(_ context.Context, _ string, p api.PageParams) (api.Page[api.OrderRecord], error) {
	f.pages = append(f.pages, p.Page)
	return pageOf(f.history, p), nil
}

// The Activity group's other views poll these: a fake account has none of them.
func (f *fakeEx) FundingHistory(_ context.Context, _ string, p api.PageParams) (api.Page[api.FundingPayment], error) {
	return pageOf[api.FundingPayment](nil, p), nil
}

func (f *fakeEx) TransferHistory(context.Context, string, int) ([]api.TransferRecord, error) {
	return nil, nil
}

func (f *fakeEx) AccountHistory(context.Context, string, int) ([]api.AccountSnapshot, error) {
	return nil, nil
}

func pageOf[T any](rows []T, p api.PageParams) api.Page[T] { return commontest.PageOf(rows, p) }

// makeFills makes n fills, newest first, with trade ids from top down.
func makeFills(n int, top int) []api.Fill {
	out := make([]api.Fill, n)
	for i := range out {
		id := top - i
		out[i] = api.Fill{Instrument: "BTC-PERP", InstrumentID: 1, TradeID: api.TradeID(id), OrderID: api.OrderID(id),
			Side: []string{"b", "s"}[id%2], Direction: api.DirOpenLong, Price: d("64250.5"), Size: d("0.01"),
			NotionalValue: d("642.51"), Fee: d("0.32"), Crossed: id%2 == 0,
			BlockTime: api.Time{Time: paneNow.Add(-time.Duration(i) * time.Minute)}}
	}
	out[0].Fee = d("-0.0125") // a maker rebate
	return out
}

func paneCommon(t testing.TB) *common.Common {
	keys := commontest.Keys(t)
	clock := func() time.Time { return paneNow }
	st := state.New(clock)
	st.Apply(state.InstrumentsMsg{Gen: 1, At: paneNow, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MaxLeverage: d("50"), MinNotionalUSD: d("10")},
		{ID: 2, Name: "ETH-PERP", TickSize: d("0.01"), LotSize: d("0.01"), MaxLeverage: d("25"), MinNotionalUSD: d("10")},
	}}})
	return &common.Common{Store: st, Styles: common.NewStyles(commontest.Theme), Keys: &keys, Clock: clock, Feed: testFeed(clock)}
}

// testFeed is a feed whose timers never run unless the test steps its clock (no poll runs on its
// own in these tests), stamping requests with clock.
func testFeed(clock func() time.Time) *feed.Feed {
	return feed.New(feed.WithNow(feed.NewFakeClock(clock()), clock), common.PaneTimeout, common.PaneMaxBackoff)
}

// deliver runs cmd the way the root model would: fetch results are applied to the store and the
// panes told; every message that follows is delivered too. It returns the notices shown.
func deliver(t testing.TB, c *common.Common, p common.Pane, cmd tea.Cmd) []string {
	t.Helper()
	return commontest.Deliver(t, c, p, cmd)
}

// keyMsg is ui's sim_test keyMsg: the key named k.
func keyMsg(k string) tea.KeyMsg { return commontest.KeyMsg(k) }
