package ui

import (
	"fmt"
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

func init() {
	lipgloss.SetColorProfile(termenv.Ascii)
}

func mustKeys(t testing.TB) common.KeyMap {
	t.Helper()
	k, err := common.NewKeyMap(testKeys)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// testTheme has colours, so styles are exercised; the ASCII profile renders none.
var testTheme = commontest.Theme

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// bigStore fills a store with n instruments (and their tickers), np positions and no open orders.
func bigStore(clock func() time.Time, n, np, no int) *state.Store {
	s := state.New(clock)
	var ins api.Instruments
	var ts []api.Ticker
	var mids []api.Mid
	for i := range n {
		name := fmt.Sprintf("C%03d-PERP", i)
		ins.Perps = append(ins.Perps, api.PerpInstrument{
			ID: api.InstrumentID(i + 1), Name: name, TickSize: d("0.01"), LotSize: d("0.001"),
			MaxLeverage: d("20"), MinNotionalUSD: d("10"),
		})
		px := decimal.NewFromInt(int64(1000 + i*37))
		ts = append(ts, api.Ticker{Symbol: name, MarkPrice: px, LastPrice: px, MidPrice: px,
			BestBidPrice: px.Sub(d("0.01")), BestAskPrice: px.Add(d("0.01")), Change24h: decimal.NewFromInt(int64(i%7 - 3)),
			FundingRate: d("0.0001"), OpenInterest: d("123456.7"), Volume24h: d("98765432.1")})
		mids = append(mids, api.Mid{Symbol: name, MidPrice: px})
	}
	s.Apply(state.InstrumentsMsg{Gen: 1, Instruments: ins})
	s.Apply(state.TickersMsg{Gen: 1, Tickers: ts})
	s.Apply(state.MidsMsg{Gen: 1, Mids: mids})
	var ps []api.Position
	for i := range np {
		sz := d("1.5")
		if i%2 == 1 {
			sz = sz.Neg()
		}
		ps = append(ps, api.Position{Instrument: ins.Perps[i].Name, InstrumentID: ins.Perps[i].ID, Size: sz,
			EntryPrice: ts[i].MarkPrice.Sub(d("3")), Leverage: d("5"), MarginMode: "cross", PositionSide: "BOTH"})
	}
	s.Apply(state.PositionsMsg{Gen: 1, Positions: ps})
	var os []api.OrderRecord
	for i := range no {
		in := ins.Perps[i%n]
		os = append(os, api.OrderRecord{OrderID: api.OrderID(1000 + i), Instrument: in.Name, InstrumentID: in.ID,
			Side: api.SideBuy, LimitPrice: ts[i%n].MarkPrice.Sub(d("10")), Size: d("0.5"), Unfilled: d("0.5"),
			State: api.StateOpen, Tif: api.TifGTC, Timestamp: api.Time{Time: clock().Add(-time.Minute)}})
	}
	s.Apply(state.OrdersMsg{Gen: 1, Orders: os})
	s.Apply(state.AccountMsg{Gen: 1, Summary: api.AccountSummary{
		TotalAccountEquity: d("100000"), MarginBalance: d("100000"), AvailableBalance: d("80000"),
		InitialMargin: d("20000"), MaintenanceMargin: d("5000"), InitialMarginUtilization: d("20"),
		MaintenanceMarginUtilization: d("5"), Upnl: d("123.45"), TotalPnl: d("-50"),
		Collateral: map[string]api.CollateralBalance{"USDC": {Balance: d("100000"), WithdrawableBalance: d("80000")}},
	}})
	return s
}

// teaCmd is common.Tea for tests that do not import common.
func teaCmd(c feed.Cmd) tea.Cmd { return common.Tea(c) }
