package state

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

func TestDerivedFigures(t *testing.T) {
	acct := testAccount()
	cases := []struct {
		name string
		got  decimal.Decimal
		want string
	}{
		{"notional long", Notional(d("2"), d("3000")), "6000"},
		{"notional short", Notional(d("-2"), d("3000")), "6000"},
		{"upnl long up", UnrealizedPnL(d("2"), d("2900"), d("3000")), "200"},
		{"upnl short up", UnrealizedPnL(d("-2"), d("2900"), d("3000")), "-200"},
		{"upnl short down", UnrealizedPnL(d("-0.5"), d("50000"), d("48000")), "1000"},
		{"roe", ROE(d("200"), d("2900"), d("2"), d("10")).Round(4), "34.4828"},
		{"roe short", ROE(d("1000"), d("50000"), d("-0.5"), d("5")), "20"},
		{"roe no size", ROE(d("5"), d("100"), d("0"), d("10")), "0"},
		{"roe no leverage counts 1x", ROE(d("10"), d("100"), d("1"), d("0")), "10"},
		// A margin of 2/3 rounded first (0.6666666666666667) made it 12345.67499999999938: a
		// half-cent written as 12,345.67 %.
		{"roe rounded once", ROE(d("82.3045"), d("1"), d("2"), d("3")), "12345.675"},
		{"liq distance long", LiquidationDistance(d("2000"), d("3000")).Round(4), "33.3333"},
		{"liq distance short", LiquidationDistance(d("55000"), d("50000")), "10"},
		{"liq distance unknown", LiquidationDistance(d("0"), d("3000")), "0"},
		{"margin", MarginRequired(d("6000"), d("10")), "600"},
		{"margin short notional", MarginRequired(d("-6000"), d("20")), "300"},
		{"margin no leverage", MarginRequired(d("6000"), d("0")), "6000"},
		{"fee taker", DefaultFees().Estimate(d("10000"), true), "4.5"},
		{"fee maker", DefaultFees().Estimate(d("10000"), false), "1.5"},
		{"custom fees", Fees{Taker: d("0.001"), Maker: d("-0.0001")}.Estimate(d("1000"), false), "-0.1"},
		{"utilization after", MarginUtilizationAfter(acct, d("600")), "10"},
		{"utilization now", MarginUtilizationAfter(acct, d("0")), "5"},
		{"utilization no equity", MarginUtilizationAfter(api.AccountSummary{}, d("1")), "100"},
		{"utilization empty", MarginUtilizationAfter(api.AccountSummary{}, d("0")), "0"},
		{"utilization equity fallback", MarginUtilizationAfter(api.AccountSummary{TotalAccountEquity: d("200")}, d("50")), "25"},
		{"entry adds", resultingEntry(d("1"), d("100"), d("1"), d("200")), "150"},
		{"entry reduces", resultingEntry(d("2"), d("100"), d("-1"), d("200")), "100"},
		{"entry flips", resultingEntry(d("1"), d("100"), d("-3"), d("200")), "200"},
	}
	for _, tc := range cases {
		checkDec(t, tc.name, tc.got, tc.want)
	}
}

func TestPositionView(t *testing.T) {
	pos := testPositions()[0]
	r := PositionView(pos, testTickers()[1], testAccount())
	if r.Side != "long" || !r.Long || r.Instrument != "ETH-PERP" || r.MarginMode != "cross" {
		t.Fatalf("row %+v", r)
	}
	checkDec(t, "size", r.Size, "2")
	checkDec(t, "mark", r.Mark, "3000")
	checkDec(t, "notional", r.Notional, "6000")
	checkDec(t, "upnl", r.UPnL, "200")
	checkDec(t, "roe", r.ROE.Round(2), "34.48")
	checkDec(t, "margin", r.Margin(), "600")
	checkDec(t, "liq", r.Liquidation, "2000")
	checkDec(t, "liq distance", r.LiqDistance.Round(2), "33.33")

	// No ticker: the mark comes from the position value, the PnL from the summary.
	short := api.Position{Instrument: "X", Size: d("-4"), EntryPrice: d("10"), PositionValue: d("36"), Leverage: d("2")}
	r = PositionView(short, api.Ticker{}, api.AccountSummary{})
	if r.Side != "short" {
		t.Fatalf("side %s", r.Side)
	}
	checkDec(t, "fallback mark", r.Mark, "9")
	checkDec(t, "short upnl", r.UPnL, "4")
	checkDec(t, "short roe", r.ROE, "20")
	checkDec(t, "no liq", r.LiqDistance, "0")
}

func TestInstrumentPrecision(t *testing.T) {
	cases := []struct {
		tick, lot   string
		price, size int32
	}{
		{"0.5", "0.001", 1, 3},
		{"0.01", "0.010", 2, 2},
		{"10", "1", 0, 0},
		{"0.000001", "1000", 6, 0},
		{"0", "0", 2, 4},
	}
	for _, tc := range cases {
		in := Instrument{TickSize: d(tc.tick), LotSize: d(tc.lot)}
		if in.PriceDecimals() != tc.price || in.SizeDecimals() != tc.size {
			t.Errorf("tick %s lot %s: decimals %d/%d, want %d/%d", tc.tick, tc.lot, in.PriceDecimals(), in.SizeDecimals(), tc.price, tc.size)
		}
	}
	perp := InstrumentFromPerp(testInstruments().Perps[0])
	checkDec(t, "tier 0 mmr", perp.MaintenanceRate(d("5000")), "0.01")
	checkDec(t, "tier 1 mmr", perp.MaintenanceRate(d("1000000")), "0.025")
	checkDec(t, "tier 1 lev", perp.MaxLeverageAt(d("2000000")), "20")
	perp.MarginTiers[1].MMD = d("15000")
	checkDec(t, "tier 1 mm with deduction", perp.MaintenanceMargin(d("2000000")), "35000")
	checkDec(t, "tier 0 mm", perp.MaintenanceMargin(d("-5000")), "50")
	noTiers := InstrumentFromPerp(testInstruments().Perps[1])
	checkDec(t, "no tier mmr", noTiers.MaintenanceRate(d("5000")), "0.02")
	checkDec(t, "no tier lev", noTiers.MaxLeverageAt(d("5000")), "25")
	spot := InstrumentFromSpot(testInstruments().Spot[0])
	if !spot.Spot || spot.Kind() != "spot" || !spot.MaxLeverage.Equal(d("1")) || !spot.MinNotional.Equal(d("1")) {
		t.Fatalf("spot %+v", spot)
	}
}

func TestSteps(t *testing.T) {
	cases := []struct {
		name string
		got  decimal.Decimal
		want string
	}{
		{"round up", RoundToStep(d("100.3"), d("0.5")), "100.5"},
		{"round down", RoundToStep(d("100.2"), d("0.5")), "100"},
		{"round half away", RoundToStep(d("100.25"), d("0.5")), "100.5"},
		{"floor", FloorToStep(d("0.0109"), d("0.001")), "0.01"},
		{"floor negative", FloorToStep(d("-0.0109"), d("0.001")), "-0.011"},
		{"ceil", CeilToStep(d("0.0101"), d("0.001")), "0.011"},
		{"ceil exact", CeilToStep(d("0.011"), d("0.001")), "0.011"},
		{"no step", RoundToStep(d("1.234"), d("0")), "1.234"},
	}
	for _, tc := range cases {
		checkDec(t, tc.name, tc.got, tc.want)
	}
	if !OnStep(d("1.5"), d("0.5")) || OnStep(d("1.25"), d("0.5")) || !OnStep(d("1.25"), d("0")) {
		t.Fatal("OnStep")
	}
}

// TestMaintenanceUtilization: maintenance margin over the margin balance in percent, the total
// equity standing in when there is no margin balance, and 100 with margin needed but no equity.
// Guards the ratio inverted (equity / margin), the fallback dropped, and the no-equity branch
// answering 0 (the headless account command did: an account being liquidated read 0% used).
func TestMaintenanceUtilization(t *testing.T) {
	d := decimal.RequireFromString
	for _, tc := range []struct {
		name        string
		mm, mb, tae string
		want        string
	}{
		{"quarter", "250", "1000", "5000", "25"},
		{"no margin balance: total equity", "250", "0", "500", "50"},
		{"over the balance", "1500", "1000", "1000", "150"},
		{"no equity, margin needed", "10", "0", "0", "100"},
		{"no equity, nothing needed", "0", "0", "-5", "0"},
	} {
		a := api.AccountSummary{MaintenanceMargin: d(tc.mm), MarginBalance: d(tc.mb), TotalAccountEquity: d(tc.tae)}
		if got := MaintenanceUtilization(a); !got.Equal(d(tc.want)) {
			t.Errorf("%s: %s%%, want %s%%", tc.name, got, tc.want)
		}
	}
}

// TestUnrealizedPnLAtTheFreshestMark (issue #23, case 4): the positions' uPnL and the account's
// total use the mark that arrived last: the ticker's, or the account summary's (its position
// value over its size). Guards the freshness comparison flipped or dropped.
func TestUnrealizedPnLAtTheFreshestMark(t *testing.T) {
	now := t0
	s := loadedStore(&now) // ETH long 2 from 2900, ticker mark 3000 at t0
	acct := testAccount()
	acct.PerpPositions["ETH-PERP"] = api.PositionSummary{IM: d("600"), Upnl: d("220"),
		Legs: []api.PositionLeg{{Size: d("2"), PositionValue: d("6020")}}} // mark 3010
	s.Apply(AccountMsg{Gen: 2, At: t0.Add(time.Second), Summary: acct})
	if got := s.PositionViews()[0]; !got.Mark.Equal(d("3010")) || !got.UPnL.Equal(d("220")) {
		t.Fatalf("account newer: mark %s uPnL %s, want 3010 and 220", got.Mark, got.UPnL)
	}
	checkDec(t, "total uPnL, account newer", s.UnrealizedPnL(), "220")
	s.Apply(TickersMsg{Gen: 2, At: t0.Add(2 * time.Second), Tickers: testTickers()})
	checkDec(t, "total uPnL, tickers newer", s.UnrealizedPnL(), "200")
}

// TestTotalPnLAddsUnrealized (QA item 5): the account's total PnL is the exchange's realized
// figure plus the unrealized PnL at the freshest mark. Guards the unrealized term dropped (the
// pane showed the realized figure as "Total PnL") and its sign flipped (realized - unrealized).
func TestTotalPnLAddsUnrealized(t *testing.T) {
	now := t0
	s := loadedStore(&now) // ETH long 2 from 2900 at mark 3000: +200 unrealized
	acct := testAccount()
	acct.TotalPnl = d("-1.08")
	s.Apply(AccountMsg{Gen: 2, Summary: acct})
	realized, unrealized, total := s.PnL()
	checkDec(t, "realized", realized, "-1.08")
	checkDec(t, "unrealized", unrealized, "200")
	checkDec(t, "total", total, "198.92")
	checkDec(t, "a loss on both", TotalPnL(d("-3"), d("-4.5")), "-7.5")
}
