package state

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestFundingNet: payments add up per settlement collateral, paid (negative) and received alike.
// Guards the sum's sign (a payment subtracted, or its absolute value taken: a long that paid 1.25
// and received 0.5 would show +1.75) and the grouping by collateral.
func TestFundingNet(t *testing.T) {
	ps := []api.FundingPayment{
		{SettlementCurrency: 1, Payment: d("-1.25")},
		{SettlementCurrency: 1, Payment: d("0.5")},
		{SettlementCurrency: 2, Payment: d("0.000001")},
	}
	net := FundingNet(ps)
	if !net[1].Equal(d("-0.75")) || !net[2].Equal(d("0.000001")) || len(net) != 2 {
		t.Fatalf("net %v", net)
	}
	if len(FundingNet(nil)) != 0 {
		t.Fatal("no payments, no net")
	}
}

// TestFundingMerge: funding pages merge like fills, keyed by instrument and settlement time (two
// instruments settling at the same time are two payments; the same one again is one).
func TestFundingMerge(t *testing.T) {
	s := New(nil)
	at := api.Time{Time: t0}
	pay := func(inst api.InstrumentID, at api.Time, amt string) api.FundingPayment {
		return api.FundingPayment{InstrumentID: inst, Time: at, Payment: d(amt)}
	}
	s.Apply(FundingMsg{Gen: 1, Page: api.Page[api.FundingPayment]{Page: 1, Limit: 100, TotalCount: 2, TotalPages: 1,
		Data: []api.FundingPayment{pay(1, at, "-1"), pay(2, at, "2")}}})
	later := api.Time{Time: t0.Add(time.Hour)}
	s.Apply(FundingMsg{Gen: 2, Page: api.Page[api.FundingPayment]{Page: 1, Limit: 100, TotalCount: 3, TotalPages: 1,
		Data: []api.FundingPayment{pay(1, later, "-3"), pay(1, at, "-1"), pay(2, at, "2")}}})
	f := s.Funding()
	if len(f) != 3 || !f[0].Payment.Equal(d("-3")) || !FundingNet(f)[0].Equal(d("-2")) {
		t.Fatalf("funding %+v", f)
	}
}

// TestTransferOutgoing: which transfers take collateral out of the account (shown negative).
// Guards each branch: a withdrawal or a send to another address is out; a deposit, a move between
// the account's own balances and a receipt are not.
func TestTransferOutgoing(t *testing.T) {
	me, other := "0xAbC0000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002"
	for _, c := range []struct {
		typ, from, to string
		out           bool
	}{
		{api.TransferDeposit, "", me, false},
		{api.TransferSpotWithdraw, me, "", true},
		{api.TransferDerivativeWithdraw, me, "", true},
		{api.TransferInternal, me, me, false},
		{api.TransferSpot, me, other, true},
		{api.TransferDerivative, other, me, false},
		{api.TransferSpot, "0xabc0000000000000000000000000000000000001", other, true}, // case differs
		{api.TransferVaultDeposit, me, other, true},
		{api.TransferVaultWithdraw, other, me, false},
	} {
		if got := TransferOutgoing(api.TransferRecord{Type: c.typ, From: c.from, To: c.to}, me); got != c.out {
			t.Errorf("%s from %s to %s: outgoing %v, want %v", c.typ, c.from, c.to, got, c.out)
		}
	}
}

// TestEquityChange: the change over the series is last less first, and its percentage of the
// first. Guards the order of the subtraction (a gain shown as a loss) and the base of the
// percentage (the last value instead of the first).
func TestEquityChange(t *testing.T) {
	pts := []api.AccountSnapshot{{AccountValue: d("1000")}, {AccountValue: d("900")}, {AccountValue: d("1100")}}
	ch, pct, ok := EquityChange(pts)
	if !ok || !ch.Equal(d("100")) || !pct.Equal(d("10")) {
		t.Fatalf("change %s (%s%%) %v", ch, pct, ok)
	}
	ch, pct, _ = EquityChange(pts[:2])
	if !ch.Equal(d("-100")) || !pct.Equal(d("-10")) {
		t.Fatalf("a loss: %s (%s%%)", ch, pct)
	}
	if _, _, ok := EquityChange(pts[:1]); ok {
		t.Fatal("one point has no change")
	}
	if _, pct, _ := EquityChange([]api.AccountSnapshot{{AccountValue: d("0")}, {AccountValue: d("5")}}); !pct.IsZero() {
		t.Fatalf("from zero: %s%%", pct)
	}
}

// TestActivityKindsReplace: the transfers and the equity series are replaced by each answer; the
// same answer again is no change.
func TestActivityKindsReplace(t *testing.T) {
	s := New(nil)
	tr := []api.TransferRecord{{Type: api.TransferDeposit, Amount: d("10")}}
	if !s.Apply(TransfersMsg{Gen: 1, Transfers: tr}) || s.Apply(TransfersMsg{Gen: 2, Transfers: tr}) || len(s.Transfers()) != 1 {
		t.Fatal("transfers")
	}
	eq := []api.AccountSnapshot{{AccountValue: d("1")}, {AccountValue: d("2")}}
	if !s.Apply(EquityMsg{Gen: 1, Points: eq}) || s.Apply(EquityMsg{Gen: 2, Points: eq}) || len(s.Equity()) != 2 {
		t.Fatal("equity")
	}
	if !s.Apply(EquityMsg{Gen: 3, Points: eq[:1]}) || len(s.Equity()) != 1 {
		t.Fatal("equity replaced")
	}
}

// TestTransferText: each kind in words from the account's side, and the other address of a send
// or receipt only.
func TestTransferText(t *testing.T) {
	me, other := "0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002"
	for _, c := range []struct {
		r          api.TransferRecord
		text, peer string
	}{
		{api.TransferRecord{Type: api.TransferDeposit, From: me, To: me}, "deposit", ""},
		{api.TransferRecord{Type: api.TransferSpotWithdraw, From: me, To: me}, "withdraw (spot)", ""},
		{api.TransferRecord{Type: api.TransferDerivativeWithdraw, From: me, To: me}, "withdraw (perp)", ""},
		{api.TransferRecord{Type: api.TransferInternal, From: me, To: me}, "spot ⇄ perp", ""},
		{api.TransferRecord{Type: api.TransferSpot, From: me, To: other}, "send (spot)", other},
		{api.TransferRecord{Type: api.TransferDerivative, From: other, To: me}, "receive (perp)", other},
		{api.TransferRecord{Type: api.TransferDerivative, From: me, To: me}, "receive (perp)", ""},
		{api.TransferRecord{Type: "airdrop", From: other, To: me}, "airdrop", ""},
	} {
		if got, peer := TransferText(c.r, me), TransferCounterparty(c.r, me); got != c.text || peer != c.peer {
			t.Errorf("%s %s->%s: %q %q, want %q %q", c.r.Type, c.r.From, c.r.To, got, peer, c.text, c.peer)
		}
	}
}

// TestFormatPayment: a payment is signed at its precision and never rounded to zero. Guards the
// small-payment branch (dropped: "-0.0017" shows "0.00", as if nothing was paid) and its sign.
func TestFormatPayment(t *testing.T) {
	for _, c := range []struct {
		in   string
		dec  int32
		want string
	}{
		{"-1.256", 2, "-1.26"}, {"12345.5", 2, "+12,345.50"}, {"0", 2, "0.00"},
		{"-0.0017", 2, "-<0.01"}, {"0.004", 2, "+<0.01"}, {"-0.0017", 6, "-0.001700"}, {"0.000000001", 8, "+<0.00000001"},
	} {
		if got := FormatPayment(d(c.in), c.dec); got != c.want {
			t.Errorf("FormatPayment(%s, %d) = %q, want %q", c.in, c.dec, got, c.want)
		}
	}
}
