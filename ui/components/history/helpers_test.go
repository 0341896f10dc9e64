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

func pageOf[T any](rows []T, p api.PageParams) api.Page[T] {
	total := (len(rows) + p.Limit - 1) / p.Limit
	lo := min((p.Page-1)*p.Limit, len(rows))
	hi := min(lo+p.Limit, len(rows))
	return api.Page[T]{Data: rows[lo:hi], Page: p.Page, Limit: p.Limit, TotalCount: len(rows), TotalPages: total,
		HasNext: p.Page < total, HasPrev: p.Page > 1}
}

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
	var notices []string
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		if next == nil {
			continue
		}
		switch msg := next().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case feed.Msg:
			r := c.Feed.Update(msg)
			queue = append(queue, common.Tea(r.Cmd)) // a queued request (the next poll's timer is no command)
			if r.Msg != nil && c.Store.Apply(r.Msg) {
				queue = append(queue, p.Update(common.DataMsg{Kind: r.Kind}))
			}
		case common.NoticeMsg:
			notices = append(notices, msg.Text)
		case common.NoticesMsg:
			for _, n := range msg {
				notices = append(notices, n.Text)
			}
		case nil:
		default:
			queue = append(queue, p.Update(msg))
		}
	}
	return notices
}

// keyMsg is ui's sim_test keyMsg: the key named k.
func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+x":
		return tea.KeyMsg{Type: tea.KeyCtrlX}
	case "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}
