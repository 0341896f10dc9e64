package headless

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// wellFormed is an independent reading of a plain positive decimal: digits and at most one point.
func wellFormed(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 40 || strings.Count(s, ".") > 1 || strings.Trim(s, "0123456789.") != "" || strings.Trim(s, ".") == "" {
		return false
	}
	v, err := decimal.NewFromString(s)
	return err == nil && v.IsPositive()
}

// FuzzOrderCommand feeds random text to every numeric flag of `order`: no panic, and nothing is
// sent unless every numeric flag in use was a well-formed positive number on the grid.
func FuzzOrderCommand(f *testing.F) {
	f.Add("50000", "0.01", "", "", "", false)
	f.Add("50000.3", "0.0105", "", "", "", false)
	f.Add("", "", "", "1000", "2%", true)
	f.Add("1e5", "-1", "NaN", "0x10", "abc", false)
	f.Add("49000", "", "45000", "500", "0.5", false)
	f.Add(" 49000.0 ", "0.010", "", "", "", false)
	f.Fuzz(func(t *testing.T, price, size, trigger, notional, slip string, market bool) {
		fx := &fakeExchange{}
		args := []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--yes"}
		add := func(flag, v string) {
			if v != "" {
				args = append(args, "--"+flag+"="+v)
			}
		}
		add("price", price)
		add("size", size)
		add("trigger", trigger)
		add("notional", notional)
		add("slippage", slip)
		if trigger != "" {
			args = append(args, "--tpsl=sl")
		}
		if market {
			args = append(args, "--market")
		}
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Client: fx, Getenv: func(string) string { return "" }})
		if len(fx.placed) == 0 {
			if code == 0 {
				t.Fatalf("exit 0 without sending: %v", args)
			}
			return
		}
		if code != 0 || len(fx.placed) != 1 || len(fx.placed[0]) != 1 {
			t.Fatalf("sent %v with exit %d: %s", fx.placed, code, errb.String())
		}
		w := fx.placed[0][0]
		if (!market || trigger != "") && price != "" && (!wellFormed(price) || !state.OnStep(decimal.RequireFromString(strings.TrimSpace(price)), dd("0.5"))) {
			t.Fatalf("sent price %q for input %q", w.Price, price)
		}
		for _, v := range []struct{ name, raw string }{{"size", size}, {"trigger", trigger}, {"notional", notional}} {
			if v.raw != "" && !wellFormed(v.raw) {
				t.Fatalf("sent an order for %s %q", v.name, v.raw)
			}
		}
		px, err1 := decimal.NewFromString(w.Price)
		sz, err2 := decimal.NewFromString(w.Size)
		if err1 != nil || err2 != nil || !px.IsPositive() || !sz.IsPositive() || !state.OnStep(px, dd("0.5")) || !state.OnStep(sz, dd("0.001")) {
			t.Fatalf("sent an order off the grid: %+v", w)
		}
		if strings.Contains(out.String()+errb.String(), "\x00") {
			t.Fatal("binary in output")
		}
	})
}

func TestOrderWithFakeExchange(t *testing.T) {
	fx := &fakeExchange{}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Client: fx})
		return code, out.String(), errb.String()
	}
	// A sell 20% under the mark crosses the bid (a buy there would rest and need no --yes, #23).
	// The answer is a bare id; the order record says it rests whole (#17), so "42 resting".
	code, _, errs := run("order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--price", "40000")
	if code != ExitRefused || !strings.Contains(errs, "order needs confirmation, nothing sent: price 40,000.0 is 20.00% below the mark 50,000.0; add --yes to send it") || len(fx.placed) != 0 {
		t.Fatalf("guard: %d %q", code, errs)
	}
	code, out, _ := run("order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--price", "40000", "--yes")
	if code != 0 || len(fx.placed) != 1 || !regexp.MustCompile(`Warning +price 40,000\.0 is 20\.00% below the mark`).MatchString(out) || !strings.Contains(out, "42 resting") {
		t.Fatalf("--yes: %d %q", code, out)
	}
	code, out, _ = run("order", "--instrument", "BTC-PERP", "--side", "sell", "--notional", "1000", "--market", "--slippage", "2%", "--dry-run", "--json")
	if code != 0 || len(fx.placed) != 1 || !strings.Contains(out, `"price": "49000"`) || !strings.Contains(out, `"size": "0.02"`) || !strings.Contains(out, `"sent": false`) {
		t.Fatalf("dry run: %d %s", code, out)
	}
	if code, _, errs := run("order", "--url", "http://127.0.0.1:1", "--instrument", "BTC-PERP"); code != ExitUsage || !strings.Contains(errs, "set by the program here") {
		t.Fatalf("connection flags with a prebuilt client: %d %q", code, errs)
	}
}

func TestLostOrderIsLookedUpNotResent(t *testing.T) {
	lost := &api.Error{Kind: api.KindTimeout, Op: "exchange placeOrder"}
	// An ambiguous error cannot be built outside api; a timeout that is not ambiguous is reported
	// as not placed, and never retried.
	fx := &fakeExchange{placeFn: func([]api.OrderWire) (api.TxResponse, error) { return api.TxResponse{}, lost }}
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", "50000"},
		Env{Stdout: &out, Stderr: &errb, Client: fx})
	if code != ExitUnavailable || len(fx.placed) != 1 || !strings.Contains(errb.String(), "order not placed (cloid ") {
		t.Fatalf("%d %q, sent %d times", code, errb.String(), len(fx.placed))
	}
}
