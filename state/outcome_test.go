package state

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

func tx(data string) api.TxResponse { return api.TxResponse{TxHash: "0xfeed", Data: []byte(data)} }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestOrderOutcome reads every form of a placed order's answer. Each case guards a mutation
// named in want: a dropped branch or a swapped kind shows as another kind or word.
func TestOrderOutcome(t *testing.T) {
	for _, tc := range []struct {
		name, data       string
		kind             OutcomeKind
		word             string
		oid              api.OrderID
		filled, avg, rem string // "" = not checked as a number
		failed, known    bool
	}{
		// Guards: reading an answer without status as placed or filled.
		{"no status", `{}`, OutcomeSent, "sent", 0, "0", "", "2", false, false},
		// Guards: the error branch dropped (a rejection read as placed) or Failed() not true.
		{"rejected", `{"status":[{"error":"insufficient margin"}]}`, OutcomeRejected, "rejected", 0, "0", "", "2", true, false},
		// Guards: resting read as filled, or the resting flag lost (word accepted).
		{"resting", `{"status":{"resting":{"oid":7}}}`, OutcomePlaced, "resting", 7, "0", "", "2", false, false},
		// Guards: a bare id read as resting.
		{"accepted", `{"status":{"oid":8}}`, OutcomePlaced, "accepted", 8, "0", "", "2", false, false},
		// Guards: the sizes branch dropped (the simulator's fills carry no filled flag) or the
		// remainder computed with the wrong sign; a part fill whose rest is gone read as done
		// (issue #31, 12: "partial", ExitPartial to a script).
		{"partly filled by size", `{"status":{"oid":9,"totalSz":"0.5","avgPx":"101.25"}}`, OutcomeFilled, "partial", 9, "0.5", "101.25", "1.5", false, true},
		// Guards: a fill flag without sizes read as placed, or its remainder taken as the whole.
		{"filled flag only", `{"status":{"filled":{"oid":10}}}`, OutcomeFilled, "filled", 10, "0", "", "0", false, false},
		// Guards: a zero filled size read as a fill (IsPositive flipped to !IsNegative).
		{"zero filled size rests", `{"status":{"resting":{"oid":11,"totalSz":"0"}}}`, OutcomePlaced, "resting", 11, "0", "", "2", false, false},
		// Guards: a whole fill leaving a negative or non-zero remainder.
		{"all filled", `{"status":{"filled":{"oid":12,"totalSz":"2","avgPx":"99"}}}`, OutcomeFilled, "filled", 12, "2", "99", "0", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := OrderOutcome(tx(tc.data), dec("2"))
			if o.Kind != tc.kind || o.Word() != tc.word || o.Oid != tc.oid || o.Failed() != tc.failed || o.FillKnown() != tc.known {
				t.Fatalf("got kind %d word %q oid %d failed %v known %v, want %d %q %d %v %v",
					o.Kind, o.Word(), o.Oid, o.Failed(), o.FillKnown(), tc.kind, tc.word, tc.oid, tc.failed, tc.known)
			}
			if !o.Filled.Equal(dec(tc.filled)) || !o.Remaining().Equal(dec(tc.rem)) {
				t.Fatalf("filled %s remaining %s, want %s and %s", o.Filled, o.Remaining(), tc.filled, tc.rem)
			}
			if tc.avg != "" && !o.AvgPrice.Decimal.Equal(dec(tc.avg)) {
				t.Fatalf("avg price %s, want %s", o.AvgPrice.Decimal, tc.avg)
			}
			if o.TxHash != "0xfeed" {
				t.Fatalf("tx hash %q lost", o.TxHash)
			}
		})
	}
}

// TestOutcomeRejectedReason: the exchange's reason is kept word for word. Guards a dropped Reason.
func TestOutcomeRejectedReason(t *testing.T) {
	if o := OrderOutcome(tx(`{"status":{"error":"price off tick"}}`), dec("1")); o.Reason != "price off tick" {
		t.Fatalf("reason %q", o.Reason)
	}
}

// TestRemainingUnknownRequest: without a requested size nothing is said to remain. Guards the
// Requested.IsPositive check dropped (a negative remainder).
func TestRemainingUnknownRequest(t *testing.T) {
	o := OrderOutcome(tx(`{"status":{"oid":1,"totalSz":"0.5","avgPx":"1"}}`), decimal.Zero)
	if !o.Remaining().IsZero() {
		t.Fatalf("remaining %s without a requested size", o.Remaining())
	}
}

// TestCancelOutcome: a failed cancel is a failure with the exchange's reason; success and an
// answer without statuses are cancelled. Guards the OK check flipped or dropped.
func TestCancelOutcome(t *testing.T) {
	for _, tc := range []struct {
		data, reason string
		kind         OutcomeKind
	}{
		{`{"status":[{"success":{"success":"cancelled"}}]}`, "", OutcomeCancelled},
		{`{"status":[{"error":"order not found"}]}`, "order not found", OutcomeCancelFailed},
		{``, "", OutcomeCancelled},
	} {
		o := CancelOutcome(tx(tc.data))
		if o.Kind != tc.kind || o.Reason != tc.reason || o.Failed() != (tc.kind == OutcomeCancelFailed) {
			t.Errorf("%s: kind %d reason %q failed %v, want %d %q", tc.data, o.Kind, o.Reason, o.Failed(), tc.kind, tc.reason)
		}
	}
	if w := CancelOutcome(tx(`{"status":[{"error":"x"}]}`)).Word(); w != "failed" {
		t.Errorf("failed cancel word %q", w)
	}
}

// TestCancelManyOutcome: the count is read from orders_cancelled or from the statuses; an answer
// without either is sent, not "cancelled 0". Guards a dropped error check (Count 0 reported).
func TestCancelManyOutcome(t *testing.T) {
	if o := CancelManyOutcome(tx(`{"orders_cancelled":3}`)); o.Kind != OutcomeCancelledCount || o.Count != 3 || o.Word() != "cancelled" {
		t.Fatalf("orders_cancelled: %+v", o)
	}
	if o := CancelManyOutcome(tx(`{"status":[{"success":"cancelled"},{"error":"gone"},"success"]}`)); o.Count != 2 {
		t.Fatalf("counted statuses: %d, want 2", o.Count)
	}
	if o := CancelManyOutcome(tx(`{}`)); o.Kind != OutcomeSent || o.Failed() {
		t.Fatalf("no count: %+v", o)
	}
}

// TestSumFillsPerOrder: fills add up per order to the total size, the size-weighted average
// price and the fees. Guards an unweighted average (97,250 here, not 97,175) and the first
// piece taken for the whole.
func TestSumFillsPerOrder(t *testing.T) {
	fs := []api.Fill{
		{OrderID: 7, Instrument: "BTC-PERP", Side: "b", Size: d("0.03"), Price: d("97100"), Fee: d("1.1652")},
		{OrderID: 8, Instrument: "ETH-PERP", Side: "s", Size: d("1"), Price: d("3400"), Fee: d("1.36")},
		{OrderID: 7, Instrument: "BTC-PERP", Side: "b", Size: d("0.01"), Price: d("97400"), Fee: d("0.3896")},
	}
	got := SumFills(fs)
	if len(got) != 2 || got[0].OrderID != 7 || got[1].OrderID != 8 {
		t.Fatalf("totals %+v", got)
	}
	b := got[0]
	checkDec(t, "size", b.Size, "0.04")
	checkDec(t, "average", b.AvgPrice, "97175")
	checkDec(t, "fee", b.Fee, "1.5548")
	if b.Count != 2 {
		t.Fatalf("count %d", b.Count)
	}
}

// TestOrderOutcomesEachOrder: with several orders each gets its own outcome, and the simulator's
// "cancelled" with nothing filled is unfilled, not accepted. Guards: every order given the first
// order's outcome; the cancelled-state branch dropped (word "accepted", a success to a script);
// a count mismatch read as success for the orders that are listed.
func TestOrderOutcomesEachOrder(t *testing.T) {
	req := []decimal.Decimal{dec("1"), dec("2"), dec("3"), dec("4")}
	outs := OrderOutcomes(tx(`{"status":[{"resting":{"oid":1}},{"filled":{"total_size":"0.5","average_price":"10","oid":2}},{"error":{"error":"FOK not fillable"}},{"oid":4,"state":"cancelled"}]}`), req)
	words := ""
	for _, o := range outs {
		words += o.Word() + " "
	}
	if words != "resting partial rejected unfilled " {
		t.Fatalf("words %q", words)
	}
	if !outs[1].Remaining().Equal(dec("1.5")) || !outs[1].AvgPrice.Decimal.Equal(dec("10")) || outs[2].Reason != "FOK not fillable" {
		t.Fatalf("outcomes %+v", outs)
	}
	for _, o := range OrderOutcomes(tx(`{"status":[{"oid":1}]}`), req[:2]) {
		if o.Kind != OutcomeSent {
			t.Fatalf("one status for two orders read as %v", o.Word())
		}
	}
	for _, data := range []string{`{"status":[{"placed":{"oid":1}}]}`, `{"status":"ok"}`, `{"result":1}`, `[]`} {
		if o := OrderOutcome(tx(data), dec("1")); o.Kind != OutcomeSent || o.Word() != "sent" {
			t.Fatalf("%s read as %s", data, o.Word())
		}
	}
}

// TestOutcomeReadings: a fill is known only with its average price; an order that filled in part
// and rests is not "partial" (nothing of it was cancelled); what became of a remainder is said
// by its order's kind: resting first, then a market order's bound, a FOK's, an IOC's. Guards the
// average's check dropped, the resting check dropped, and each fate's branch (mutants
// outcome/fill-known-needs-avg, outcome/partial-not-resting, outcome/fate-*).
func TestOutcomeReadings(t *testing.T) {
	noAvg := Outcome{Kind: OutcomeFilled, Filled: dec("0.5")}
	if noAvg.FillKnown() {
		t.Error("a fill without its average price is known")
	}
	if noAvg.AvgPrice = (api.OptDecimal{Decimal: dec("100"), Valid: true}); !noAvg.FillKnown() {
		t.Error("a fill with its size and average is not known")
	}
	rests := Outcome{Kind: OutcomeFilled, Filled: dec("0.5"), Requested: dec("1"), Resting: true}
	if rests.Partial() || rests.Word() != "filled" {
		t.Errorf("a part-filled order that rests: partial %v, word %q", rests.Partial(), rests.Word())
	}
	rests.Resting = false
	if !rests.Partial() || rests.Word() != "partial" {
		t.Errorf("a part-filled order whose rest was cancelled: partial %v, word %q", rests.Partial(), rests.Word())
	}
	for _, c := range []struct {
		o      Outcome
		tif    string
		market bool
		want   string
	}{
		{Outcome{Resting: true}, api.TifIOC, true, "resting"},
		{Outcome{}, api.TifIOC, true, "cancelled: no more liquidity within the slippage bound"},
		{Outcome{}, api.TifFOK, false, "cancelled: FOK not fillable in full"},
		{Outcome{}, api.TifIOC, false, "cancelled: IOC, no more liquidity at its price"},
		{Outcome{}, api.TifGTC, false, "cancelled"},
	} {
		if got := RemainderFate(c.o, c.tif, c.market); got != c.want {
			t.Errorf("%+v %s market %v: %q, want %q", c.o, c.tif, c.market, got, c.want)
		}
	}
}
