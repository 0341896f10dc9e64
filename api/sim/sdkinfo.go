package sim

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// The /info methods the official SDKs declare beyond the spec's table, in the shapes they
// declare (@hotstuff-labs/ts-sdk 0.0.1-beta.13's .d.ts, the Python SDK's dataclasses).

// listLimit reads a bare list's limit: 0 is the default, 1 to 1000 taken, anything else refused.
func listLimit(limit api.Int, def int) (int, error) {
	if limit == 0 {
		return def, nil
	}
	if limit < 1 || limit > 1000 {
		return 0, badRequest("params.limit %d: want 1 to 1000 (or none for %d)", limit, def)
	}
	return int(limit), nil
}

// dayVolume is one UTC day of an account's traded notional.
type dayVolume struct {
	day                int64 // days since the Unix epoch
	perp, spot, stable decimal.Decimal
}

// volumeDaysKept is how many days of volume an account keeps (user_fees reads 14 and 30).
const volumeDaysKept = 30

// addVolume adds a fill's notional to the account's day.
func (a *account) addVolume(at time.Time, m *market, notional decimal.Decimal) {
	if a.internal {
		return
	}
	a.dirty = true
	day := at.Unix() / 86400
	if n := len(a.days); n == 0 || a.days[n-1].day != day {
		keep := a.days[:0]
		for _, d := range a.days {
			if d.day > day-volumeDaysKept {
				keep = append(keep, d)
			}
		}
		a.days = append(keep, dayVolume{day: day})
	}
	d := &a.days[len(a.days)-1]
	switch {
	case !m.spot:
		d.perp = d.perp.Add(notional)
	case m.stable:
		d.stable = d.stable.Add(notional)
	default:
		d.spot = d.spot.Add(notional)
	}
}

// volumeSince sums the account's volume over the last n days, today included.
func (a *account) volumeSince(now time.Time, n int64) (perp, spot, stable decimal.Decimal) {
	today := now.Unix() / 86400
	for _, d := range a.days {
		if d.day > today-n {
			perp, spot, stable = perp.Add(d.perp), spot.Add(d.spot), stable.Add(d.stable)
		}
	}
	return perp, spot, stable
}

// userFeesJSON is user_fees' answer: the rates the simulator charges (one schedule for every
// account and product: makers earn a rebate, takers pay) and the account's rolling volumes.
// The simulator has no options and no volume tiers: their rates and the next tier's threshold
// are 0.
type userFeesJSON struct {
	Account           string          `json:"account"`
	SpotVolume14d     decimal.Decimal `json:"spot_volume_14d"`
	SpotVolume30d     decimal.Decimal `json:"spot_volume_30d"`
	StableSpotVol14d  decimal.Decimal `json:"stable_spot_volume_14d"`
	StableSpotVol30d  decimal.Decimal `json:"stable_spot_volume_30d"`
	PerpVolume14d     decimal.Decimal `json:"perp_volume_14d"`
	PerpVolume30d     decimal.Decimal `json:"perp_volume_30d"`
	OptionVolume14d   decimal.Decimal `json:"option_volume_14d"`
	OptionVolume30d   decimal.Decimal `json:"option_volume_30d"`
	TotalVolumeThresh int64           `json:"total_volume_threshold"`
	PerpMaker         num             `json:"perp_maker_fee_rate"`
	PerpTaker         num             `json:"perp_taker_fee_rate"`
	SpotMaker         num             `json:"spot_maker_fee_rate"`
	SpotTaker         num             `json:"spot_taker_fee_rate"`
	StableSpotMaker   num             `json:"stable_spot_maker_fee_rate"`
	StableSpotTaker   num             `json:"stable_spot_taker_fee_rate"`
	OptionMaker       num             `json:"option_maker_fee_rate"`
	OptionTaker       num             `json:"option_taker_fee_rate"`
}

func (s *Sim) infoUserFees(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	now := s.eng.now()
	p14, s14, st14 := a.volumeSince(now, 14)
	p30, s30, st30 := a.volumeSince(now, 30)
	return userFeesJSON{Account: a.addr, SpotVolume14d: s14, SpotVolume30d: s30, StableSpotVol14d: st14,
		StableSpotVol30d: st30, PerpVolume14d: p14, PerpVolume30d: p30, OptionVolume14d: decimal.Zero,
		OptionVolume30d: decimal.Zero, PerpMaker: nm(s.eng.fee.maker), PerpTaker: nm(s.eng.fee.taker), SpotMaker: nm(s.eng.fee.maker),
		SpotTaker: nm(s.eng.fee.taker), StableSpotMaker: nm(s.eng.fee.maker), StableSpotTaker: nm(s.eng.fee.taker),
		OptionMaker: nm(decimal.Zero), OptionTaker: nm(decimal.Zero)}, nil
}

// historyPoint is one sample of an account's value over time.
type historyPoint struct {
	at     time.Time
	value  decimal.Decimal // spot and derivative equity, in USD
	pnl    decimal.Decimal
	volume decimal.Decimal
}

// Account history: a point at most every historyEvery per account (on its own activity and from
// the market loop), at most maxHistoryKept points (the oldest half goes first).
const (
	historyEvery   = time.Minute
	maxHistoryKept = 2000
)

// noteHistory samples the account's value when its last point is older than historyEvery, or
// at once when force is set.
func (e *engine) noteHistory(a *account, force bool) {
	if a == nil || a.internal {
		return
	}
	now := e.now()
	if n := len(a.hist); !force && n > 0 && now.Sub(a.hist[n-1].at) < historyEvery {
		return
	}
	a.dirty = true
	a.logN[logHistory]++
	if len(a.hist) >= maxHistoryKept {
		a.hist = append(a.hist[:0], a.hist[len(a.hist)-maxHistoryKept/2:]...)
	}
	a.hist = append(a.hist, e.historyNow(a))
}

// historyNow is the account's value, PnL and volume now.
func (e *engine) historyNow(a *account) historyPoint {
	r := e.risk(a)
	v := r.equity()
	for _, c := range e.colls {
		if bal, ok := a.spot[c.rec.ID]; ok {
			v = v.Add(bal.Mul(e.collPrice(c.rec.ID)))
		}
	}
	return historyPoint{at: e.now(), value: v, pnl: a.pnl, volume: a.volume.Add(a.spotVol)}
}

// sampleHistory samples every account that holds something, from the market loop.
func (e *engine) sampleHistory() {
	for _, a := range e.users {
		if len(a.pos) > 0 || len(a.hist) > 0 {
			e.noteHistory(a, false)
		}
	}
}

// accountHistoryJSON is one point of account_history.
type accountHistoryJSON struct {
	Address      string          `json:"address"`
	TotalPnl     decimal.Decimal `json:"total_pnl"`
	TotalVolume  num             `json:"total_volume"`
	AccountValue decimal.Decimal `json:"account_value"`
	CreatedAt    isoTime         `json:"created_at"`
}

// infoAccountHistory answers account_history {user, limit?}: the account's value, PnL and
// volume over time, oldest first, ending with the value now.
func (s *Sim) infoAccountHistory(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	n, err := listLimit(p.Limit, 1000)
	if err != nil {
		return nil, err
	}
	pts := append(a.hist[:len(a.hist):len(a.hist)], s.eng.historyNow(a))
	if len(pts) > n {
		pts = pts[len(pts)-n:]
	}
	out := make([]accountHistoryJSON, len(pts))
	for i, h := range pts {
		out[i] = accountHistoryJSON{Address: a.addr, TotalPnl: h.pnl, TotalVolume: nm(h.volume),
			AccountValue: h.value, CreatedAt: isoTime(h.at)}
	}
	return out, nil
}

// oracleJSON is oracle's answer: an instrument's index and mark.
type oracleJSON struct {
	Symbol       string          `json:"symbol"`
	IndexPrice   decimal.Decimal `json:"index_price"`
	ExtMarkPrice decimal.Decimal `json:"ext_mark_price"`
	UpdatedAt    int64           `json:"updated_at"`
}

// infoOracle answers oracle {symbol}: the index and mark of one instrument, by its name, id or
// price index (BTC).
func (s *Sim) infoOracle(p *infoParams) (any, error) {
	sym := strings.TrimSpace(string(p.Symbol))
	if sym == "" {
		return nil, badRequest("params.symbol is missing: send an instrument name such as BTC-PERP")
	}
	m, err := s.eng.marketByName(sym)
	if err != nil {
		for _, x := range s.eng.markets {
			if !x.spot && strings.EqualFold(priceIndex(x.name), sym) {
				m, err = x, nil
				break
			}
		}
	}
	if err != nil {
		return nil, badRequest("%v", err)
	}
	return oracleJSON{Symbol: m.name, IndexPrice: m.px(m.index), ExtMarkPrice: m.markPx(), UpdatedAt: m.updated.UnixMilli()}, nil
}

// referralJSON is referral_summary's answer. The simulator has no referral programme: every
// account's summary is empty.
type referralJSON struct {
	Address          string         `json:"address"`
	Referrer         string         `json:"referrer"`
	ReferrerCode     string         `json:"referrer_code"`
	ReferTimestamp   int64          `json:"refer_timestamp"`
	Codes            []string       `json:"codes"`
	ReferredUsers    map[string]any `json:"referred_users"`
	ToClaimPerp      int64          `json:"to_claim_perp_rewards"`
	ToClaimSpot      int64          `json:"to_claim_spot_rewards"`
	ClaimedPerp      int64          `json:"claimed_perp_rewards"`
	ClaimedSpot      int64          `json:"claimed_spot_rewards"`
	TotalReferredVol int64          `json:"total_referred_volume"`
	RollingReferred  int64          `json:"rolling_referred_volume"`
	Tier             referralTier   `json:"referral_tier"`
	UpdatedAt        int64          `json:"updated_at"`
}

type referralTier struct {
	TotalReferredVolume int64 `json:"total_referred_volume"`
	FeeDiscountRate     int64 `json:"fee_discount_rate"`
	ReferrerCommission  int64 `json:"referrer_commission"`
}

func (s *Sim) infoReferral(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	return referralJSON{Address: a.addr, Codes: []string{}, ReferredUsers: map[string]any{}}, nil
}

// accountInfoJSON is account_info's answer: the account's settings, and its rewards (the
// simulator pays none).
type accountInfoJSON struct {
	Account accountInfoAccount `json:"account"`
	Rewards []any              `json:"rewards"`
	History []any              `json:"history"`
}

type accountInfoAccount struct {
	Address        string   `json:"address"`
	Role           int      `json:"role"`
	MarginMode     string   `json:"margin_mode"`
	MultiAssetMode bool     `json:"multi_asset_mode"`
	HedgeMode      bool     `json:"hedge_mode"`
	Referrer       string   `json:"referrer"`
	ReferralCodes  []string `json:"referral_codes"`
	ReferralTime   int64    `json:"referral_timestamp"`
	CreatedAt      int64    `json:"created_at_block_timestamp"`
}

func (s *Sim) infoAccountInfo(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	if p.CollateralID != "" {
		if _, _, err := s.eng.amount(api.CollateralID(atoiOr(string(p.CollateralID))), "1"); err != nil {
			return nil, badRequest("params.collateralId %s: %v", p.CollateralID, err)
		}
	}
	var created int64
	if !a.created.IsZero() {
		created = a.created.UnixMilli()
	}
	return accountInfoJSON{Account: accountInfoAccount{Address: a.addr, MarginMode: api.MarginCross,
		ReferralCodes: []string{}, CreatedAt: created}, Rewards: []any{}, History: []any{}}, nil
}

// atoiOr reads a digit string already checked by the params reader; anything else is -1.
func atoiOr(s string) int64 {
	var n int64
	if s == "" || len(s) > 18 {
		return -1
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// infoVaults answers vaults and sub_vaults empty: the SDKs type no shape for them (the vaults
// an account holds are in its account_summary's vault_balances).
func (s *Sim) infoVaults(p *infoParams) (any, error) {
	if p.Vault != "" {
		if _, err := canonical(p.Vault); err != nil {
			return nil, badRequest("params.vaultAddress: %v", err)
		}
	}
	return []any{}, nil
}

// infoVaultBalance answers vault_balance empty, as infoVaults (see vault_balances).
func (s *Sim) infoVaultBalance(p *infoParams) (any, error) {
	if p.User != "" {
		if _, err := canonical(p.User); err != nil {
			return nil, badRequest("params.user: %v", err)
		}
	}
	return s.infoVaults(p)
}
