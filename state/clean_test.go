package state

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// hostile is what a hostile server or another program trading the account puts in a string: it
// sets the terminal's title, writes the clipboard (OSC 52), clears the screen, and uses the C1
// form of CSI.
const hostile = "\x1b]0;TITLE\a\x1b]52;c;MHhhdHRhY2tlcg==\a\x1b[2J\x1b[41m\u009b31m\x7f"

// noControl fails the test when s holds a control character.
func noControl(t *testing.T, where, s string) {
	t.Helper()
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			t.Errorf("%s: control %U in %q", where, r, s)
			return
		}
	}
}

// TestStoreCleansServerText: every string the store hands the panes is clean, map keys included,
// and the message the poll built is left as it was (headless --json prints those records
// exactly). Guards against dropping the cleanMsg call in Apply, or cleaning in place.
func TestStoreCleansServerText(t *testing.T) {
	s := New(nil)
	ins := testInstruments()
	ins.Perps[0].Name = "BTC" + hostile + "-PERP"
	s.Apply(InstrumentsMsg{Instruments: ins})
	acct := testAccount()
	acct.SpotCollateral["USDC"+hostile] = acct.SpotCollateral["USDC"]
	s.Apply(AccountMsg{Summary: acct})
	orders := []api.OrderRecord{{OrderID: 1, Instrument: "BTC" + hostile, Cloid: hostile, State: "open" + hostile}}
	s.Apply(&OrdersMsg{Orders: orders})
	fills := []api.Fill{{TradeID: 1, OrderID: 1, Instrument: "X" + hostile, Cloid: "=cmd" + hostile, Account: hostile}}
	s.Apply(FillsMsg{Page: api.Page[api.Fill]{Data: fills, Page: 1, TotalPages: 1}})
	s.Apply(TickersMsg{Tickers: []api.Ticker{{Symbol: "BTC" + hostile + "-PERP"}}})
	// Streamed upserts take the same route.
	s.Apply(OrderUpdateMsg{Seq: 1, Record: api.OrderRecord{OrderID: 2, Instrument: "BTC" + hostile, Cloid: hostile, State: "open"}})
	s.Apply(&FillMsg{Seq: 1, Fill: api.Fill{TradeID: 9, OrderID: 2, Instrument: "X", Cloid: hostile}})

	for _, in := range s.Instruments() {
		noControl(t, "instrument", in.Name)
	}
	for k := range s.Account().SpotCollateral {
		noControl(t, "collateral key", k)
	}
	for _, o := range s.Orders() {
		noControl(t, "order", fmt.Sprint(o.Instrument, o.Cloid, o.State))
	}
	for _, f := range s.Fills() {
		noControl(t, "fill", fmt.Sprint(f.Instrument, f.Cloid, f.Account))
	}
	if n, m := len(s.Orders()), len(s.Fills()); n != 2 || m != 2 {
		t.Errorf("%d orders and %d fills in the store, want the streamed ones too (2 and 2)", n, m)
	}
	for _, tk := range s.Tickers() {
		noControl(t, "ticker", tk.Symbol)
	}
	if _, ok := s.Ticker("BTC" + `\u001b]0;TITLE\u0007\u001b]52;c;MHhhdHRhY2tlcg==\u0007\u001b[2J\u001b[41m\u009b31m\u007f` + "-PERP"); !ok {
		t.Error("the cleaned ticker is not found by its cleaned name")
	}
	if orders[0].Cloid != hostile || !strings.Contains(fills[0].Cloid, "\x1b") {
		t.Error("the poll's own records were changed")
	}
}

// TestCleanMsgKeepsCleanMessages: a message with nothing to clean is the same message (no copy).
func TestCleanMsgKeepsCleanMessages(t *testing.T) {
	orders := []api.OrderRecord{{OrderID: 1, Instrument: "BTC-PERP", Cloid: "c"}}
	out := cleanMsg(OrdersMsg{Orders: orders}).(OrdersMsg)
	if &out.Orders[0] != &orders[0] {
		t.Error("a clean message was copied")
	}
}

// TestTheTickerFastPathSeesEveryString: a streamed ticker, the stream's most frequent message,
// is checked without reflection (no field plan made for its type), and the two strings the fast
// path checks are every string of it: a hostile one in either is cleaned, and a string field added
// to the ticker fails here until the fast path checks it too.
func TestTheTickerFastPathSeesEveryString(t *testing.T) {
	typ := reflect.TypeOf(TickerUpdateMsg{})
	fieldPlans.Delete(typ)
	fieldPlans.Delete(typ.Field(1).Type)
	clean := TickerUpdateMsg{Ticker: api.Ticker{Type: "perp", Symbol: "BTC-PERP"}}
	if cleanMsg(clean) != Msg(clean) {
		t.Fatal("a clean ticker was changed")
	}
	if _, planned := fieldPlans.Load(typ); planned {
		t.Error("a clean streamed ticker was checked by reflection")
	}
	var paths []string
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		switch t.Kind() {
		case reflect.String:
			paths = append(paths, path)
		case reflect.Struct:
			for _, i := range stringFields(t) {
				walk(t.Field(i).Type, path+"."+t.Field(i).Name)
			}
		}
	}
	walk(typ, "")
	if got := fmt.Sprint(paths); got != "[.Ticker.Type .Ticker.Symbol]" {
		t.Errorf("a streamed ticker's strings are %s: cleanMsg's fast path checks .Ticker.Type and .Ticker.Symbol only", got)
	}
	for _, m := range []TickerUpdateMsg{{Ticker: api.Ticker{Type: "perp" + hostile, Symbol: "BTC-PERP"}},
		{Ticker: api.Ticker{Type: "perp", Symbol: "BTC" + hostile}}} {
		c := cleanMsg(m).(TickerUpdateMsg)
		noControl(t, "streamed ticker", c.Ticker.Type+c.Ticker.Symbol)
	}
}

func BenchmarkCleanMsgFills(b *testing.B) {
	fills := make([]api.Fill, 10000)
	for i := range fills {
		fills[i] = api.Fill{TradeID: api.TradeID(i), Instrument: "BTC-PERP", Cloid: "0b5e0c3e-6f3c-4c59-9d7c-1f7a3c8e2b11", Side: "b", Direction: "openLong"}
	}
	msg := FillsMsg{Page: api.Page[api.Fill]{Data: fills}}
	b.ReportAllocs()
	for b.Loop() {
		_ = cleanMsg(msg)
	}
}

// BenchmarkCleanMsgTickers is the cleaning cost of one tickers poll of 500 instruments (the
// console's most frequent message), clean text: a scan, no copy.
func BenchmarkCleanMsgTickers(b *testing.B) {
	ts := make([]api.Ticker, 500)
	for i := range ts {
		ts[i] = api.Ticker{Type: "perp", Symbol: fmt.Sprintf("SYM%d-PERP", i)}
	}
	msg := TickersMsg{Tickers: ts}
	b.ReportAllocs()
	for b.Loop() {
		_ = cleanMsg(msg)
	}
}

// BenchmarkCleanMsgStreamedTicker is the cleaning cost of one streamed ticker (500 a second
// with 500 instruments streaming).
func BenchmarkCleanMsgStreamedTicker(b *testing.B) {
	var msg Msg = TickerUpdateMsg{Ticker: api.Ticker{Type: "perp", Symbol: "SYN300-PERP"}}
	b.ReportAllocs()
	for b.Loop() {
		_ = cleanMsg(msg)
	}
}

// TestPastedKeyNotInOrderErrors: a key pasted into any text field of the order form comes back in
// no error, whole or in part (the console's form and headless both show these messages). Guards
// the text.Quote in each message that names a bad value.
func TestPastedKeyNotInOrderErrors(t *testing.T) {
	const pasted = "b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291"
	now := t0
	s := loadedStore(&now)
	base := OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Limit, Price: "50000", Size: "0.01"}
	set := map[string]func(*OrderIntent, string){
		"instrument": func(o *OrderIntent, v string) { o.Instrument = v },
		"side":       func(o *OrderIntent, v string) { o.Side = v },
		"price":      func(o *OrderIntent, v string) { o.Price = v },
		"size":       func(o *OrderIntent, v string) { o.Size = v },
		"trigger":    func(o *OrderIntent, v string) { o.TriggerPx = v; o.Type = Trigger; o.Tpsl = "sl" },
		"notional":   func(o *OrderIntent, v string) { o.Size = ""; o.NotionalUSD = v },
		"tif":        func(o *OrderIntent, v string) { o.Tif = v },
		"tpsl":       func(o *OrderIntent, v string) { o.Type = Trigger; o.TriggerPx = "49000"; o.Tpsl = v },
		"cloid":      func(o *OrderIntent, v string) { o.Cloid = v },
	}
	for field, f := range set {
		for _, v := range []string{pasted, "0x" + pasted, pasted[:40], "-" + pasted} {
			in := base
			f(&in, v)
			_, errs := s.CheckOrder(in, DefaultGuard())
			if len(errs) == 0 {
				t.Errorf("%s %s: accepted", field, v)
			}
			for _, e := range errs {
				if holdsKeyPart(e.Msg+e.Suggest, pasted) {
					t.Errorf("%s: %q repeats the key", field, e.Msg)
				}
			}
		}
	}
}

// holdsKeyPart reports whether s holds 16 digits of key in a row, in any case.
func holdsKeyPart(s, key string) bool {
	s = strings.ToLower(s)
	for i := 0; i+16 <= len(key); i++ {
		if strings.Contains(s, key[i:i+16]) {
			return true
		}
	}
	return false
}
