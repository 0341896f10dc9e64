package sim

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// flows is what the test itself saw move in and out of one account, outside trading: transfers
// (with their fees) and withdrawals (with theirs), per side.
type flows struct {
	mu               sync.Mutex
	spotUSDC, derivU decimal.Decimal
	withdrawn        decimal.Decimal // money that left the exchange (fees excluded)
}

func (f *flows) add(spot bool, v decimal.Decimal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if spot {
		f.spotUSDC = f.spotUSDC.Add(v)
	} else {
		f.derivU = f.derivU.Add(v)
	}
}

// trader is one account of the conservation test and the random actions it takes.
type trader struct {
	c     *api.Client
	rng   *rand.Rand
	e     *env
	all   []*trader
	flows *flows
}

var conserveMarkets = []struct {
	id   api.InstrumentID
	name string
	lot  string
}{{1, "BTC-PERP", "0.0001"}, {2, "ETH-PERP", "0.001"}, {5, "HYPE-PERP", "0.01"}, {101, "ETH/USDC", "0.0001"}}

// mark reads an instrument's mark price over HTTP.
func (tr *trader) mark(name string) decimal.Decimal {
	ts, err := tr.c.Ticker(ctx(), name)
	if err != nil || len(ts) != 1 {
		return decimal.Zero
	}
	return ts[0].MarkPrice
}

// act takes one random action. Refusals are part of the game; only money that moved is noted.
func (tr *trader) act() {
	m := conserveMarkets[tr.rng.IntN(len(conserveMarkets))]
	mark := tr.mark(m.name)
	if !mark.IsPositive() {
		return
	}
	tick := map[api.InstrumentID]int32{1: 1, 2: 2, 5: 3, 101: 2}[m.id]
	buy := tr.rng.IntN(2) == 0
	side := api.SideSell
	if buy {
		side = api.SideBuy
	}
	off := decimal.NewFromFloat(1 + (tr.rng.Float64()-0.5)*0.02)
	px := mark.Mul(off).Round(tick)
	usd := 500 + tr.rng.ExpFloat64()*20000
	if tr.rng.IntN(5) == 0 {
		usd = 150000 + tr.rng.Float64()*600000 // heavily levered: liquidated by a shock
	}
	if m.id == 101 {
		usd = 200 + tr.rng.Float64()*3000
	}
	lot := dec(m.lot)
	size := decimal.NewFromFloat(usd).Div(mark).Div(lot).Floor().Mul(lot)
	if !size.IsPositive() {
		return
	}
	w := api.OrderWire{InstrumentID: m.id, Side: side, PositionSide: api.PositionSideBoth, Price: px.String(),
		Size: size.String(), Tif: api.TifGTC}
	switch k := tr.rng.IntN(20); {
	case k < 3 && m.id != 101:
		tr.bracket(w, px, tick)
		return
	case k < 5:
	case k < 8:
		w.IsMarket, w.Tif = true, api.TifIOC
		bound := dec("1.05")
		if !buy {
			bound = dec("0.95")
		}
		w.Price = mark.Mul(bound).Round(tick).String()
	case k < 9:
		w.Tif = api.TifFOK
	case k < 10:
		w.PostOnly = true
	case k < 11 && m.id != 101 && tr.rng.IntN(2) == 0:
		tr.positionTpsl(w, mark, tick)
		return
	case k < 11:
		w.ReduceOnly = true
	case k < 13 && m.id != 101:
		trig := mark.Mul(dec("1.003"))
		if !buy {
			trig = mark.Mul(dec("0.997"))
		}
		w.TriggerPx = trig.Round(tick).String()
	case k < 14:
		_, _ = tr.c.CancelAll(ctx())
		return
	case k < 15:
		_, _ = tr.c.CancelByInstrument(ctx(), m.id)
		return
	case k < 17:
		tr.transfer()
		return
	case k < 18:
		amt := decimal.NewFromInt(int64(10 + tr.rng.IntN(500)))
		toDeriv := tr.rng.IntN(2) == 0
		if _, err := tr.c.InternalTransfer(ctx(), collUSDC, amt.String(), toDeriv); err == nil {
			tr.flows.add(!toDeriv, amt)
			tr.flows.add(toDeriv, amt.Neg())
		}
		return
	default:
		amt := decimal.NewFromInt(int64(5 + tr.rng.IntN(300)))
		spot := tr.rng.IntN(2) == 0
		send := tr.c.DerivativeWithdraw
		if spot {
			send = tr.c.SpotWithdraw
		}
		if _, err := send(ctx(), collUSDC, amt.String(), 42161); err == nil {
			tr.flows.add(spot, amt.Add(decimal.NewFromInt(1)).Neg()) // USDC's withdrawal fee is 1
			tr.flows.mu.Lock()
			tr.flows.withdrawn = tr.flows.withdrawn.Add(amt)
			tr.flows.mu.Unlock()
		}
		return
	}
	_, _ = tr.c.PlaceOrders(ctx(), []api.OrderWire{w})
}

// bracket sends the limit order w as a bracket entry with a take-profit and a stop-loss 0.5% to
// 3% either side of its price.
func (tr *trader) bracket(w api.OrderWire, px decimal.Decimal, tick int32) {
	up := decimal.NewFromFloat(1.005 + tr.rng.Float64()*0.025)
	down := decimal.NewFromFloat(0.995 - tr.rng.Float64()*0.025)
	tp, sl := px.Mul(up), px.Mul(down)
	if w.Side == api.SideSell {
		tp, sl = px.Mul(down), px.Mul(up)
	}
	os, err := api.Bracket(w, tr.leg(api.TpslTakeProfit, tp, w.Side, tick), tr.leg(api.TpslStopLoss, sl, w.Side, tick))
	if err == nil {
		_, _ = tr.c.PlaceOrders(ctx(), os)
	}
}

// positionTpsl sets a take-profit or stop-loss on the whole position (refused without one).
func (tr *trader) positionTpsl(w api.OrderWire, mark decimal.Decimal, tick int32) {
	kind, f := api.TpslTakeProfit, dec("1.01") // a sell closes a long: its take-profit is above
	if tr.rng.IntN(2) == 0 {
		kind, f = api.TpslStopLoss, dec("0.99")
	}
	if w.Side == api.SideBuy {
		f = dec("2").Sub(f)
	}
	o := api.TpslOrder(w.InstrumentID, w.Side, w.Size, api.GroupingPosition, tr.leg(kind, mark.Mul(f), w.Side, tick))
	_, _ = tr.c.PlaceOrders(ctx(), []api.OrderWire{o})
}

// leg is a take-profit or stop-loss at trig whose market order accepts up to 5% past it.
func (tr *trader) leg(kind string, trig decimal.Decimal, entrySide string, tick int32) api.TpslLeg {
	bound := trig.Mul(dec("0.95"))
	if entrySide == api.SideSell {
		bound = trig.Mul(dec("1.05"))
	}
	return api.TpslLeg{Tpsl: kind, Trigger: trig.Round(tick).String(), Price: bound.Round(tick).String()}
}

// transfer sends USDC to another account of the test (USDC has no transfer fee).
func (tr *trader) transfer() {
	to := tr.all[tr.rng.IntN(len(tr.all))]
	if to == tr {
		return
	}
	amt := decimal.NewFromInt(int64(1 + tr.rng.IntN(2000)))
	spot := tr.rng.IntN(2) == 0
	send := tr.c.DerivativeTransfer
	if spot {
		send = tr.c.SpotTransfer
	}
	if _, err := send(ctx(), collUSDC, amt.String(), to.c.Address()); err == nil {
		tr.flows.add(spot, amt.Neg())
		to.flows.add(spot, amt)
	}
}

// Issue #22, "what must hold": twenty accounts trade at random and at once through the HTTP
// handler (limit, market, IOC, FOK, post-only, reduce-only and trigger orders, brackets (an
// entry with its take-profit and stop-loss) and position take-profits and stops, cancels,
// transfers, internal transfers, withdrawals) while the markets move, makers and takers trade,
// funding is paid and index shocks liquidate the levered. Then the books balance to the last
// unit, the money in and out is what the test put in and took out, and every account's balances
// are explained by its fills, funding and the transfers and withdrawals the test made.
func TestMoneyIsConserved(t *testing.T) {
	t.Parallel() // its own simulator, clock and state file: its waits (the file's syncs) overlap the others'
	// Under -race 40 actions each, not 100: the twenty still act at once (what the race detector
	// needs), and the run still liquidates and fires brackets (asserted below); the plain run
	// keeps the full volume.
	const traders = 20
	actions := 100
	if raceBuild {
		actions = 40
	}
	e := newEnv(t, WithSeed(22), WithStep(10*time.Second), WithFundingInterval(5*time.Minute))
	all := make([]*trader, traders)
	for i := range all {
		all[i] = &trader{c: e.client(fmt.Sprintf("conserve-%d", i)), rng: rand.New(rand.NewPCG(22, uint64(i))), e: e,
			all: all, flows: &flows{}}
		if _, err := all[i].c.CancelAll(ctx()); err != nil { // opens the account
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var driver sync.WaitGroup
	driver.Add(1)
	go func() { // the market: time passes (funding every 5 minutes) and prices jump
		defer driver.Done()
		rng := rand.New(rand.NewPCG(22, 99))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			e.sim.Advance(30 * time.Second)
			if i%4 == 3 {
				m := conserveMarkets[rng.IntN(3)]
				ts, err := all[0].c.Ticker(ctx(), m.name)
				if err == nil && len(ts) == 1 {
					f := dec("0.88")
					if rng.IntN(2) == 0 {
						f = dec("1.12")
					}
					tick := map[api.InstrumentID]int32{1: 1, 2: 2, 5: 3}[m.id]
					_ = e.sim.SetIndexPrice(m.name, ts[0].IndexPrice.Mul(f).Round(tick))
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var wg sync.WaitGroup
	for _, tr := range all {
		wg.Add(1)
		go func(tr *trader) {
			defer wg.Done()
			for range actions {
				tr.act()
			}
		}(tr)
	}
	wg.Wait()
	close(stop)
	driver.Wait()
	e.sim.Advance(5 * time.Minute) // one more funding payment on what is still open

	b := checkBooks(t, e.sim)
	demo := DefaultDemoBalance.Mul(decimal.NewFromInt(2 * traders))
	out := decimal.Zero
	for _, tr := range all {
		out = out.Add(tr.flows.withdrawn)
	}
	checkFlows(t, b, map[string]decimal.Decimal{"USDC": demo}, map[string]decimal.Decimal{"USDC": out})

	liqs, triggered, funded := 0, 0, 0
	for _, tr := range all {
		l, tg, f := reconcile(t, e, tr)
		liqs, triggered, funded = liqs+l, triggered+tg, funded+f
	}
	grouped := 0 // brackets' and positions' take-profits and stops that fired
	for _, tr := range all {
		h, err := tr.c.OrderHistory(ctx(), "", api.PageParams{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range h.Data {
			if o.Grouping != "" && o.State == api.StateTriggered {
				grouped++
			}
		}
	}
	t.Logf("%d liquidation fills, %d triggered orders (%d of brackets or positions), %d funding payments", liqs, triggered, grouped, funded)
	if liqs == 0 || triggered == 0 || funded == 0 || grouped == 0 {
		t.Errorf("the run must liquidate, fire triggers and brackets and pay funding to test them: %d, %d, %d, %d", liqs, triggered, grouped, funded)
	}
}

// reconcile checks that one account's balances are what its fills, funding, the insurance
// fund's payments and the test's own transfers and withdrawals say. It returns how many
// liquidation fills, triggered orders and funding payments the account had.
func reconcile(t *testing.T, e *env, tr *trader) (liqs, triggered, funded int) {
	t.Helper()
	addr := tr.c.Address()
	spot, deriv := DefaultDemoBalance.Add(tr.flows.spotUSDC), DefaultDemoBalance.Add(tr.flows.derivU)
	weth := decimal.Zero
	for _, f := range fillsOf(t, tr.c, addr) {
		if f.FillType == fillLiquidation {
			liqs++
		}
		if f.InstrumentID == 101 { // ETH/USDC: base WETH, quote USDC
			if f.Side == api.SideBuy {
				weth = weth.Add(f.Size)
				spot = spot.Sub(f.NotionalValue)
			} else {
				weth = weth.Sub(f.Size)
				spot = spot.Add(f.NotionalValue)
			}
			spot = spot.Sub(f.Fee)
			continue
		}
		deriv = deriv.Add(f.ClosedPnl).Sub(f.Fee)
	}
	for pg := 1; ; pg++ {
		p, err := fundingPage(e, addr, pg)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p.amounts {
			deriv = deriv.Add(v)
			funded++
		}
		if !p.next {
			break
		}
	}
	for _, o := range ordersOf(t, tr.c) {
		if o.State == api.StateTriggered {
			triggered++
		}
	}
	e.sim.mu.Lock()
	a := e.sim.eng.accounts[addr]
	gotDeriv, gotSpot, gotWETH := a.deriv[collUSDC], a.spot[collUSDC], a.spot[collWETH]
	for _, p := range a.pos {
		gotDeriv = gotDeriv.Add(p.isoMargin) // isolated margin is the account's money, set aside
	}
	e.sim.mu.Unlock()
	seized, _ := seizedUSDC(transfersOf(t, e, addr)) // the insurance fund's payments, from the account's records
	deriv = deriv.Add(seized)
	if !gotDeriv.Equal(deriv) {
		t.Errorf("%s derivative USDC (with isolated margin) %s, its records say %s (off by %s)", addr, gotDeriv, deriv, gotDeriv.Sub(deriv))
	}
	if !gotSpot.Equal(spot) {
		t.Errorf("%s spot USDC %s, its records say %s (off by %s)", addr, gotSpot, spot, gotSpot.Sub(spot))
	}
	if !gotWETH.Equal(weth) {
		t.Errorf("%s spot WETH %s, its fills say %s", addr, gotWETH, weth)
	}
	return liqs, triggered, funded
}

type fundingPageOut struct {
	amounts []decimal.Decimal
	next    bool
}

// fundingPage reads one page of an account's funding_history over HTTP.
func fundingPage(e *env, addr string, pg int) (fundingPageOut, error) {
	code, out := e.post(e.t, "/info", []byte(fmt.Sprintf(`{"method":"funding_history","params":{"user":%q,"page":%d,"limit":1000}}`, addr, pg)))
	if code != 200 {
		return fundingPageOut{}, fmt.Errorf("funding_history: %d %v", code, out)
	}
	var p fundingPageOut
	data, _ := out["data"].([]any)
	for _, x := range data {
		v, err := decimal.NewFromString(x.(map[string]any)["funding_payment"].(string))
		if err != nil {
			return p, err
		}
		p.amounts = append(p.amounts, v)
	}
	p.next, _ = out["has_next"].(bool)
	return p, nil
}
