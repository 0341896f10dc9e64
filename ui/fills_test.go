package ui

import (
	"context"
	"fmt"
	"github.com/tradedesk/tradedesk/ui/components/fills"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

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
	keys := mustKeys(t)
	clock := func() time.Time { return paneNow }
	st := state.New(clock)
	st.Apply(state.InstrumentsMsg{Gen: 1, At: paneNow, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MaxLeverage: d("50"), MinNotionalUSD: d("10")},
		{ID: 2, Name: "ETH-PERP", TickSize: d("0.01"), LotSize: d("0.01"), MaxLeverage: d("25"), MinNotionalUSD: d("10")},
	}}})
	return &common.Common{Store: st, Styles: common.NewStyles(testTheme), Keys: &keys, Clock: clock, Feed: testFeed(clock)}
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

func TestFillsPagingAndNewOnTop(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	ex := &fakeEx{fills: makeFills(250, 1000)}
	p := fills.New(c, ex, true)
	rings := 0
	p.Ring = func() { rings++ }
	p.SetSize(200, 12)
	p.SetFocused(true)

	// The first poll loads page 1: no bell for what was already there.
	if n := deliver(t, c, p, p.Update(common.StartPanesMsg{})); len(n) != 0 || rings != 0 {
		t.Fatalf("first load rang %d times, notices %v", rings, n)
	}
	if len(p.Fills()) != 100 || fmt.Sprint(ex.pages) != "[1]" {
		t.Fatalf("loaded %d fills from pages %v", len(p.Fills()), ex.pages)
	}

	// Scrolling to the last loaded row and past it loads page 2, then page 3.
	deliver(t, c, p, p.Update(keyMsg("end")))
	if len(p.Fills()) != 200 || fmt.Sprint(ex.pages) != "[1 2]" {
		t.Fatalf("after end: %d fills from pages %v", len(p.Fills()), ex.pages)
	}
	deliver(t, c, p, p.Update(keyMsg("end")))
	deliver(t, c, p, p.Update(keyMsg("down")))
	if len(p.Fills()) != 250 || fmt.Sprint(ex.pages) != "[1 2 3]" {
		t.Fatalf("after the last page: %d fills from pages %v", len(p.Fills()), ex.pages)
	}
	deliver(t, c, p, p.Update(keyMsg("down")))
	if fmt.Sprint(ex.pages) != "[1 2 3]" {
		t.Fatalf("asked for a page past the last: %v", ex.pages)
	}

	// Three new fills arrive: page 1 now starts with them and repeats 97 rows already held.
	p.Tbl.MoveTo(10)
	selected := p.Fills()[10].TradeID
	ex.fills = append(makeFills(3, 1003), ex.fills...)
	notices := deliver(t, c, p, teaCmd(p.Task().Poll()))
	if len(p.Fills()) != 253 {
		t.Fatalf("after new fills: %d rows, want 253 (no duplicates)", len(p.Fills()))
	}
	seen := map[api.TradeID]bool{}
	for i, f := range p.Fills() {
		if seen[f.TradeID] {
			t.Fatalf("trade %d twice", f.TradeID)
		}
		seen[f.TradeID] = true
		if want := api.TradeID(1003 - i); f.TradeID != want {
			t.Fatalf("row %d is trade %d, want %d (newest first)", i, f.TradeID, want)
		}
	}
	if p.Fills()[p.Tbl.Cursor].TradeID != selected {
		t.Errorf("the cursor moved off the fill it was on")
	}
	// One notice per order (each its own line in the messages view), the newest order last.
	if want := []string{"filled: sell 0.010 BTC-PERP @ 64,250.5, fee 0.32 USD", "filled: buy 0.010 BTC-PERP @ 64,250.5, fee 0.32 USD",
		"filled: sell 0.010 BTC-PERP @ 64,250.5, fee rebate 0.01 USD"}; rings != 1 || !slices.Equal(notices, want) {
		t.Errorf("rings %d, notices %q", rings, notices)
	}

	// A later fill of an order already reported updates its line and does not ring again.
	more := makeFills(1, 1004)
	more[0].OrderID, more[0].Side = 1003, "s"
	ex.fills = append(more, ex.fills...)
	notices = deliver(t, c, p, teaCmd(p.Task().Poll()))
	if rings != 1 || len(notices) != 1 || !strings.Contains(notices[0], "avg of 2 fills") {
		t.Errorf("a second fill of order 1003: rings %d, notices %q", rings, notices)
	}

	// The bell can be turned off.
	deliver(t, c, p, p.Update(keyMsg("B")))
	ex.fills = append(makeFills(1, 1005), ex.fills...)
	deliver(t, c, p, teaCmd(p.Task().Poll()))
	if rings != 1 || len(p.Fills()) != 255 {
		t.Errorf("bell off: rings %d, rows %d", rings, len(p.Fills()))
	}
}

func TestFillsView(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	ex := &fakeEx{fills: makeFills(5, 10)}
	p := fills.New(c, ex, false)
	p.SetSize(140, 8)
	if v := p.View(); !strings.Contains(v, "loading fills") {
		t.Fatalf("before the first poll:\n%s", v)
	}
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	v := p.View()
	for _, want := range []string{"rebate 0.01", "64,250.5", "open long", "maker", "taker", "5 loaded · all"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if lines := strings.Split(v, "\n"); len(lines) != 8 {
		t.Errorf("view has %d lines, want 8", len(lines))
	} else if f := strings.Fields(lines[0]); !slices.Contains(f, "Role") || slices.Contains(f, "Liq") {
		// #13 QA 6: maker/taker is the fill's role, not "Liq" beside the positions' liquidation.
		t.Errorf("the maker/taker column is not titled Role: %q", lines[0])
	}
	// A failed poll keeps the rows and says the data is stale.
	c.Store.Apply(state.FailedMsg{Gen: 99, At: paneNow, Of: state.KindFills, Err: fmt.Errorf("HTTP 502 bad gateway")})
	p.Update(common.DataMsg{Kind: state.KindFills})
	if v := p.View(); !strings.Contains(v, "HTTP 502 bad gateway (retrying)") || !strings.Contains(v, "64,250.5") {
		t.Errorf("after a failure:\n%s", v)
	}
}

func TestFillsEmptyAndFailed(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	p := fills.New(c, &fakeEx{}, false)
	p.SetSize(100, 5)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	if v := p.View(); !strings.Contains(v, "no fills yet") {
		t.Errorf("empty:\n%s", v)
	}
	c2 := paneCommon(t)
	q := fills.New(c2, &fakeEx{}, false)
	q.SetSize(100, 5)
	c2.Store.Apply(state.FailedMsg{Gen: 1, At: paneNow, Of: state.KindFills, Err: fmt.Errorf("connection refused")})
	if v := q.View(); !strings.Contains(v, "fills request failed: connection refused (retrying)") {
		t.Errorf("failed:\n%s", v)
	}
}

// BenchmarkFillsPane renders the fills pane (200x60's share) with 10 and with 10,000 fills
// loaded (issue #16: work per frame stays proportional to what is on screen): the frame's cost
// depends on the rows shown, not on the rows loaded. 10 fills fill fewer of the 23 rows, so they
// cost a little less than a full screen.
func BenchmarkFillsPane(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("loaded=%d", n), func(b *testing.B) {
			c := paneCommon(b)
			p := fills.New(c, &fakeEx{}, false)
			p.SetSize(196, 24)
			c.Store.Apply(state.FillsMsg{Gen: 1, At: paneNow, Page: api.Page[api.Fill]{Data: makeFills(n, n), Page: 1, TotalPages: 1}})
			p.Update(common.DataMsg{Kind: state.KindFills})
			p.Tbl.MoveTo(n / 2)
			p.View()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = p.View()
			}
		})
	}
}

// BenchmarkFillsNewPage is a page-1 poll that brings one new fill on top of n loaded fills:
// the store's merge, the pane's refresh and the frame that follows (every shown row renders
// again). The store is reset to n fills outside the timing before each run.
func BenchmarkFillsNewPage(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("loaded=%d", n), func(b *testing.B) {
			all := makeFills(n+1, n+1)
			old := api.Page[api.Fill]{Data: all[1:], Page: 1, TotalPages: 1}
			top := api.Page[api.Fill]{Data: all[:100], Page: 1, TotalPages: 1}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				c := paneCommon(b)
				p := fills.New(c, &fakeEx{}, false)
				p.Ring = nil
				p.SetSize(196, 24)
				c.Store.Apply(state.FillsMsg{Gen: 1, At: paneNow, Page: old})
				p.Update(common.DataMsg{Kind: state.KindFills})
				p.View()
				b.StartTimer()
				c.Store.Apply(state.FillsMsg{Gen: 2, At: paneNow, Page: top})
				p.Update(common.DataMsg{Kind: state.KindFills})
				_ = p.View()
			}
		})
	}
}

// BenchmarkFrameWithFills is a full frame (the root View) at 200x60 with 500 instruments, 100
// positions, 500 open orders and 10,000 fills loaded in the Activity group; the root View's
// cached frame is marked stale each time (as BenchmarkFrame).
func BenchmarkFrameWithFills(b *testing.B) {
	m := benchModel(b)
	m.store.Apply(state.FillsMsg{Gen: 1, At: benchNow, Page: api.Page[api.Fill]{Data: makeFills(10000, 10000), Page: 1, TotalPages: 100, HasNext: true}})
	m.broadcast(common.DataMsg{Kind: state.KindFills})
	m.View()
	if !strings.Contains(m.View(), "Fills (10000)") {
		b.Fatal("the fills are not on screen")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.dirty = true
		_ = m.View()
	}
}

func TestFetchersBusy(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	if c.m.feed.Busy() {
		t.Fatal("busy after every reply arrived")
	}
	_, fills, _ := activityGroup(t, c.m)
	cmd := fills.Task().Poll()
	if !c.m.feed.Busy() {
		t.Fatal("not busy with a request out")
	}
	pump(t, c.m, teaCmd(cmd))
	if c.m.feed.Busy() {
		t.Fatal("still busy after the reply")
	}
}
