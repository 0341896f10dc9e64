package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// mirrorSetup is what a mirror takes from the live exchange's /info before it opens: its
// instruments, collaterals, fee schedule and each market's first mark, index and funding rate.
type mirrorSetup struct {
	markets []marketSpec
	colls   []collateralSpec
	fees    feeRates
	tickers map[string]api.Ticker // by instrument name, upper case
}

// fetchSetup reads the live exchange's terms through a client that cannot sign (it has no key:
// the mirror never sends an action). user, when not "", is the account whose fee schedule applies.
func fetchSetup(ctx context.Context, up *api.Client, user string) (*mirrorSetup, error) {
	ins, err := up.Instruments(ctx, "all")
	if err != nil {
		return nil, fmt.Errorf("the live exchange's instruments: %w", err)
	}
	colls, err := up.SupportedCollateral(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("the live exchange's collaterals: %w", err)
	}
	if user == "" {
		user = "0x0000000000000000000000000000000000000001"
	}
	fees, err := up.UserFees(ctx, user)
	if err != nil {
		return nil, fmt.Errorf("the live exchange's fee schedule: %w", err)
	}
	ts, err := up.Ticker(ctx, "all")
	if err != nil {
		return nil, fmt.Errorf("the live exchange's tickers: %w", err)
	}
	ms := &mirrorSetup{fees: feeRates{maker: fees.PerpMaker, taker: fees.PerpTaker}, tickers: map[string]api.Ticker{}}
	for _, t := range ts {
		ms.tickers[strings.ToUpper(t.Symbol)] = t
	}
	for _, p := range ins.Perps {
		spec, err := ms.perpSpec(p)
		if err != nil {
			return nil, err
		}
		ms.markets = append(ms.markets, spec)
	}
	for _, p := range ins.Spot {
		spec, err := ms.spotSpec(p)
		if err != nil {
			return nil, err
		}
		ms.markets = append(ms.markets, spec)
	}
	if len(ms.markets) == 0 {
		return nil, fmt.Errorf("the live exchange lists no instruments")
	}
	ms.colls = mirrorCollaterals(colls, ins.Perps)
	return ms, nil
}

// units checks an instrument's tick and lot sizes and makes them units.
func units(name string, tick, lot decimal.Decimal) (unit, unit, error) {
	if !tick.IsPositive() || !lot.IsPositive() {
		return unit{}, unit{}, fmt.Errorf("the live exchange's instrument %q has tick %s and lot %s: both must be positive", trunc(name, 40), tick, lot)
	}
	return mustUnit(tick.String()), mustUnit(lot.String()), nil
}

// start is a market's first price: the live mark, else its index, else one tick.
func (ms *mirrorSetup) start(name string, tick decimal.Decimal) decimal.Decimal {
	t := ms.tickers[strings.ToUpper(name)]
	switch {
	case t.MarkPrice.IsPositive():
		return t.MarkPrice
	case t.IndexPrice.IsPositive():
		return t.IndexPrice
	}
	return tick
}

func (ms *mirrorSetup) perpSpec(p api.PerpInstrument) (marketSpec, error) {
	tick, lot, err := units(p.Name, p.TickSize, p.LotSize)
	if err != nil {
		return marketSpec{}, err
	}
	if !p.MaxLeverage.IsPositive() {
		return marketSpec{}, fmt.Errorf("the live exchange's %q has max leverage %s: want a positive number", trunc(p.Name, 40), p.MaxLeverage)
	}
	tiers := make([]tier, 0, len(p.MarginTiers))
	for _, t := range p.MarginTiers {
		tiers = append(tiers, tier{threshold: t.NotionalUSDThreshold, maxLev: t.MaxLeverage, mmr: t.MMR, mmd: t.MMD})
	}
	if len(tiers) == 0 { // no schedule given: maintenance is half the initial margin at the most leverage
		tiers = []tier{{maxLev: p.MaxLeverage, mmr: decimal.NewFromFloat(0.5).Div(p.MaxLeverage).Round(6)}}
	}
	return marketSpec{id: p.ID, name: p.Name, tick: tick, lot: lot, minNotional: p.MinNotionalUSD, maxLev: p.MaxLeverage,
		tiers: tiers, onlyIsolated: p.OnlyIsolated, delisted: p.Delisted, start: ms.start(p.Name, p.TickSize),
		listedAt: p.ListedAt.Time}, nil
}

func (ms *mirrorSetup) spotSpec(p api.SpotInstrument) (marketSpec, error) {
	tick, lot, err := units(p.Name, p.TickSize, p.LotSize)
	if err != nil {
		return marketSpec{}, err
	}
	return marketSpec{id: p.ID, name: p.Name, spot: true, tick: tick, lot: lot, minNotional: p.MinSizeInQuoteAsset,
		base: p.BaseAsset, quote: p.QuoteAsset, stable: p.StablePair, start: ms.start(p.Name, p.TickSize),
		listedAt: p.ListedAt.Time}, nil
}

// mirrorCollaterals are the live exchange's collaterals, each priced by the index of the
// perpetual that shares its price index (none: worth 1 USD, a stable coin).
func mirrorCollaterals(cs []api.Collateral, perps []api.PerpInstrument) []collateralSpec {
	out := make([]collateralSpec, 0, len(cs))
	for _, c := range cs {
		spec := collateralSpec{rec: c}
		for _, p := range perps {
			if p.PriceIndex != "" && strings.EqualFold(p.PriceIndex, c.PriceIndex) {
				spec.priceFrom = p.ID
				break
			}
		}
		out = append(out, spec)
	}
	return out
}

// adopt replaces the engine's made-up markets and collaterals with the live exchange's: no
// made-up history, marks and funding rates from the live exchange (market.mirrored).
func (e *engine) adopt(ms *mirrorSetup) {
	e.markets = e.markets[:0]
	clear(e.byID)
	clear(e.byName)
	now := e.now()
	for _, spec := range ms.markets {
		m := &market{marketSpec: spec, mirrored: true}
		px := max(spec.tick.round(spec.start), 1)
		m.index, m.mark, m.last, m.upMark = px, px, px, px
		t := ms.tickers[strings.ToUpper(spec.name)]
		if t.IndexPrice.IsPositive() {
			m.index = max(spec.tick.round(t.IndexPrice), 1)
		}
		m.funding = t.FundingRate
		m.updated = now
		m.charts = newCharts(now.UnixMilli())
		e.markets = append(e.markets, m)
		e.byID[m.id] = m
		e.byName[strings.ToUpper(m.name)] = m
	}
	if len(ms.colls) > 0 {
		e.colls = ms.colls
		clear(e.collByID)
		for i := range e.colls {
			e.collByID[e.colls[i].rec.ID] = &e.colls[i]
		}
	}
	e.fee = ms.fees
}
