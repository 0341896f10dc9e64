package sim

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// xferRec is one transfer_history record as the tests read it.
type xferRec struct {
	Type, From, To, Collateral, Direction string
	Amount, Fee                           decimal.Decimal
	Proceeds, Price                       *decimal.Decimal
}

// transfersOf reads an account's whole transfer history over /info, newest first.
func transfersOf(t testing.TB, e *env, user string) []xferRec {
	t.Helper()
	var out []xferRec
	for pg := 1; ; pg++ {
		body, _ := json.Marshal(map[string]any{"method": "transfer_history", "params": map[string]any{"user": user, "page": pg, "limit": 500}})
		code, raw := e.postRaw(t, "/info", string(body))
		var recs []xferRec
		if err := json.Unmarshal([]byte(raw), &recs); err != nil || code != 200 {
			t.Fatalf("transfer_history: %d %s", code, raw)
		}
		out = append(out, recs...)
		if len(recs) < 500 {
			return out
		}
	}
}

// seizedUSDC sums what an account's transfer history says the insurance fund paid into its
// derivative USDC (seizures' proceeds and covered debts), and what collateral it took.
func seizedUSDC(recs []xferRec) (usdc decimal.Decimal, taken map[string]decimal.Decimal) {
	usdc, taken = decimal.Zero, map[string]decimal.Decimal{}
	for _, r := range recs {
		switch r.Type {
		case xferSeizure:
			usdc = usdc.Add(*r.Proceeds)
			taken[r.Collateral] = taken[r.Collateral].Add(r.Amount)
		case xferCover:
			usdc = usdc.Add(r.Amount)
		}
	}
	return usdc, taken
}

// TestSeizureIsInTheAccountsRecords (issue #39.2): when the insurance fund takes a bankrupt
// account's WETH and pays what it cannot, both show in the account's transfer history, and the
// account's balances follow from its own records alone (deposits, fills, seizures) to the unit.
// Guards a seizure kept only inside the engine.
func TestSeizureIsInTheAccountsRecords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		index, wethLeft, proceeds, cover string
	}{
		{"3300", "0.089103030303030303", "3005.96", ""}, // part of the WETH covers the debt
		{"1000", "0", "1000", "2005.96"},                // the fund pays what the WETH cannot
	} {
		e, alice := liquidatedWithWETH(t)
		if err := e.sim.SetIndexPrice("ETH-PERP", dec(tc.index)); err != nil {
			t.Fatal(err)
		}
		recs := transfersOf(t, e, alice.Address())
		var seize, cover *xferRec
		for i := range recs {
			switch recs[i].Type {
			case xferSeizure:
				seize = &recs[i]
			case xferCover:
				cover = &recs[i]
			}
		}
		if seize == nil || seize.Collateral != "WETH" || seize.To != InsuranceFund || !seize.Price.Equal(dec(tc.index)) {
			t.Fatalf("index %s: seizure record %+v, want WETH to the insurance fund at %s", tc.index, seize, tc.index)
		}
		eqDec(t, "seizure proceeds", *seize.Proceeds, tc.proceeds)
		if (cover != nil) != (tc.cover != "") || (cover != nil && (!cover.Amount.Equal(dec(tc.cover)) || cover.From != InsuranceFund)) {
			t.Errorf("index %s: cover record %+v, want %q from the insurance fund", tc.index, cover, tc.cover)
		}
		// The account from its records: 2,000 USDC and 1 WETH deposited, the fills' PnL and fees,
		// and what the seizures moved.
		usdc, taken := seizedUSDC(recs)
		usdc = usdc.Add(dec("2000")) // moneyEnv: no demo balance
		for _, f := range fillsOf(t, alice, "") {
			usdc = usdc.Add(f.ClosedPnl).Sub(f.Fee)
		}
		s := summaryOf(t, alice, "")
		eqDec(t, "alice USDC from her records", usdc, s.Collateral["USDC"].Balance.String())
		eqDec(t, "alice WETH from her records", dec("1").Sub(taken["WETH"]), s.Collateral["WETH"].Balance.String())
		eqDec(t, "alice WETH", s.Collateral["WETH"].Balance, tc.wethLeft)
	}
}

// TestInternalTransferSaysWhichWay (issue #39.6): an internal transfer's record names its
// direction.
func TestInternalTransferSaysWhichWay(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	if _, err := alice.InternalTransfer(ctx(), 1, "500", true); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.InternalTransfer(ctx(), 1, "200", false); err != nil {
		t.Fatal(err)
	}
	recs := transfersOf(t, e, alice.Address())
	if len(recs) < 2 || recs[0].Direction != dirToSpot || recs[1].Direction != dirToDeriv || recs[0].Type != xferInternal {
		t.Fatalf("newest records %+v, want derivatives_to_spot then spot_to_derivatives", recs[:min(2, len(recs))])
	}
}

// TestReduceOnlyRemainderSaysWhy (issue #39.6): a resting reduce-only order whose position
// other fills have closed is cancelled when it is reached, and its order history record says
// why.
func TestReduceOnlyRemainderSaysWhy(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, bob, limit(1, api.SideSell, "97250", "0.1"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.1")) // alice long 0.1
	ro := limit(1, api.SideSell, "98000", "0.1")
	ro.ReduceOnly = true
	roID := oid(t, place(t, alice, ro))
	place(t, bob, limit(1, api.SideBuy, "97200", "0.1"))
	place(t, alice, limit(1, api.SideSell, "97200", "0.1")) // closed by another order
	place(t, bob, limit(1, api.SideBuy, "98000", "0.1"))    // reaches the reduce-only order
	code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":"order_history","params":{"user":%q,"limit":100}}`, alice.Address()))
	var out struct {
		Data []struct {
			OrderID api.OrderID `json:"order_id"`
			State   string
			Reason  string
		}
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil || code != 200 {
		t.Fatalf("order_history: %d %s", code, raw)
	}
	for _, o := range out.Data {
		if o.OrderID == roID {
			if o.State != api.StateCancelled || o.Reason != roNothingLeft {
				t.Errorf("the reduce-only order: state %q, reason %q; want cancelled, %q", o.State, o.Reason, roNothingLeft)
			}
			return
		}
	}
	t.Fatalf("order %d not in alice's history: %s", roID, raw)
}

// TestFlipFillSaysBothDirections (issue #39.6): a fill that closes a long and opens a short keeps
// closeLong for the part that closed and says openShort for the rest; a fill that only opens
// says nothing more.
func TestFlipFillSaysBothDirections(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, bob, limit(1, api.SideSell, "97250", "0.1"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.1")) // alice long 0.1
	place(t, bob, limit(1, api.SideBuy, "97200", "0.3"))
	place(t, alice, limit(1, api.SideSell, "97200", "0.3")) // closes 0.1, opens a short of 0.2
	code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":"fills","params":{"user":%q}}`, alice.Address()))
	var out struct {
		Data []struct {
			Direction     string
			OpenDirection string          `json:"open_direction"`
			StartSize     decimal.Decimal `json:"start_size"`
		}
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil || code != 200 || len(out.Data) != 2 {
		t.Fatalf("fills: %d %s", code, raw)
	}
	flip, open := out.Data[0], out.Data[1]
	if flip.Direction != api.DirCloseLong || flip.OpenDirection != api.DirOpenShort || !flip.StartSize.Equal(dec("0.1")) {
		t.Errorf("the flip: %+v; want closeLong, open_direction openShort, start_size 0.1", flip)
	}
	if open.Direction != api.DirOpenLong || open.OpenDirection != "" {
		t.Errorf("the opening fill: %+v; want openLong and no open_direction", open)
	}
}
