package sim

import (
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// Collateral ids. USDC settles every perpetual.
const (
	collUSDC api.CollateralID = 1
	collUSDT api.CollateralID = 2
	collWETH api.CollateralID = 3
	collWBTC api.CollateralID = 4
)

// collateralSpec is one supported collateral asset. Non-stable collaterals are priced by the
// index of their perpetual (priceFrom).
type collateralSpec struct {
	rec       api.Collateral
	priceFrom api.InstrumentID // 0: worth 1 USD
}

func bridge(chain int64, token, contract string, enabled bool) api.Bridge {
	return api.Bridge{BridgeChainType: 1, BridgeChainID: api.Int(chain), TokenAddress: token,
		BridgeContractAddress: contract, Enabled: enabled}
}

func collRisk(weight string, maxCap string) api.CollateralRisk {
	w := d(weight)
	tiers := []api.WeightTier{{Amount: decimal.Zero, Weight: w}}
	if w.LessThan(decimal.NewFromInt(1)) { // large holdings of a volatile collateral count for less
		tiers = append(tiers, api.WeightTier{Amount: d("1000000"), Weight: w.Mul(d("0.9")).Round(4)})
	}
	return api.CollateralRisk{
		WeightTiers:  tiers,
		MaxMarginCap: d(maxCap), StalePriceGuardWeight: w.Mul(d("0.5")).Round(4), Enabled: true,
	}
}

const bridgeContract = "0x5a1c0a0e3c4b4f2b7f0d1e2a3b4c5d6e7f809102"

// defaultCollaterals are the simulator's collaterals; ids are stable.
func defaultCollaterals() []collateralSpec {
	return []collateralSpec{
		{rec: api.Collateral{ID: collUSDC, Symbol: "USDC", Name: "USD Coin", Decimals: 6, DefaultCollWeight: d("1"),
			PriceIndex: "USDCUSD", Type: 1, CollRisk: collRisk("1", "1000000000"), TransferNotionalFee: d("0"),
			WithdrawalFee: d("1"), AddedAtBlock: 1, BridgeByChain: []api.Bridge{
				bridge(1, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", bridgeContract, true),
				bridge(42161, "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", bridgeContract, true),
				bridge(8453, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", bridgeContract, true),
				bridge(56, "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", bridgeContract, false)}}},
		{rec: api.Collateral{ID: collUSDT, Symbol: "USDT", Name: "Tether USD", Decimals: 6, DefaultCollWeight: d("0.98"),
			PriceIndex: "USDTUSD", Type: 1, CollRisk: collRisk("0.98", "50000000"), TransferNotionalFee: d("0.0005"),
			WithdrawalFee: d("1.5"), AddedAtBlock: 1200, BridgeByChain: []api.Bridge{
				bridge(1, "0xdAC17F958D2ee523a2206206994597C13D831ec7", bridgeContract, true),
				bridge(42161, "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", bridgeContract, false)}}},
		{rec: api.Collateral{ID: collWETH, Symbol: "WETH", Name: "Wrapped Ether", Decimals: 18, DefaultCollWeight: d("0.9"),
			PriceIndex: "ETHUSD", Type: 2, CollRisk: collRisk("0.9", "20000000"), TransferNotionalFee: d("0"),
			WithdrawalFee: d("0.0005"), AddedAtBlock: 2400, BridgeByChain: []api.Bridge{
				bridge(1, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", bridgeContract, true),
				bridge(42161, "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", bridgeContract, true)}},
			priceFrom: 2},
		{rec: api.Collateral{ID: collWBTC, Symbol: "WBTC", Name: "Wrapped Bitcoin", Decimals: 8, DefaultCollWeight: d("0.9"),
			PriceIndex: "BTCUSD", Type: 2, CollRisk: collRisk("0.9", "20000000"), TransferNotionalFee: d("0"),
			WithdrawalFee: d("0.00002"), AddedAtBlock: 2401, BridgeByChain: []api.Bridge{
				bridge(1, "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599", bridgeContract, true)}},
			priceFrom: 1},
	}
}

// bridgeFor returns the collateral's bridge on chainID.
func (c *collateralSpec) bridgeFor(chainID int64) (api.Bridge, bool) {
	for _, b := range c.rec.BridgeByChain {
		if int64(b.BridgeChainID) == chainID {
			return b, true
		}
	}
	return api.Bridge{}, false
}
