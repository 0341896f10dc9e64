package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// spaces is a run of blanks: wrapped values and padded labels read the same once they are one.
var spaces = regexp.MustCompile(`\s+`)

// flat is a view without colour codes, its lines joined and every run of blanks one space, so a
// value the form wrapped reads as it does on the confirmation's one line.
func flat(view string) string {
	return spaces.ReplaceAllString(ansi.Strip(view), " ")
}

// TestPreviewAndConfirmationShowTheSameFigures (#13 "One truth for fees and margin"): for a limit
// order that rests, a market order, a post-only order and a reduce-only order against the
// simulator over HTTP, the order form's preview and the confirmation that Enter opens show the
// same rows with the same figures, read from one computation (state.PreviewRows): the notional, the
// fee and whether it is maker or taker, the margin, the utilization after and the estimated
// liquidation price. Before, the form said "Fee 7.2921 (maker)" where the confirmation said
// "Fee (est.) 21.8762 USD" and the confirmation had no maker or taker; a form that drew its own
// figures (or a confirmation that did) fails here.
func TestPreviewAndConfirmationShowTheSameFigures(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	// A long of 0.02 BTC for the reduce-only sell to reduce.
	long, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Market, Size: "0.02"}, state.Guard{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if out := placeWire(t, c, long); out.Kind != state.OutcomeFilled {
		t.Fatalf("the long was not filled: %+v", out)
	}
	form := c.m.form
	c.key(t, "1") // the tickers' cursor to BTC-PERP: it becomes the instrument, and its book is loaded
	for i := 0; i < 10 && form.Instrument() != "BTC-PERP"; i++ {
		c.key(t, "down")
	}
	c.key(t, "b")
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindOrders, state.KindBook))
	if form.Instrument() != "BTC-PERP" {
		t.Fatalf("the instrument is %q", form.Instrument())
	}
	// A market buy of 5 BTC is more than the book holds within the slippage bound.
	big, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Market, Size: "5"}, state.Guard{})
	if len(errs) > 0 || !big.Preview.Walk.Short(big.Size) {
		t.Fatalf("a market buy of 5: %v, walk %+v", errs, big.Preview.Walk)
	}
	tk, _ := c.m.store.Ticker("BTC-PERP")
	below := tk.BestBidPrice.Sub(tk.BestBidPrice.Mul(state.DefaultSlippage)).Round(0).String() // rests: cannot cross

	for _, tc := range []struct {
		name  string
		setUp func()
		fee   string // the fee's words
	}{
		{"limit", func() {
			form.SetOrderType("limit")
			form.SetValue(orderentry.FieldPrice, below)
			form.SetValue(orderentry.FieldSize, "0.01")
		}, "(maker)"},
		{"market", func() {
			form.SetOrderType("market")
			form.SetValue(orderentry.FieldSize, "0.01")
		}, "(taker)"},
		{"market beyond the book", func() {
			form.SetOrderType("market")
			form.SetValue(orderentry.FieldSize, "5")
		}, "(taker on the " + state.FormatSize(big.Preview.Walk.Fills, big.Instrument.SizeDecimals()) + " that fills)"},
		{"post-only", func() {
			form.SetOrderType("limit")
			form.SetValue(orderentry.FieldPrice, below)
			form.SetValue(orderentry.FieldSize, "0.01")
			form.Focus(orderentry.FieldPost)
			c.key(t, " ")
		}, "(maker)"},
		{"reduce-only", func() {
			form.SetOrderType("market")
			form.Focus(orderentry.FieldSide)
			c.key(t, "s")
			form.SetValue(orderentry.FieldSize, "0.01")
			form.Focus(orderentry.FieldReduce)
			c.key(t, " ")
		}, "(taker)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.key(t, "4", "ctrl+x")
			if form.Side() != "buy" {
				form.Focus(orderentry.FieldSide)
				c.key(t, "b")
			}
			tc.setUp()
			if errs := form.Errors(); len(errs) > 0 {
				t.Fatalf("the form refuses the order: %v", errs)
			}
			formView := flat(form.View())
			c.key(t, "enter")
			if c.m.confirmation() == nil {
				t.Fatalf("Enter opened no confirmation; notice %q", c.m.shownNotice())
			}
			dialogView := flat(c.m.confirmation().View())
			rows := c.m.confirmation().Action().Order.PreviewRows()
			labels := map[string]bool{}
			for _, r := range rows {
				labels[r.Label] = true
				want := spaces.ReplaceAllString(r.Label+" "+r.Value, " ")
				if !strings.Contains(formView, want) {
					t.Errorf("the form does not show %q:\n%s", want, ansi.Strip(form.View()))
				}
				if !strings.Contains(dialogView, want) {
					t.Errorf("the confirmation does not show %q:\n%s", want, ansi.Strip(c.m.confirmation().View()))
				}
			}
			for _, l := range []string{state.RowNotional, state.RowFee, state.RowMargin, state.RowUtilization, state.RowLiquidation} {
				if !labels[l] {
					t.Errorf("no %q row: %+v", l, rows)
				}
			}
			if fee := rowText(rows, state.RowFee); !strings.HasSuffix(fee, tc.fee) {
				t.Errorf("fee %q, want it to say %s", fee, tc.fee)
			}
			co := c.m.confirmation().Action().Order
			if tc.name == "reduce-only" && !co.Preview.MarginRequired.IsZero() {
				t.Errorf("a reduce-only order needs margin %s", co.Preview.MarginRequired)
			}
			if tc.name == "market beyond the book" {
				w := co.Preview.Walk
				if margin := rowText(rows, state.RowMargin); !strings.HasPrefix(margin, state.FormatPrice(w.FillMargin, 2)+" USD") ||
					!strings.HasSuffix(margin, "that fills") || rowText(rows, state.RowUtilization) != state.FormatPercent(w.FillUtilization, 2) {
					t.Errorf("the margin and utilization of a partial fill: %+v (walk %+v)", rows, w)
				}
				if !strings.Contains(dialogView, "would not fill and be cancelled") || !strings.Contains(formView, "on the "+state.FormatSize(w.Fills, 4)+" that fills") {
					t.Error("the form or the confirmation does not say in words what fills and that the rest is cancelled")
				}
			}
			c.key(t, "esc")
		})
	}
}

// rowText is the value of the row labelled label.
func rowText(rows []state.PreviewRow, label string) string {
	for _, r := range rows {
		if r.Label == label {
			return r.Value
		}
	}
	return ""
}
