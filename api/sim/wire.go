package sim

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// The api records marshal decimals as strings and times as Unix milliseconds. Where the spec
// shows a JSON number, an ISO 8601 string or Unix seconds, these wrappers override the field
// (an outer field wins over the embedded record's field of the same JSON name).

// num is a decimal written as a JSON number.
type num struct{ decimal.Decimal }

// MarshalJSON implements json.Marshaler.
func (n num) MarshalJSON() ([]byte, error) { return []byte(n.Decimal.String()), nil }

func nm(d decimal.Decimal) num { return num{d} }

// isoTime is a time written as ISO 8601 UTC with milliseconds.
type isoTime time.Time

// MarshalJSON implements json.Marshaler.
func (t isoTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format("2006-01-02T15:04:05.000Z") + `"`), nil
}

// unixSec is a time written as integer Unix seconds.
type unixSec time.Time

// MarshalJSON implements json.Marshaler.
func (t unixSec) MarshalJSON() ([]byte, error) {
	if time.Time(t).IsZero() {
		return []byte("0"), nil
	}
	return strconv.AppendInt(nil, time.Time(t).Unix(), 10), nil
}

type orderJSON struct {
	api.OrderRecord
	Timestamp isoTime `json:"timestamp"`
	// Reason says why the exchange cancelled an order on its own (a trigger's order that the
	// account could no longer carry, for one). The simulator's own field.
	Reason string `json:"reason,omitempty"`
}

func orderOut(o *order) orderJSON {
	r := o.record()
	return orderJSON{r, isoTime(r.Timestamp.Time), o.reason}
}

// fillJSON is a fill record as the fills method answers it. A fill that closes a position and
// opens the opposite one keeps the spec's direction for the part that closed (|start_size|
// lots) and names the direction of the rest in open_direction, the simulator's addition.
type fillJSON struct {
	api.Fill
	BlockTime     isoTime `json:"block_timestamp"`
	OpenDirection string  `json:"open_direction,omitempty"`
}

// out renders a fill as the fills method answers it.
func (f *fillRec) out(account string) fillJSON {
	r := f.record(account)
	return fillJSON{r, isoTime(r.BlockTime.Time), f.openDir}
}

type positionJSON struct {
	api.Position
	UpdatedAt unixSec `json:"updated_at"`
}

type leverageJSON struct {
	api.InstrumentLeverage
	UpdatedAt unixSec `json:"updated_at"`
}

type brokerJSON struct {
	api.BrokerApproval
	UpdatedAt unixSec `json:"updated_at"`
}

type tierJSON struct {
	api.MarginTier
	MaxLeverage num `json:"max_leverage"`
	MMR         num `json:"mmr"`
	MMD         num `json:"mmd"`
}

type perpJSON struct {
	api.PerpInstrument
	LotSize        num        `json:"lot_size"`
	TickSize       num        `json:"tick_size"`
	MaxLeverage    num        `json:"max_leverage"`
	MinNotionalUSD num        `json:"min_notional_usd"`
	MarginTiers    []tierJSON `json:"margin_tiers"`
}

func perpOut(p api.PerpInstrument) perpJSON {
	out := perpJSON{PerpInstrument: p, LotSize: nm(p.LotSize), TickSize: nm(p.TickSize), MaxLeverage: nm(p.MaxLeverage),
		MinNotionalUSD: nm(p.MinNotionalUSD), MarginTiers: make([]tierJSON, len(p.MarginTiers))}
	for i, t := range p.MarginTiers {
		out.MarginTiers[i] = tierJSON{t, nm(t.MaxLeverage), nm(t.MMR), nm(t.MMD)}
	}
	return out
}

type spotJSON struct {
	api.SpotInstrument
	LotSize             num `json:"lot_size"`
	TickSize            num `json:"tick_size"`
	MinSizeInQuoteAsset num `json:"min_size_in_quote_asset"`
}

func spotOut(s api.SpotInstrument) spotJSON {
	return spotJSON{s, nm(s.LotSize), nm(s.TickSize), nm(s.MinSizeInQuoteAsset)}
}

type instrumentsJSON struct {
	Perps []perpJSON `json:"perps"`
	Spot  []spotJSON `json:"spot"`
}

type weightJSON struct {
	Amount num `json:"amount"`
	Weight num `json:"weight"`
}

type collRiskJSON struct {
	WeightTiers           []weightJSON `json:"weight_tiers"`
	MaxMarginCap          num          `json:"max_margin_cap"`
	StalePriceGuardWeight num          `json:"stale_price_guard_weight"`
	Enabled               bool         `json:"enabled"`
}

type collateralJSON struct {
	api.Collateral
	DefaultCollWeight   num          `json:"default_coll_weight"`
	CollRisk            collRiskJSON `json:"coll_risk"`
	TransferNotionalFee num          `json:"transfer_notional_fee"`
	WithdrawalFee       num          `json:"withdrawal_fee"`
}

func collateralOut(c api.Collateral) collateralJSON {
	r := collRiskJSON{MaxMarginCap: nm(c.CollRisk.MaxMarginCap), StalePriceGuardWeight: nm(c.CollRisk.StalePriceGuardWeight),
		Enabled: c.CollRisk.Enabled}
	for _, w := range c.CollRisk.WeightTiers {
		r.WeightTiers = append(r.WeightTiers, weightJSON{nm(w.Amount), nm(w.Weight)})
	}
	return collateralJSON{c, nm(c.DefaultCollWeight), r, nm(c.TransferNotionalFee), nm(c.WithdrawalFee)}
}

type candleJSON struct {
	Time   int64 `json:"time"`
	Open   num   `json:"open"`
	High   num   `json:"high"`
	Low    num   `json:"low"`
	Close  num   `json:"close"`
	Volume num   `json:"volume"`
}

func candleOut(c api.Candle) candleJSON {
	return candleJSON{c.Time.UnixMilli(), nm(c.Open), nm(c.High), nm(c.Low), nm(c.Close), nm(c.Volume)}
}

type balanceJSON struct {
	Balance             num `json:"balance"`
	WithdrawableBalance num `json:"withdrawable_balance"`
}

type vaultJSON struct {
	WithdrawableShares num `json:"withdrawable_shares"`
	TotalShares        num `json:"total_shares"`
	Amount             num `json:"amount"`
}

type legLevJSON struct {
	Type  string `json:"type"`
	Value num    `json:"value"`
}

type legJSON struct {
	InstrumentID   api.InstrumentID `json:"instrument_id"`
	InstrumentName string           `json:"instrument_name"`
	Side           string           `json:"side"`
	Size           num              `json:"size"`
	EntryPrice     num              `json:"entry_price"`
	Leverage       legLevJSON       `json:"leverage"`
	PositionValue  num              `json:"position_value"`
}

type posSummaryJSON struct {
	PositionType     string    `json:"position_type"`
	Legs             []legJSON `json:"legs"`
	LiquidationPrice num       `json:"liquidation_price"`
	MM               num       `json:"mm"`
	IM               num       `json:"im"`
	Upnl             num       `json:"upnl"`
}

// summaryJSON is account_summary in the spec's shape (every figure a JSON number).
type summaryJSON struct {
	Address                      string                    `json:"address"`
	MarginMode                   string                    `json:"margin_mode"`
	MultiAssetMode               bool                      `json:"multi_asset_mode"`
	HedgeMode                    bool                      `json:"hedge_mode"`
	SpotCollateral               map[string]balanceJSON    `json:"spot_collateral"`
	Collateral                   map[string]balanceJSON    `json:"collateral"`
	VaultBalances                map[string]vaultJSON      `json:"vault_balances"`
	StakedCollateral             num                       `json:"staked_collateral"`
	PerpPositions                map[string]posSummaryJSON `json:"perp_positions"`
	InitialMarginUtilization     num                       `json:"initial_margin_utilization"`
	MaintenanceMarginUtilization num                       `json:"maintenance_margin_utilization"`
	Upnl                         num                       `json:"upnl"`
	TotalAccountEquity           num                       `json:"total_account_equity"`
	MarginBalance                num                       `json:"margin_balance"`
	InitialMargin                num                       `json:"initial_margin"`
	MaintenanceMargin            num                       `json:"maintenance_margin"`
	TotalVolume                  num                       `json:"total_volume"`
	TotalPnl                     num                       `json:"total_pnl"`
	AvailableBalance             num                       `json:"available_balance"`
	TransferMarginReq            num                       `json:"transfer_margin_req"`
	MaxDrawdown                  num                       `json:"max_drawdown"`
	SpotAccountEquity            num                       `json:"spot_account_equity"`
	DerivativeAccountEquity      num                       `json:"derivative_account_equity"`
	SpotVolume                   num                       `json:"spot_volume"`
}

func balancesOut(m map[string]api.CollateralBalance) map[string]balanceJSON {
	out := make(map[string]balanceJSON, len(m))
	for k, v := range m {
		out[k] = balanceJSON{nm(v.Balance), nm(v.WithdrawableBalance)}
	}
	return out
}

func summaryOut(s api.AccountSummary) summaryJSON {
	out := summaryJSON{Address: s.Address, MarginMode: s.MarginMode, MultiAssetMode: s.MultiAssetMode, HedgeMode: s.HedgeMode,
		SpotCollateral: balancesOut(s.SpotCollateral), Collateral: balancesOut(s.Collateral),
		VaultBalances: map[string]vaultJSON{}, StakedCollateral: nm(s.StakedCollateral),
		PerpPositions:                map[string]posSummaryJSON{},
		InitialMarginUtilization:     nm(s.InitialMarginUtilization),
		MaintenanceMarginUtilization: nm(s.MaintenanceMarginUtilization), Upnl: nm(s.Upnl),
		TotalAccountEquity: nm(s.TotalAccountEquity), MarginBalance: nm(s.MarginBalance),
		InitialMargin: nm(s.InitialMargin), MaintenanceMargin: nm(s.MaintenanceMargin), TotalVolume: nm(s.TotalVolume),
		TotalPnl: nm(s.TotalPnl), AvailableBalance: nm(s.AvailableBalance), TransferMarginReq: nm(s.TransferMarginReq),
		MaxDrawdown: nm(s.MaxDrawdown), SpotAccountEquity: nm(s.SpotAccountEquity),
		DerivativeAccountEquity: nm(s.DerivativeAccountEquity), SpotVolume: nm(s.SpotVolume)}
	for k, v := range s.VaultBalances {
		out.VaultBalances[k] = vaultJSON{nm(v.WithdrawableShares), nm(v.TotalShares), nm(v.Amount)}
	}
	for k, p := range s.PerpPositions {
		ps := posSummaryJSON{PositionType: p.PositionType, Legs: []legJSON{}, LiquidationPrice: nm(p.LiquidationPrice),
			MM: nm(p.MM), IM: nm(p.IM), Upnl: nm(p.Upnl)}
		for _, l := range p.Legs {
			ps.Legs = append(ps.Legs, legJSON{l.InstrumentID, l.InstrumentName, l.Side, nm(l.Size), nm(l.EntryPrice),
				legLevJSON{l.Leverage.Type, nm(l.Leverage.Value)}, nm(l.PositionValue)})
		}
		out.PerpPositions[k] = ps
	}
	return out
}
