package ui

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// placeWire sends one checked order to the simulator and reads the answer the one way.
func placeWire(t *testing.T, c *simConsole, co state.CheckedOrder) state.Outcome {
	t.Helper()
	resp, err := c.m.ex.PlaceOrders(context.Background(), []api.OrderWire{co.Wire})
	if err != nil {
		return state.Outcome{Kind: state.OutcomeRejected, Reason: err.Error()}
	}
	return state.OrderOutcome(resp, co.Size)
}

// offerFor checks an order too large for the account and returns the size the check offers.
func offerFor(t *testing.T, c *simConsole, in state.OrderIntent) string {
	t.Helper()
	_, errs := c.m.store.CheckOrder(in, state.Guard{})
	for _, e := range errs {
		if e.Field == state.FieldSize && strings.Contains(e.Msg, "at most") && e.Suggest != "" {
			return e.Suggest
		}
	}
	t.Fatalf("%+v: no size offered: %v", in, errs)
	return ""
}

// TestOfferedMaximumIsAccepted (issue #23, case 1): for limit and market, buy and sell, perpetual
// and spot, the largest size the order check offers passes the check and the simulator accepts
// it over HTTP; one lot more the check refuses. Before the one rule (api.MarginOrder) the client
// valued a bid at its price with the maker fee while the exchange valued it at the mark with the
// taker fee, and the offer was refused.
func TestOfferedMaximumIsAccepted(t *testing.T) {
	t.Parallel()
	type tc struct {
		name, inst, side string
		typ              state.OrderType
		price            func(api.Ticker) string
		spot             bool
	}
	bid := func(tk api.Ticker) string { return tk.BestBidPrice.String() }
	ask := func(tk api.Ticker) string { return tk.BestAskPrice.String() }
	for _, x := range []tc{
		{"perp limit buy under the mark", "BTC-PERP", "b", state.Limit, bid, false},
		{"perp limit sell over the mark", "BTC-PERP", "s", state.Limit, ask, false},
		{"perp market buy", "ETH-PERP", "b", state.Market, nil, false},
		{"perp market sell", "ETH-PERP", "s", state.Market, nil, false},
		{"spot limit buy", "ETH/USDC", "b", state.Limit, bid, true},
		{"spot market buy", "ETH/USDC", "b", state.Market, nil, true},
	} {
		t.Run(x.name, func(t *testing.T) {
			t.Parallel()
			c := newSimConsole(t, 200, 60, false)
			pump(t, c.m, c.m.Init())
			if x.spot { // half the demo balance to the spot account
				if _, err := c.m.ex.InternalTransfer(context.Background(), 1, "50000", false); err != nil {
					t.Fatal(err)
				}
				pump(t, c.m, c.m.refreshNow(state.KindAccount))
			}
			tk, ok := c.m.store.Ticker(x.inst)
			if !ok {
				t.Fatalf("no ticker for %s", x.inst)
			}
			in := state.OrderIntent{Instrument: x.inst, Side: x.side, Type: x.typ, Size: "1000000"}
			if x.price != nil {
				in.Price = x.price(tk)
			}
			in.Size = offerFor(t, c, in)
			co, errs := c.m.store.CheckOrder(in, state.Guard{})
			if len(errs) != 0 {
				t.Fatalf("the offered size %s fails the check: %v", in.Size, errs)
			}
			more := in
			more.Size = co.Size.Add(co.Instrument.LotSize).String()
			if _, errs := c.m.store.CheckOrder(more, state.Guard{}); len(errs) == 0 {
				t.Errorf("one lot over the offer (%s) passes the check: the offer is not the largest", more.Size)
			}
			if out := placeWire(t, c, co); out.Kind == state.OutcomeRejected || out.Kind == state.OutcomeSent {
				t.Fatalf("the exchange refused the offered size %s: %s", in.Size, out.Reason)
			}
		})
	}
}

// TestSpotSellOfferedMaximumIsAccepted (case 1, spot sell, limit and market): what the check
// offers to sell is what the spot account holds free, and the simulator takes it.
func TestSpotSellOfferedMaximumIsAccepted(t *testing.T) {
	t.Parallel()
	for _, typ := range []state.OrderType{state.Limit, state.Market} {
		t.Run(typ.String(), func(t *testing.T) {
			t.Parallel()
			c := newSimConsole(t, 200, 60, false)
			pump(t, c.m, c.m.Init())
			if _, err := c.m.ex.InternalTransfer(context.Background(), 1, "20000", false); err != nil {
				t.Fatal(err)
			}
			pump(t, c.m, c.m.refreshNow(state.KindAccount))
			buy, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "ETH/USDC", Side: "b", Type: state.Market, Size: "1"}, state.Guard{})
			if len(errs) != 0 {
				t.Fatal(errs)
			}
			if out := placeWire(t, c, buy); out.Kind != state.OutcomeFilled {
				t.Fatalf("spot buy: %+v", out)
			}
			pump(t, c.m, c.m.refreshNow(state.KindAccount, state.KindTickers, state.KindMids))
			in := state.OrderIntent{Instrument: "ETH/USDC", Side: "s", Type: typ, Size: "5"}
			if typ == state.Limit {
				tk, _ := c.m.store.Ticker("ETH/USDC")
				in.Price = tk.BestAskPrice.String()
			}
			in.Size = offerFor(t, c, in)
			co, errs := c.m.store.CheckOrder(in, state.Guard{})
			if len(errs) != 0 {
				t.Fatalf("the offered size %s fails the check: %v", in.Size, errs)
			}
			if out := placeWire(t, c, co); out.Kind == state.OutcomeRejected || out.Kind == state.OutcomeSent {
				t.Fatalf("the exchange refused the offered size %s: %s", in.Size, out.Reason)
			}
		})
	}
}

// TestRoundingOffersPassTheNextCheck (issue #23, case 8): a value the check offers, once taken,
// passes every check at once (lot, tick and minimum order value together) and the simulator
// accepts the order; a price is rounded toward the passive side. Before: size 0.00001 offered
// 0.0001 (under the 10 USD minimum), "or USD 0.1" offered 9.73 USD (under it too), and a buy at
// 97000.05 offered 97000.1.
func TestRoundingOffersPassTheNextCheck(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	tk, _ := c.m.store.Ticker("BTC-PERP")
	bid := tk.BestBidPrice.Sub(decimal.NewFromInt(50)) // rests: nothing fills between the cases
	take := func(in state.OrderIntent, field string, set func(*state.OrderIntent, string)) state.OrderIntent {
		t.Helper()
		_, errs := c.m.store.CheckOrder(in, state.Guard{})
		if len(errs) != 1 || errs[0].Field != field || errs[0].Suggest == "" {
			t.Fatalf("%+v: want one %s problem with an offer, got %v", in, field, errs)
		}
		set(&in, errs[0].Suggest)
		return in
	}
	setSize := func(in *state.OrderIntent, v string) { in.Size = v }
	setUSD := func(in *state.OrderIntent, v string) { in.NotionalUSD = v }
	setPrice := func(in *state.OrderIntent, v string) { in.Price = v }
	cases := []state.OrderIntent{
		take(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Price: bid.String(), Size: "0.00001"}, state.FieldSize, setSize),
		take(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Price: bid.String(), NotionalUSD: "0.1"}, state.FieldNotional, setUSD),
		take(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Price: bid.String(), NotionalUSD: "12"}, state.FieldNotional, setUSD), // one lot, 9.7 USD
		take(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: state.Market, NotionalUSD: "12"}, state.FieldNotional, setUSD),
		take(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Price: bid.Add(decimal.RequireFromString("0.05")).String(), Size: "0.001"}, state.FieldPrice, setPrice),
		take(state.OrderIntent{Instrument: "BTC-PERP", Side: "s", Price: tk.BestAskPrice.Add(decimal.RequireFromString("50.05")).String(), Size: "0.001"}, state.FieldPrice, setPrice),
	}
	if cases[4].Price != bid.String() {
		t.Errorf("a buy at %s+0.05 was offered %s, not the passive %s", bid, cases[4].Price, bid)
	}
	if want := tk.BestAskPrice.Add(decimal.RequireFromString("50.1")); cases[5].Price != want.String() {
		t.Errorf("a sell was offered %s, not the passive %s", cases[5].Price, want)
	}
	for _, in := range cases {
		co, errs := c.m.store.CheckOrder(in, state.Guard{})
		if len(errs) != 0 {
			t.Fatalf("%+v: the offered value fails the next check: %v", in, errs)
		}
		if out := placeWire(t, c, co); out.Kind == state.OutcomeRejected || out.Kind == state.OutcomeSent {
			t.Fatalf("%+v: the exchange did not take it: %+v", in, out)
		}
	}
}

// pickTicker focuses the tickers pane, moves its cursor to sym and presses key (b, s or enter).
func pickTicker(t *testing.T, c *simConsole, sym, key string) {
	t.Helper()
	if c.m.form.Capturing() {
		c.key(t, "esc") // out of the form's text field, as a trader would before pressing 1
	}
	c.key(t, "1")
	for range 30 {
		c.key(t, "up")
	}
	for i := 0; c.m.tickers.Selected() != sym; i++ {
		if i > 50 {
			t.Fatalf("%s is not in the tickers list", sym)
		}
		c.key(t, "down")
	}
	c.key(t, key)
}

// TestFormDrivenAcrossInstruments (issue #23, case 2, and the model test of "What must hold"): a
// trader places a BTC-PERP buy, picks DOGE-PERP in the tickers and presses s: the form is on
// DOGE-PERP, selling, with no price, size or USD carried over and the cursor on Price; the same
// keys then place the DOGE order, and the BTC keys replayed place the same BTC order again. The
// exchange's open orders are exactly the three orders typed. Before: DOGE showed Price 96000
// with the cursor on Size, and the replay typed into the old size.
func TestFormDrivenAcrossInstruments(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	form := c.m.form
	btcBuy := func() {
		pickTicker(t, c, "BTC-PERP", "b")
		if form.Field() != orderentry.FieldPrice {
			t.Fatalf("b put the cursor on field %d, not Price", form.Field())
		}
		c.typeText(t, "96000")
		c.key(t, "down")
		c.typeText(t, "0.01")
		if p, s := form.Value(orderentry.FieldPrice), form.Value(orderentry.FieldSize); p != "96000" || s != "0.01" {
			t.Fatalf("BTC keys filled price %q size %q", p, s)
		}
		c.key(t, "enter", "enter")
		if !strings.Contains(c.m.shownNotice(), "placed") {
			t.Fatalf("BTC order: %q", c.m.shownNotice())
		}
	}
	btcBuy()

	pickTicker(t, c, "DOGE-PERP", "s")
	if got := strings.TrimSpace(form.Value(orderentry.FieldInstrument)); got != "DOGE-PERP" || form.Side() != api.SideSell {
		t.Fatalf("after s on DOGE-PERP the form is on %q side %q", got, form.Side())
	}
	for _, f := range []orderentry.Field{orderentry.FieldPrice, orderentry.FieldTrigger, orderentry.FieldSize, orderentry.FieldUSD} {
		if v := form.Value(f); v != "" {
			t.Errorf("field %d carried %q from BTC-PERP to DOGE-PERP", f, v)
		}
	}
	if form.Field() != orderentry.FieldPrice {
		t.Errorf("s put the cursor on field %d, not Price", form.Field())
	}
	c.typeText(t, "m") // this instrument's own mark, asked for
	mark, _ := c.m.store.Ticker("DOGE-PERP")
	if got := form.Value(orderentry.FieldPrice); got == "" || !d(got).Equal(mark.MarkPrice) {
		t.Fatalf("m filled %q, DOGE-PERP's mark is %s", got, mark.MarkPrice)
	}
	dogePx := form.Value(orderentry.FieldPrice)
	c.key(t, "down")
	c.typeText(t, "100")
	c.key(t, "enter", "enter")
	if !strings.Contains(c.m.shownNotice(), "placed") {
		t.Fatalf("DOGE order: %q", c.m.shownNotice())
	}

	pickTicker(t, c, "BTC-PERP", "b")
	if v := c.m.View(); !strings.Contains(v, "last 0.01") {
		t.Errorf("the last BTC-PERP size is not shown as such:\n%s", v)
	}
	btcBuy() // the same keys place the same order

	page, err := c.m.ex.OpenOrders(context.Background(), c.m.ex.Address(), api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range page.Data {
		got = append(got, fmt.Sprintf("%s %s %s@%s", o.Instrument, o.Side, o.Size, o.LimitPrice))
	}
	sort.Strings(got)
	want := []string{"BTC-PERP b 0.01@96000", "BTC-PERP b 0.01@96000", "DOGE-PERP s 100@" + d(dogePx).String()}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the exchange's open orders %v, want %v", got, want)
	}
}

// TestCloseAndRestingNeedNoTypedConfirmation (issue #23, case 6), against the simulator: x on an
// 84k USD long previews the utilization after the close (0.00%, not today's) and Enter alone
// closes it, the market-order guard's finding said but not typed; a buy limit 11.85% under the
// mark, which rests, is placed with Enter alone and its distance said. Before: the close showed
// today's utilization and asked for a typed yes, and so did the resting bid.
func TestCloseAndRestingNeedNoTypedConfirmation(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	open, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: state.Market, Size: "0.86"}, state.Guard{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if out := placeWire(t, c, open); out.Kind != state.OutcomeFilled {
		t.Fatalf("opening the long: %+v", out)
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindTickers))
	c.key(t, "2", "x", "x")
	if c.m.confirmation() == nil {
		t.Fatalf("x did not open the confirmation: %q", c.m.shownNotice())
	}
	v := c.m.View()
	if !strings.Contains(v, "Util. after  0.00%") {
		t.Errorf("the close does not preview the utilization after it:\n%s", v)
	}
	if !strings.Contains(v, "market-order limit") {
		t.Errorf("the market-order guard's finding is not said:\n%s", v)
	}
	if c.m.confirmation().Action().Typed != "" {
		t.Fatalf("a reduce-only close asks for a typed %q", c.m.confirmation().Action().Typed)
	}
	c.key(t, "enter")
	if ps := c.m.store.Positions(); len(ps) != 0 {
		t.Fatalf("positions after Enter on the close: %+v (notice %q)", ps, c.m.shownNotice())
	}

	tk, _ := c.m.store.Ticker("BTC-PERP")
	far := state.FloorToStep(tk.MarkPrice.Mul(d("0.8815")), d("0.1"))
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
	c.m.form.Focus(orderentry.FieldPrice)
	c.typeText(t, far.String())
	c.key(t, "down")
	c.typeText(t, "0.01")
	c.key(t, "enter")
	if c.m.confirmation() == nil || c.m.confirmation().Action().Typed != "" {
		t.Fatalf("a resting bid 11.85%% under the mark: dialog %v (notice %q)", c.m.confirmation() != nil, c.m.shownNotice())
	}
	if v := c.m.View(); !strings.Contains(v, "cannot fill at once") {
		t.Errorf("the distance is not said:\n%s", v)
	}
	c.key(t, "enter")
	if n := exchangeOpen(t, c); n != 1 {
		t.Fatalf("%d open orders on the exchange after Enter (notice %q)", n, c.m.shownNotice())
	}
}

// TestMarketOrderResultInTotals (issue #23, case 5), against the simulator: a 0.3 BTC market buy
// that takes several levels is reported in totals: the fills notice that follows the order adds
// its fills up (size, average, fees) to what the exchange's fills say. Before: "filled: buy 0.0401 BTC-PERP @ 97,341.0 (+1 more fills)".
func TestMarketOrderResultInTotals(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	_, fills, _ := activityGroup(t, c.m)
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
	c.m.form.SetOrderType("market")
	c.m.form.Focus(orderentry.FieldSize)
	c.typeText(t, "0.3")
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("no confirmation: %q", c.m.shownNotice())
	}
	c.typeText(t, "yes") // 0.3 BTC is over the market-order limit
	c.key(t, "enter")
	pump(t, c.m, teaCmd(fills.Task().Poll()))
	page, err := c.m.ex.Fills(context.Background(), c.m.ex.Address(), api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	tot := state.SumFills(page.Data)
	if len(tot) != 1 || tot[0].Count < 2 || !tot[0].Size.Equal(d("0.3")) {
		t.Fatalf("the exchange's fills: %+v", tot)
	}
	want := fmt.Sprintf("filled: buy 0.3000 BTC-PERP @ %s avg of %d fills, fee %s USD",
		common.FmtNum(tot[0].AvgPrice, 1), tot[0].Count, state.FormatUSDFee(tot[0].Fee))
	if !strings.HasPrefix(c.m.shownNotice(), want+", slip ") { // the order's slippage follows its fills' totals (issue #41)
		t.Fatalf("fills notice %q, want %q and the slippage", c.m.shownNotice(), want)
	}
}

// TestOneMarkForEveryUPnL (issue #23, case 4), against the simulator: with a position open and the
// market moving, the positions pane's uPnL, the account pane's and the status line's are one
// figure whichever poll came last (the account's or the tickers'). Before: Positions recomputed
// from the ticker while Account and the status line showed the account poll's figure.
func TestOneMarkForEveryUPnL(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	for _, sym := range []string{"BTC-PERP", "ETH-PERP"} {
		co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: sym, Side: "b", Type: state.Market, Size: "0.05"}, state.Guard{})
		if len(errs) != 0 {
			t.Fatal(errs)
		}
		if out := placeWire(t, c, co); out.Kind != state.OutcomeFilled {
			t.Fatalf("%s: %+v", sym, out)
		}
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindTickers))
	agree := func(when string) {
		t.Helper()
		sum := decimal.Zero
		for _, r := range c.m.store.PositionViews() {
			sum = sum.Add(r.UPnL)
		}
		want := common.FmtSigned(sum, 2)
		v := c.m.View()
		if !strings.Contains(v, "uPnL "+want) {
			t.Errorf("%s: the status line does not show the positions' uPnL %s:\n%s", when, want, v)
		}
		if !regexp.MustCompile(`Unrealized\s+` + regexp.QuoteMeta(want)).MatchString(v) {
			t.Errorf("%s: the account pane does not show the positions' uPnL %s:\n%s", when, want, v)
		}
	}
	moved := false
	for i := 0; i < 20 && !moved; i++ { // let the market move until the account's mark differs from the ticker's
		c.sim.Advance(5 * time.Second)
		pump(t, c.m, c.m.refreshNow(state.KindTickers))
		before, _ := c.m.store.Ticker("BTC-PERP")
		c.sim.Advance(5 * time.Second)
		pump(t, c.m, c.m.refreshNow(state.KindAccount))
		acct := c.m.store.Account().PerpPositions["BTC-PERP"]
		moved = len(acct.Legs) == 1 && !acct.Legs[0].PositionValue.Div(acct.Legs[0].Size.Abs()).Equal(before.MarkPrice)
	}
	if !moved {
		t.Fatal("the market did not move")
	}
	agree("account polled after the tickers")
	c.sim.Advance(5 * time.Second)
	pump(t, c.m, c.m.refreshNow(state.KindTickers))
	agree("tickers polled after the account")
}

// TestPreviewFeeIsWhatTheExchangeCharges: the console trading the simulator previews fees at the
// rates the simulator charges (ui.Config.Fees, which the embedded demo sets from sim.FeeRates):
// a market order's fills are charged the previewed taker rate. Before: 0.045% previewed, 0.04%
// charged, and a maker fee where the simulator pays a rebate.
func TestPreviewFeeIsWhatTheExchangeCharges(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: state.Market, Size: "0.2"}, state.Guard{})
	if len(errs) != 0 || !co.Preview.Taker {
		t.Fatalf("%v taker %v", errs, co.Preview.Taker)
	}
	if want := co.Preview.Notional.Mul(c.m.store.Fees().Taker); !co.Preview.Fee.Equal(want) {
		t.Fatalf("preview fee %s, want %s", co.Preview.Fee, want)
	}
	if out := placeWire(t, c, co); out.Kind != state.OutcomeFilled {
		t.Fatalf("%+v", out)
	}
	page, err := c.m.ex.Fills(context.Background(), c.m.ex.Address(), api.PageParams{})
	if err != nil || len(page.Data) == 0 {
		t.Fatalf("fills %v %v", page.Data, err)
	}
	for _, f := range page.Data {
		want := f.Size.Mul(f.Price).Mul(c.m.store.Fees().Taker)
		if f.Fee.Sub(want).Abs().GreaterThan(d("0.000001")) {
			t.Errorf("fill of %s at %s charged %s, the previewed rate gives %s", f.Size, f.Price, f.Fee, want)
		}
	}
}

// TestPreviewedMarginIsWhatAvailableLoses (issue #23, case 1): a 1 BTC bid under the mark
// previews the margin the exchange then takes off "Available" (9,729.90 at a 97,299 mark, not the
// 9,700.01 the bid's price gave before).
func TestPreviewedMarginIsWhatAvailableLoses(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	tk, _ := c.m.store.Ticker("BTC-PERP")
	px := state.FloorToStep(tk.MarkPrice.Mul(d("0.997")), d("0.1"))
	co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Price: px.String(), Size: "1"}, state.Guard{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	before := c.m.store.Account().AvailableBalance
	if out := placeWire(t, c, co); out.Kind != state.OutcomePlaced {
		t.Fatalf("%+v", out)
	}
	pump(t, c.m, c.m.refreshNow(state.KindAccount))
	if took := before.Sub(c.m.store.Account().AvailableBalance); !took.Equal(co.Preview.MarginRequired) {
		t.Fatalf("previewed margin %s, Available fell by %s", co.Preview.MarginRequired, took)
	}
}
