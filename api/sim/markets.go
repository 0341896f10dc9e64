package sim

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// tier is one margin bracket: from notional threshold up, leverage is capped at maxLev and
// maintenance margin is notional×mmr − mmd (mmd keeps the schedule continuous).
type tier struct {
	threshold decimal.Decimal
	maxLev    decimal.Decimal
	mmr       decimal.Decimal
	mmd       decimal.Decimal
}

// marketSpec is an instrument's fixed terms.
type marketSpec struct {
	id           api.InstrumentID
	name         string
	spot         bool
	tick, lot    unit
	minNotional  decimal.Decimal
	maxLev       decimal.Decimal
	tiers        []tier
	onlyIsolated bool
	delisted     bool
	base, quote  api.CollateralID // spot pairs
	stable       bool
	start        decimal.Decimal // index price at the simulation's start
	vol          float64         // relative index volatility per sqrt(second)
	flowPerMin   float64         // typical traded notional in USD a minute, for the made-up history
	listedAt     time.Time
	synthetic    bool // added by WithMarkets: compact charts
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// makeTiers builds a continuous schedule from (threshold, max leverage, mmr) rows.
func makeTiers(rows ...[3]string) []tier {
	out := make([]tier, len(rows))
	mmd := decimal.Zero
	prevMMR := decimal.Zero
	for i, r := range rows {
		th, mmr := d(r[0]), d(r[2])
		if i > 0 {
			mmd = mmd.Add(th.Mul(mmr.Sub(prevMMR)))
		}
		out[i] = tier{threshold: th, maxLev: d(r[1]), mmr: mmr, mmd: mmd}
		prevMMR = mmr
	}
	return out
}

var listed = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

func perp(id api.InstrumentID, name, tick, lot, maxLev, start string, vol float64, tiers []tier) marketSpec {
	return marketSpec{id: id, name: name, tick: mustUnit(tick), lot: mustUnit(lot), minNotional: d("10"),
		maxLev: d(maxLev), tiers: tiers, start: d(start), vol: vol, listedAt: listed.Add(time.Duration(id) * 24 * time.Hour)}
}

func spotPair(id api.InstrumentID, name, tick, lot string, base api.CollateralID, start string, vol float64) marketSpec {
	return marketSpec{id: id, name: name, spot: true, tick: mustUnit(tick), lot: mustUnit(lot), minNotional: d("5"),
		base: base, quote: collUSDC, start: d(start), vol: vol, stable: vol == 0, listedAt: listed.Add(time.Duration(id) * time.Hour)}
}

// defaultMarkets are the simulator's instruments. Their ids are stable across versions.
func defaultMarkets() []marketSpec {
	major := makeTiers([3]string{"0", "50", "0.01"}, [3]string{"500000", "25", "0.02"},
		[3]string{"2000000", "10", "0.05"}, [3]string{"10000000", "5", "0.1"})
	mid := makeTiers([3]string{"0", "20", "0.025"}, [3]string{"250000", "10", "0.05"}, [3]string{"1000000", "5", "0.1"})
	small := makeTiers([3]string{"0", "10", "0.05"}, [3]string{"100000", "5", "0.1"}, [3]string{"500000", "3", "0.15"})
	ms := []marketSpec{
		perp(1, "BTC-PERP", "0.1", "0.0001", "50", "97250", 0.00012, major),
		perp(2, "ETH-PERP", "0.01", "0.001", "50", "3412.5", 0.00016, major),
		perp(3, "SOL-PERP", "0.001", "0.01", "20", "187.25", 0.00022, mid),
		perp(4, "DOGE-PERP", "0.00001", "1", "10", "0.38", 0.00028, small),
		perp(5, "HYPE-PERP", "0.001", "0.01", "10", "28.4", 0.0003, small),
		perp(6, "LUNA-PERP", "0.0001", "0.1", "5", "0.42", 0, makeTiers([3]string{"0", "5", "0.1"})),
		spotPair(101, "ETH/USDC", "0.01", "0.0001", collWETH, "3412.5", 0.00016),
		spotPair(102, "BTC/USDC", "0.1", "0.00001", collWBTC, "97250", 0.00012),
		spotPair(103, "USDT/USDC", "0.0001", "1", collUSDT, "1", 0),
	}
	// Busier markets trade more: the made-up history's volume follows these (USD a minute).
	for i, flow := range []float64{250000, 120000, 45000, 15000, 9000, 0, 30000, 20000, 60000} {
		ms[i].flowPerMin = flow
	}
	ms[4].onlyIsolated = true
	ms[5].delisted = true
	ms[8].minNotional = d("10")
	return ms
}

func (m *marketSpec) perpRecord() api.PerpInstrument {
	tiers := make([]api.MarginTier, len(m.tiers))
	for i, t := range m.tiers {
		tiers[i] = api.MarginTier{NotionalUSDThreshold: t.threshold, MaxLeverage: t.maxLev, MMR: t.mmr, MMD: t.mmd}
	}
	return api.PerpInstrument{ID: m.id, Name: m.name, PriceIndex: priceIndex(m.name), LotSize: m.lot.d, TickSize: m.tick.d,
		SettlementCurrency: collUSDC, OnlyIsolated: m.onlyIsolated, MaxLeverage: m.maxLev, Delisted: m.delisted,
		MinNotionalUSD: m.minNotional, MarginTiers: tiers, ListedAt: api.Time{Time: m.listedAt}}
}

func (m *marketSpec) spotRecord() api.SpotInstrument {
	return api.SpotInstrument{ID: m.id, Name: m.name, PriceIndex: priceIndex(m.name), LotSize: m.lot.d, TickSize: m.tick.d,
		BaseAsset: m.base, QuoteAsset: m.quote, StablePair: m.stable, MinSizeInQuoteAsset: m.minNotional,
		ListedAt: api.Time{Time: m.listedAt}}
}

func priceIndex(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '-' || name[i] == '/' {
			return name[:i] + "USD"
		}
	}
	return name + "USD"
}

// tierFor returns the bracket a position of the given notional falls in.
func (m *marketSpec) tierFor(notional decimal.Decimal) tier {
	t := m.tiers[0]
	for _, x := range m.tiers[1:] {
		if notional.LessThan(x.threshold) {
			break
		}
		t = x
	}
	return t
}

// defaultLeverage is the leverage an account starts with on a perpetual.
func (m *marketSpec) defaultLeverage() decimal.Decimal {
	ten := decimal.NewFromInt(10)
	if m.maxLev.LessThan(ten) {
		return m.maxLev
	}
	return ten
}
