package state

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// fixedClock returns a clock the test moves by hand.
func fixedClock(now *time.Time) func() time.Time { return func() time.Time { return *now } }

func testInstruments() api.Instruments {
	return api.Instruments{
		Perps: []api.PerpInstrument{
			{ID: 1, Name: "BTC-PERP", TickSize: d("0.5"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("50"),
				MarginTiers: []api.MarginTier{
					{NotionalUSDThreshold: d("0"), MaxLeverage: d("50"), MMR: d("0.01")},
					{NotionalUSDThreshold: d("1000000"), MaxLeverage: d("20"), MMR: d("0.025")},
				}},
			{ID: 2, Name: "ETH-PERP", TickSize: d("0.01"), LotSize: d("0.01"), MinNotionalUSD: d("10"), MaxLeverage: d("25")},
			{ID: 3, Name: "OLD-PERP", TickSize: d("0.1"), LotSize: d("1"), MinNotionalUSD: d("10"), MaxLeverage: d("5"), Delisted: true},
			{ID: 4, Name: "ISO-PERP", TickSize: d("0.0001"), LotSize: d("1"), MinNotionalUSD: d("10"), MaxLeverage: d("3"), OnlyIsolated: true},
		},
		Spot: []api.SpotInstrument{
			{ID: 1001, Name: "HYPE/USDC", TickSize: d("0.001"), LotSize: d("0.1"), BaseAsset: 5, QuoteAsset: 0, MinSizeInQuoteAsset: d("1")},
		},
	}
}

func testTickers() []api.Ticker {
	return []api.Ticker{
		{Symbol: "BTC-PERP", MarkPrice: d("50000"), MidPrice: d("50000"), BestBidPrice: d("49999.5"), BestAskPrice: d("50000.5"), LastPrice: d("50000")},
		{Symbol: "ETH-PERP", MarkPrice: d("3000"), MidPrice: d("3000.005"), BestBidPrice: d("3000"), BestAskPrice: d("3000.01"), LastPrice: d("3000")},
		{Symbol: "ISO-PERP", MarkPrice: d("0.1234"), MidPrice: d("0.1234"), BestBidPrice: d("0.1233"), BestAskPrice: d("0.1235")},
		{Symbol: "HYPE/USDC", MarkPrice: d("20"), MidPrice: d("20"), BestBidPrice: d("19.999"), BestAskPrice: d("20.001")},
	}
}

func testAccount() api.AccountSummary {
	return api.AccountSummary{
		Address: "0x1111111111111111111111111111111111111111", MarginMode: "cross",
		MarginBalance: d("12000"), TotalAccountEquity: d("12000"), AvailableBalance: d("10000"),
		InitialMargin: d("600"), MaintenanceMargin: d("300"),
		SpotCollateral: map[string]api.CollateralBalance{
			"USDC": {Balance: d("500"), WithdrawableBalance: d("500")},
			"HYPE": {Balance: d("3"), WithdrawableBalance: d("3")},
		},
		PerpPositions: map[string]api.PositionSummary{
			"ETH-PERP": {LiquidationPrice: d("2000"), MM: d("60"), IM: d("600")},
		},
	}
}

func testPositions() []api.Position {
	return []api.Position{
		{Instrument: "ETH-PERP", InstrumentID: 2, Size: d("2"), EntryPrice: d("2900"), PositionValue: d("6000"), MarginMode: "cross", Leverage: d("10")},
	}
}

// loadedStore is a store with instruments, market data, collateral, account and positions.
func loadedStore(now *time.Time) *Store {
	s := New(fixedClock(now))
	s.Apply(InstrumentsMsg{Instruments: testInstruments()})
	s.Apply(TickersMsg{Tickers: testTickers()})
	s.Apply(CollateralMsg{Collateral: []api.Collateral{{ID: 0, Symbol: "USDC"}, {ID: 5, Symbol: "HYPE"}}})
	s.Apply(AccountMsg{Summary: testAccount()})
	s.Apply(PositionsMsg{Positions: testPositions()})
	s.Apply(LeverageMsg{Leverage: api.InstrumentLeverage{Instrument: "BTC-PERP", MarginType: "cross", Leverage: d("10")}})
	return s
}

func checkDec(t interface {
	Helper()
	Errorf(string, ...any)
}, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(d(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}
