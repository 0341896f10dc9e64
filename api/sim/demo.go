package sim

import (
	"fmt"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// Demo seeding: what SeedDemo opens, as fractions of the index price.
var (
	demoLongDip   = d("0.004") // the long's bid sits this far under the index, below the makers' quotes
	demoShortLev  = d("20")    // the short's isolated leverage: liquidation about 4% away
	demoRestAway  = d("0.03")  // the resting orders' distance from the index
	demoTpslSteps = d("0.025") // the take-profits' and stops' distance from the entry
)

// demoHeldBefore is how long before the last funding time the demo wallet opened its positions.
const demoHeldBefore = 10 * time.Minute

// demoDepositedBefore is how long before its first trade the demo wallet was funded.
const demoDepositedBefore = 5 * time.Minute

// DemoSigner is the seeded demo's wallet: its key is derived from the seed alone, so `--seed N`
// opens the same address every time. The key is public knowledge (anyone can derive it from
// the seed), so it is good only for a simulator: it must never hold anything on an exchange.
func DemoSigner(seed uint64) (*api.Signer, error) {
	h := secp.Keccak256([]byte("tradedesk/sim/demo-wallet/" + strconv.FormatUint(seed, 10)))
	for {
		key, err := secp.KeyFromBytes(h)
		if err == nil {
			return api.NewSigner(key)
		}
		h = secp.Keccak256(h) // zero or above the curve order: about one seed in 2^128
	}
}

// SeedDemo gives an account the look of a trader mid-session, through the exchange's own
// deposit, order and funding paths (no balance is written). An account the simulator does not
// know yet is funded first, as Fund does with the demo balance (WithDemoBalance), its deposits
// dated demoDepositedBefore its first trade; an account already funded keeps what it has. It
// opened its positions shortly before the last funding time (demoHeldBefore) and was paid that
// funding: a BTC-PERP long bought at a bid that the takers' account sold into (below the mark,
// so in profit), with a position take-profit and stop; an ETH-PERP short at 20x isolated (its
// liquidation price near enough to show the warning colours); a resting BTC-PERP bid, a resting
// SOL-PERP ask and a SOL-PERP bracket entry (limit buy with its take-profit and stop waiting for
// it). Money only moves between accounts, as in any trade.
func (s *Sim) SeedDemo(user string) error {
	defer s.publish(true)
	addr, err := canonical(user)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	// The wallet traded shortly before the last funding time, and that funding was paid, so
	// the funding view has rows from the start (paid by payFunding, as every hour's is).
	paid := time.UnixMilli(bucket(e.now().UnixMilli(), s.cfg.funding)).UTC()
	defer func() { e.at = time.Time{} }()
	if e.known(addr) == nil {
		e.at = paid.Add(-demoHeldBefore - demoDepositedBefore)
		if _, err := e.fund(addr, s.cfg.demo); err != nil {
			return fmt.Errorf("seed demo: %w", err)
		}
	}
	e.at = paid.Add(-demoHeldBefore)
	a := e.known(addr)
	if err := e.setLeverage(addr, "ETH-PERP", api.MarginIsolated, demoShortLev); err != nil {
		return fmt.Errorf("seed demo: %w", err)
	}
	e.curTx = e.txHash("demo", uint64(e.now().UnixMilli()), 0)
	steps := []func(*account) error{e.demoLong, e.demoShort, e.demoResting}
	for _, step := range steps {
		if err := step(a); err != nil {
			return fmt.Errorf("seed demo: %w", err)
		}
	}
	e.tidyBrackets()
	if paid.After(e.fundedAt) { // a second seeded wallet finds that funding paid already
		e.at = paid
		e.payFunding(paid)
	}
	return nil
}

// pxAt is the price f × the index, rounded to the market's tick.
func pxAt(m *market, f decimal.Decimal) decimal.Decimal {
	return m.px(m.tick.round(m.px(m.index).Mul(f)))
}

// roundPx rounds a price to the market's tick.
func roundPx(m *market, v decimal.Decimal) decimal.Decimal { return m.px(m.tick.round(v)) }

// demoPlace places orders for the account as a signed placeOrder would, and fails when any is
// refused.
func (e *engine) demoPlace(a *account, os ...api.OrderWire) error {
	for i := range os {
		os[i].PositionSide = api.PositionSideBoth
		if os[i].Tif == "" {
			os[i].Tif = api.TifGTC
		}
		e.demoN++
		os[i].Cloid = fmt.Sprintf("demo-%d", e.demoN)
	}
	r, err := e.applyPlace(a, &api.PlaceOrderData{Orders: os})
	if err != nil {
		return err
	}
	if m, ok := r.(map[string]any); ok {
		if sts, ok := m["status"].([]orderStatus); ok {
			for _, st := range sts {
				if st.Error != "" {
					return fmt.Errorf("%s", st.Error)
				}
			}
		}
	}
	return nil
}

// demoLong buys 0.1 BTC-PERP: a bid under the makers' quotes that the takers' account sells
// into, sweeping the makers' bids on the way; it then carries a position take-profit and stop.
func (e *engine) demoLong(a *account) error {
	m, _ := e.marketByName("BTC-PERP")
	px := pxAt(m, decimal.NewFromInt(1).Sub(demoLongDip))
	if err := e.demoPlace(a, api.OrderWire{InstrumentID: m.id, Side: api.SideBuy, Price: px.String(), Size: "0.1"}); err != nil {
		return err
	}
	ticks, lots := m.tick.round(px), int64(0)
	for _, l := range *m.book.side(true) {
		if l.price >= ticks {
			lots += l.size
		}
	}
	e.internalOrder(e.taker, m, false, ticks, lots, api.TifIOC)
	e.requote(m) // the makers quote again around the index, as they do every step
	m.mark = m.computeMark()
	if p := a.pos[m.id]; p == nil || p.size <= 0 {
		return fmt.Errorf("the BTC-PERP bid did not fill")
	}
	return e.demoPlace(a, e.demoTpsl(m, api.SideSell, "0.1", api.GroupingPosition, px)...)
}

// demoTpsl is a take-profit and a stop-loss demoTpslSteps either side of entry, closing on side.
func (e *engine) demoTpsl(m *market, side, size, grouping string, entry decimal.Decimal) []api.OrderWire {
	up := roundPx(m, entry.Mul(decimal.NewFromInt(1).Add(demoTpslSteps)))
	down := roundPx(m, entry.Mul(decimal.NewFromInt(1).Sub(demoTpslSteps)))
	tp, sl, bound := up, down, roundPx(m, entry.Mul(d("0.9")))
	if side == api.SideBuy {
		tp, sl, bound = down, up, roundPx(m, entry.Mul(d("1.1")))
	}
	return []api.OrderWire{
		api.TpslOrder(m.id, side, size, grouping, api.TpslLeg{Tpsl: api.TpslTakeProfit, Trigger: tp.String(), Price: bound.String()}),
		api.TpslOrder(m.id, side, size, grouping, api.TpslLeg{Tpsl: api.TpslStopLoss, Trigger: sl.String(), Price: bound.String()}),
	}
}

// demoShort sells 1.5 ETH-PERP at the market, isolated at 20x: into the makers' bids.
func (e *engine) demoShort(a *account) error {
	m, _ := e.marketByName("ETH-PERP")
	bound := roundPx(m, m.markPx().Mul(d("0.99")))
	err := e.demoPlace(a, api.OrderWire{InstrumentID: m.id, Side: api.SideSell, Price: bound.String(), Size: "1.5",
		Tif: api.TifIOC, IsMarket: true})
	if p := a.pos[m.id]; err == nil && (p == nil || p.size >= 0) {
		return fmt.Errorf("the ETH-PERP sell did not fill")
	}
	return err
}

// demoResting leaves a BTC-PERP bid, a SOL-PERP ask and a SOL-PERP bracket entry resting.
func (e *engine) demoResting(a *account) error {
	btc, _ := e.marketByName("BTC-PERP")
	sol, _ := e.marketByName("SOL-PERP")
	away := func(m *market, f decimal.Decimal) string { return pxAt(m, decimal.NewFromInt(1).Add(f)).String() }
	if err := e.demoPlace(a, api.OrderWire{InstrumentID: btc.id, Side: api.SideBuy, Price: away(btc, demoRestAway.Neg()), Size: "0.05"},
		api.OrderWire{InstrumentID: sol.id, Side: api.SideSell, Price: away(sol, demoRestAway), Size: "20"}); err != nil {
		return err
	}
	entryPx := away(sol, demoRestAway.Div(decimal.NewFromInt(2)).Neg())
	entry := api.OrderWire{InstrumentID: sol.id, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: entryPx, Size: "25", Tif: api.TifGTC}
	legs := e.demoTpsl(sol, api.SideSell, "25", api.GroupingNormal, decimal.RequireFromString(entryPx))
	os, err := api.Bracket(entry, api.TpslLeg{Tpsl: legs[0].Tpsl, Trigger: legs[0].TriggerPx, Price: legs[0].Price},
		api.TpslLeg{Tpsl: legs[1].Tpsl, Trigger: legs[1].TriggerPx, Price: legs[1].Price})
	if err != nil {
		return err
	}
	return e.demoPlace(a, os...)
}
