package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// takerKeyHex is a second fixed test key (never a real one): the account that trades against
// the test account's resting orders.
const takerKeyHex = "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"

// cliOrder is what `order --json` prints that this test reads.
type cliOrder struct {
	Oid     api.OrderID `json:"oid"`
	Preview struct {
		Fee      decimal.Decimal `json:"fee"`
		Taker    bool            `json:"taker"`
		Notional decimal.Decimal `json:"notional"`
		Book     *struct {
			Fillable    decimal.Decimal `json:"fillable"`
			ExpectedAvg decimal.Decimal `json:"expected_avg_price"`
		} `json:"book"`
		Rows []struct {
			Label string `json:"label"`
			Value string `json:"value"`
		} `json:"rows"`
	} `json:"preview"`
}

// runCLI runs one headless command on the given client (the console's own, or the taker's) and
// decodes its JSON.
func runCLI(t *testing.T, client api.Exchange, out any, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runHeadless(context.Background(), append(args, "--json"), headless.Env{Stdout: &stdout, Stderr: &stderr, Client: client,
		Getenv: func(string) string { return "" }, StateDir: t.TempDir()})
	if code != headless.ExitOK {
		t.Fatalf("%v: exit %d: %s%s", args, code, stderr.String(), stdout.String())
	}
	if out != nil {
		if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
			t.Fatalf("%v: %v: %s", args, err, stdout.String())
		}
	}
}

// TestCLIDryRunIsTheConsolePreviewAndTheFeeCharged (QA item 3, #13, #17): against the simulator
// over HTTP, for a resting limit buy (maker: a rebate), a post-only buy and a market buy, the rows
// `order --dry-run --json` prints are the rows the console's confirmation shows for the same
// order (state.PreviewRows on a store loaded the same way, with the account's user_fees), and the
// fee it estimates is the fee the simulator then charges: to the unit for the makers (filled by a
// second account's market sell), and within the book walk's precision (the taker rate on the gap
// between the notional at the mid and the walk's cost) for the market order. Before, the CLI used
// the configured default rates (maker 0.015% as a fee where the exchange pays a 0.01% rebate, taker
// 0.045% where it charges 0.04%) and its own labels. Mutations it kills: user_fees not loaded, the
// CLI printing figures of its own, the maker/taker choice flipped, the rebate's sign dropped.
func TestCLIDryRunIsTheConsolePreviewAndTheFeeCharged(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	takerSigner, err := api.SignerFromHex(takerKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.sim.Fund(takerSigner.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	taker := api.New(c.url+"/", api.WithClock(c.clock.Now), api.WithSigner(takerSigner), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	form := c.m.form
	c.key(t, "1")
	for i := 0; i < 10 && form.Instrument() != "BTC-PERP"; i++ {
		c.key(t, "down")
	}
	c.key(t, "b")
	if form.Instrument() != "BTC-PERP" {
		t.Fatalf("the instrument is %q", form.Instrument())
	}
	in, _ := c.m.store.Instrument("BTC-PERP")
	makerRate, takerRate := sim.FeeRates()

	for _, tc := range []struct {
		name, size string
		postOnly   bool
		market     bool
	}{
		{"limit", "0.1", false, false},
		{"post-only", "0.05", true, false},
		{"market", "0.01", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pump(t, c.m, c.m.refreshNow(state.KindTickers, state.KindMids, state.KindPositions, state.KindAccount, state.KindOrders, state.KindBook))
			book, err := c.m.ex.OrderBook(context.Background(), "BTC-PERP", 0)
			if err != nil {
				t.Fatal(err)
			}
			// Inside the spread when there is room, so the taker's sell meets this bid first.
			price := book.Bids[0].Price
			if next := price.Add(in.TickSize); next.LessThan(book.Asks[0].Price) {
				price = next
			}
			args := []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", tc.size}
			c.key(t, "4", "ctrl+x")
			if form.Side() != "buy" {
				form.Focus(orderentry.FieldSide)
				c.key(t, "b")
			}
			if tc.market {
				form.SetOrderType("market")
				args = append(args, "--market")
			} else {
				form.SetOrderType("limit")
				form.SetValue(orderentry.FieldPrice, price.String())
				args = append(args, "--price", price.String())
			}
			form.SetValue(orderentry.FieldSize, tc.size)
			if tc.postOnly {
				form.Focus(orderentry.FieldPost)
				c.key(t, " ")
				args = append(args, "--post-only")
			}
			c.key(t, "enter")
			if c.m.confirmation() == nil {
				t.Fatalf("Enter opened no confirmation; notice %q, form errors %v", c.m.shownNotice(), form.Errors())
			}
			console := c.m.confirmation().Action().Order
			c.key(t, "esc")

			var dry cliOrder
			runCLI(t, c.m.ex, &dry, append(args, "--dry-run")...)
			rows := console.PreviewRows()
			if len(dry.Preview.Rows) != len(rows) {
				t.Fatalf("CLI rows %+v, console rows %+v", dry.Preview.Rows, rows)
			}
			for i, r := range rows {
				if got := dry.Preview.Rows[i]; got.Label != r.Label || got.Value != r.Value {
					t.Errorf("row %d: CLI %s %q, console %s %q", i, got.Label, got.Value, r.Label, r.Value)
				}
			}
			if !dry.Preview.Fee.Equal(console.Preview.Fee) || dry.Preview.Taker != tc.market {
				t.Fatalf("CLI fee %s taker %v, console %s", dry.Preview.Fee, dry.Preview.Taker, console.Preview.Fee)
			}

			var sent cliOrder
			runCLI(t, c.m.ex, &sent, append(args, "--yes")...)
			if !tc.market {
				// The taker sells into every bid at or above ours: ours fills whole, as maker.
				b, err := c.m.ex.OrderBook(context.Background(), "BTC-PERP", 0)
				if err != nil {
					t.Fatal(err)
				}
				qty := decimal.Zero
				for _, l := range b.Bids {
					if l.Price.GreaterThanOrEqual(price) {
						qty = qty.Add(l.Size)
					}
				}
				runCLI(t, taker, nil, "order", "--instrument", "BTC-PERP", "--side", "sell", "--size", qty.String(), "--market", "--slippage", "5%", "--yes")
			}
			fills, err := api.OrderFills(context.Background(), c.m.ex, c.m.ex.Address(), sent.Oid)
			if err != nil {
				t.Fatal(err)
			}
			charged, size, cost := decimal.Zero, decimal.Zero, decimal.Zero
			for _, f := range fills {
				charged, size, cost = charged.Add(f.Fee), size.Add(f.Size), cost.Add(f.Size.Mul(f.Price))
			}
			if !size.Equal(decimal.RequireFromString(tc.size)) {
				t.Fatalf("filled %s of %s: %+v", size, tc.size, fills)
			}
			unit := decimal.New(1, -6) // the simulator rounds a fee to USDC's 6 decimals
			if !tc.market {
				if want := cost.Mul(makerRate); !charged.IsNegative() || charged.Sub(want).Abs().GreaterThan(unit) {
					t.Fatalf("the simulator charged %s for a maker fill of %s, want the rebate %s", charged, cost, want)
				}
				if charged.Sub(dry.Preview.Fee).Abs().GreaterThan(unit) {
					t.Errorf("CLI estimated %s, the simulator charged %s", dry.Preview.Fee, charged)
				}
				return
			}
			w := dry.Preview.Book
			if w == nil {
				t.Fatal("a market order's dry run walked no book")
			}
			walkCost := w.Fillable.Mul(w.ExpectedAvg)
			tol := takerRate.Mul(dry.Preview.Notional.Sub(walkCost).Abs()).Add(unit)
			if d := charged.Sub(dry.Preview.Fee).Abs(); d.GreaterThan(tol) {
				t.Errorf("CLI estimated %s, the simulator charged %s: off by %s, over the walk's %s", dry.Preview.Fee, charged, d, tol)
			}
		})
	}
}
