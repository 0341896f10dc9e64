package ui

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// signedCounter counts the signed actions that reach the exchange (POST /exchange).
type signedCounter struct {
	next http.Handler
	n    atomic.Int64
}

func (s *signedCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/exchange") {
		s.n.Add(1)
	}
	s.next.ServeHTTP(w, r)
}

// command types line into the `:` command line and presses Enter.
func (c *simConsole) command(t *testing.T, line string) {
	t.Helper()
	c.key(t, ":")
	if !c.m.cmdline.Active() {
		t.Fatalf(": did not open the command line")
	}
	c.typeText(t, line)
	c.key(t, "enter")
}

// commandConfirmed runs a command and confirms its dialog (typing yes when the guard asks), then
// checks that it settled without error.
func (c *simConsole) commandConfirmed(t *testing.T, line string) {
	t.Helper()
	c.commandSent(t, line, true)
}

// commandSent runs line on the command line and sends it as the confirmation policy says:
// through its confirmation when asks (a market order, a bracket, a close, a mass cancel, a
// leverage change), at once otherwise (a plain limit order, a cancel of one order).
func (c *simConsole) commandSent(t *testing.T, line string, asks bool) {
	t.Helper()
	c.command(t, line)
	if !asks {
		if c.m.cmdline.Active() || c.m.confirmation() != nil || c.m.shownLevel() == common.LevelError {
			t.Fatalf("%q: not sent at once (line open %v, dialog %v, error %q, notice %q)", line, c.m.cmdline.Active(),
				c.m.confirmation() != nil, c.m.cmdline.Err(), c.m.shownNotice())
		}
		return
	}
	if c.m.cmdline.Active() || c.m.confirmation() == nil {
		t.Fatalf("%q: no confirmation (line open %v, error %q, notice %q)", line, c.m.cmdline.Active(), c.m.cmdline.Err(), c.m.shownNotice())
	}
	if c.m.confirmation().Action().Typed != "" {
		c.typeText(t, c.m.confirmation().Action().Typed)
	}
	c.key(t, "enter")
	if c.m.confirmation() != nil || c.m.shownLevel() == common.LevelError {
		t.Fatalf("%q: after confirming: dialog open %v, notice %q", line, c.m.confirmation() != nil, c.m.shownNotice())
	}
}

func (c *simConsole) openOrders(t *testing.T) []api.OrderRecord {
	t.Helper()
	pg, err := c.m.ex.OpenOrders(t.Context(), c.m.ex.Address(), api.PageParams{Page: 1})
	if err != nil {
		t.Fatal(err)
	}
	return pg.Data
}

func (c *simConsole) position(t *testing.T, symbol string) api.Position {
	t.Helper()
	ps, err := c.m.ex.Positions(t.Context(), c.m.ex.Address())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Instrument == symbol {
			return p
		}
	}
	return api.Position{}
}

func ordersOn(os []api.OrderRecord, symbol string) []api.OrderRecord {
	var out []api.OrderRecord
	for _, o := range os {
		if o.Instrument == symbol {
			out = append(out, o)
		}
	}
	return out
}

// TestCommandLineExamples drives each example of issue #13 through the `:` command line against
// the simulator over HTTP, confirms it in the same dialog the form uses, and reads the exchange's
// state after it: the limit order rests at its price and size, the market sell opens a short of
// 2 ETH, the bracket rests as its entry with a take-profit and a stop-loss child, close flattens
// the BTC position, cancel all eth takes the ETH orders and leaves BTC's, lev btc 5 sets 5x.
// It fails if a command's side, size, price or instrument went astray, or if a command skipped the
// confirmation the default policy asks for (or asked for one it does not).
func TestCommandLineExamples(t *testing.T) {
	t.Parallel()
	sc := &signedCounter{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { sc.next = h; return sc })
	pump(t, c.m, c.m.Init())

	c.commandSent(t, "buy 0.1 btc 97000", false)
	btc := ordersOn(c.openOrders(t), "BTC-PERP")
	if len(btc) != 1 || btc[0].Side != api.SideBuy || !btc[0].LimitPrice.Equal(d("97000")) || !btc[0].Size.Equal(d("0.1")) {
		t.Fatalf("buy 0.1 btc 97000: open BTC orders %+v", btc)
	}

	c.commandConfirmed(t, "sell 2 eth mkt")
	if p := c.position(t, "ETH-PERP"); !p.Size.Equal(d("-2")) {
		t.Fatalf("sell 2 eth mkt: ETH position %s, want -2", p.Size)
	}

	c.commandConfirmed(t, "buy 500usd sol 185 tp 200 sl 180")
	checkBracket(t, ordersOn(c.openOrders(t), "SOL-PERP"))

	c.commandConfirmed(t, "buy 0.01 btc mkt")
	if p := c.position(t, "BTC-PERP"); !p.Size.Equal(d("0.01")) {
		t.Fatalf("buy 0.01 btc mkt: BTC position %s", p.Size)
	}
	c.commandConfirmed(t, "close btc")
	if p := c.position(t, "BTC-PERP"); !p.Size.IsZero() {
		t.Fatalf("close btc: BTC position %s is still open", p.Size)
	}

	c.commandSent(t, "buy 0.1 eth 3300", false)
	c.commandSent(t, "b 0.2 eth 3310 post", false)
	if n := len(ordersOn(c.openOrders(t), "ETH-PERP")); n != 2 {
		t.Fatalf("two ETH orders placed, %d open", n)
	}
	c.commandConfirmed(t, "cancel all eth")
	open := c.openOrders(t)
	if n := len(ordersOn(open, "ETH-PERP")); n != 0 {
		t.Fatalf("cancel all eth: %d ETH orders still open", n)
	}
	if n := len(ordersOn(open, "BTC-PERP")); n != 1 {
		t.Fatalf("cancel all eth took the BTC order too: %d BTC orders open", n)
	}

	c.commandConfirmed(t, "lev btc 5")
	lv, err := c.m.ex.InstrumentLeverage(t.Context(), "", "BTC-PERP")
	if err != nil || !lv.Leverage.Equal(d("5")) {
		t.Fatalf("lev btc 5: exchange leverage %s (%v)", lv.Leverage, err)
	}

	// cancel one order by naming its instrument (the only one open there).
	c.commandSent(t, "cancel btc", false)
	if n := len(ordersOn(c.openOrders(t), "BTC-PERP")); n != 0 {
		t.Fatalf("cancel btc: %d BTC orders still open", n)
	}
}

// checkBracket holds the exchange's SOL orders to buy 500usd sol 185 tp 200 sl 180: the entry, a
// limit buy of 2.70 (500 USD at 185, down to the lot) at 185, and its two children in one group,
// reduce-only market sells of the same size triggered at 200 (tp) and 180 (sl).
func checkBracket(t *testing.T, sol []api.OrderRecord) {
	t.Helper()
	var entry, tp, sl int
	for _, o := range sol {
		switch {
		case o.Tpsl == "" && o.Side == api.SideBuy && o.LimitPrice.Equal(d("185")) && o.Size.Equal(d("2.7")) && !o.ReduceOnly:
			entry++
		case o.Tpsl == api.TpslTakeProfit && o.Side == api.SideSell && o.TriggerPx.Decimal.Equal(d("200")) && o.Size.Equal(d("2.7")) && o.ReduceOnly:
			tp++
		case o.Tpsl == api.TpslStopLoss && o.Side == api.SideSell && o.TriggerPx.Decimal.Equal(d("180")) && o.Size.Equal(d("2.7")) && o.ReduceOnly:
			sl++
		}
		if o.Grouping != api.GroupingNormal {
			t.Errorf("bracket order %d grouping %q", o.OrderID, o.Grouping)
		}
	}
	if len(sol) != 3 || entry != 1 || tp != 1 || sl != 1 {
		t.Fatalf("buy 500usd sol 185 tp 200 sl 180: %d SOL orders (entry %d, tp %d, sl %d): %+v", len(sol), entry, tp, sl, sol)
	}
}

// TestMalformedCommandsSignNothing: a malformed command, or one the checks refuse, stays in the
// line with a message naming the word that is wrong, opens no confirmation and sends nothing to
// the exchange (counted at the simulator's door). It fails if any refusal lets a request through
// or names the wrong word.
func TestMalformedCommandsSignNothing(t *testing.T) {
	t.Parallel()
	sc := &signedCounter{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { sc.next = h; return sc })
	pump(t, c.m, c.m.Init())
	cases := []struct{ line, want string }{
		{"purchase 0.1 btc 97000", `word 1 "purchase": not a command`},
		{"buy abc btc 97000", `word 2 "abc": the size is not a number`},
		{"buy 0.1 btcx 97000", `word 3 "btcx": unknown instrument`},
		{"buy 0.1 btc 97000.05", `word 4 "97000.05": price 97000.05 is not a multiple of the tick size 0.1`},
		{"buy 0.00001 btc 97000", `word 2 "0.00001": size 0.00001 is not a multiple of the lot size`},
		{"sell 2 eth", "give a price, or mkt"},
		{"sell 2 eth mkt now", `word 5 "now": unexpected word`},
		{"buy 500usd sol 185 tp 180 sl 200", `word 6 "180": take-profit`},
		{"close sol", `word 2 "sol": no open position on SOL-PERP`},
		{"cancel 424242", `word 2 "424242": no open order has this id`},
		{"cancel all", "no open orders to cancel"},
		{"lev btc 500", `word 3 "500": 500x is over the 50x`},
		{"lev eth/usdc 2", `word 2 "eth/usdc": ETH/USDC is a spot pair`},
		{"lev 0", `word 2 "0": leverage is a whole number from 1`},
		{"buy 1 all 5", `word 3 "all": expected an instrument`},
	}
	for _, tc := range cases {
		c.command(t, tc.line)
		if c.m.cmdline.Active() || c.m.confirmation() != nil || !strings.Contains(c.m.cmdline.Err(), tc.want) {
			t.Errorf("%q: line open %v, dialog %v, error %q; want %q", tc.line, c.m.cmdline.Active(), c.m.confirmation() != nil, c.m.cmdline.Err(), tc.want)
		}
		v := strings.Split(ansi.Strip(c.m.View()), "\n")
		if foot := strings.Join(strings.Fields(strings.Join(v[len(v)-3:], " ")), " "); !strings.Contains(foot, "command not sent: "+tc.want[:min(len(tc.want), 40)]) {
			t.Errorf("%q: the status line does not show the refusal:\n%s", tc.line, strings.Join(v, "\n"))
		}
	}
	if n := sc.n.Load(); n != 0 {
		t.Fatalf("%d signed requests reached the exchange", n)
	}
	if n := len(c.openOrders(t)); n != 0 {
		t.Fatalf("%d orders open after refused commands", n)
	}
}

// TestCommandAndFormConfirmTheSameOrder: the command line and the order form build one order the
// same way: for the same limit buy the confirmation shows the same lines (instrument, side, price,
// size, notional, fee, margin, utilization, liquidation estimate), all but the client id. It fails
// if the command line computed its own order or preview.
func TestCommandAndFormConfirmTheSameOrder(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	c.m.reviewEveryOrder()
	pump(t, c.m, c.m.Init())
	_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP", Side: api.SideBuy, Focus: true})
	pump(t, c.m, cmd)
	c.typeText(t, "97000")
	c.key(t, "down")
	c.typeText(t, "0.1")
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("the form opened no confirmation (notice %q)", c.m.shownNotice())
	}
	form := c.m.confirmation().Action().Lines
	c.key(t, "esc", "esc")
	c.command(t, "buy 0.1 btc 97000")
	if c.m.confirmation() == nil {
		t.Fatalf("the command opened no confirmation (%q)", c.m.cmdline.Err())
	}
	line := c.m.confirmation().Action().Lines
	if len(form) != len(line) {
		t.Fatalf("form %d lines, command %d:\n%s\n--\n%s", len(form), len(line), strings.Join(form, "\n"), strings.Join(line, "\n"))
	}
	for i := range form {
		if strings.HasPrefix(form[i], "Client id") {
			continue
		}
		if form[i] != line[i] {
			t.Errorf("line %d: form %q, command %q", i, form[i], line[i])
		}
	}
}

// TestCommandLinePositionTpsl: tpsl puts a take-profit and a stop-loss on the whole position
// (grouping position) through the same action the positions pane sends, confirmed; the exchange
// holds both as reduce-only triggers on the other side. It fails if the legs' sides, triggers or
// grouping went astray.
func TestCommandLinePositionTpsl(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.commandConfirmed(t, "sell 1 eth mkt")
	c.commandConfirmed(t, "tpsl eth tp 3300 sl 3500")
	var tp, sl int
	for _, o := range ordersOn(c.openOrders(t), "ETH-PERP") {
		if o.Grouping != api.GroupingPosition || o.Side != api.SideBuy || !o.ReduceOnly {
			t.Errorf("order %+v", o)
		}
		switch {
		case o.Tpsl == api.TpslTakeProfit && o.TriggerPx.Decimal.Equal(d("3300")):
			tp++
		case o.Tpsl == api.TpslStopLoss && o.TriggerPx.Decimal.Equal(d("3500")):
			sl++
		}
	}
	if tp != 1 || sl != 1 {
		t.Fatalf("tpsl eth tp 3300 sl 3500: tp %d, sl %d on the exchange", tp, sl)
	}
}

// TestCommandOnAnotherInstrumentShowsTheBook (QA 15): `sell 2 sol mkt` while another instrument
// is current (its book never loaded) confirms with the "Book fills" row, as the form does on
// SOL-PERP: the store keeps only the current instrument's book live, so the command line checks
// its order again on a fresh book of its own instrument. It fails if the command's confirmation
// lacks a row the form's has.
func TestCommandOnAnotherInstrumentShowsTheBook(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
	pump(t, c.m, cmd)
	if v := c.m.store.BookWindow("SOL-PERP", decimal.Zero, 1); v.Loaded {
		t.Fatal("the test needs an instrument whose book the console never loaded")
	}
	c.command(t, "sell 2 sol mkt")
	if c.m.confirmation() == nil {
		t.Fatalf("the command opened no confirmation (%q, notice %q)", c.m.cmdline.Err(), c.m.shownNotice())
	}
	labels := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(l, "!") {
				out = append(out, f[0])
			}
		}
		return out
	}
	line := c.m.confirmation().Action().Lines
	if !strings.Contains(strings.Join(line, "\n"), state.RowBook) {
		t.Fatalf("the command's confirmation has no %q row:\n%s", state.RowBook, strings.Join(line, "\n"))
	}
	c.key(t, "esc")
	_, cmd = c.m.Update(common.InstrumentMsg{Symbol: "SOL-PERP", Side: api.SideSell, Focus: true})
	pump(t, c.m, cmd)
	c.m.form.SetOrderType("market")
	c.m.form.Focus(orderentry.FieldSize)
	c.typeText(t, "2")
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("the form opened no confirmation (notice %q)", c.m.shownNotice())
	}
	if f, l := labels(c.m.confirmation().Action().Lines), labels(line); strings.Join(f, " ") != strings.Join(l, " ") {
		t.Errorf("rows differ:\nform    %q\ncommand %q", f, l)
	}
}
