package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"
)

// TestTransferHistory: transfer_history lists an account's transfers out and in, between its own
// accounts and its withdrawals, newest first, in the SDKs' shape (a bare array, their type
// names), with the fee the sender paid (guards a list kept oldest first, and a fee charged to
// the receiver).
func TestTransferHistory(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	if _, err := alice.DerivativeTransfer(ctx(), 1, "1000", bob.Address()); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.InternalTransfer(ctx(), 1, "500", true); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.SpotWithdraw(ctx(), 1, "100", 42161); err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Type, From, To, Timestamp string
		Amount, Fee               decimal.Decimal
		ChainID                   int64 `json:"chain_id"`
	}
	var page struct{ Data []rec }
	history := func(user string) []rec {
		body, _ := json.Marshal(map[string]any{"method": "transfer_history", "params": map[string]any{"user": user}})
		resp, err := http.Post(e.srv.URL+"/info", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		page.Data = nil
		if err := json.NewDecoder(resp.Body).Decode(&page.Data); err != nil || resp.StatusCode != 200 {
			t.Fatalf("status %d: %v", resp.StatusCode, err)
		}
		return page.Data
	}
	a := history(alice.Address())
	// the test funding is two deposits: spot and derivatives
	if len(a) != 5 || a[0].Type != "spot_withdraw" || a[1].Type != "internal_balance_transfer" || a[2].Type != "derivative_balance_transfer" || a[3].Type != "deposit" || a[4].Type != "deposit" {
		t.Fatalf("alice's history %+v, want spot_withdraw, internal_balance_transfer, derivative_balance_transfer, deposit, deposit", a)
	}
	if a[0].Fee.String() != "1" || a[0].Amount.String() != "100" || a[0].ChainID != 42161 || a[2].To != bob.Address() {
		t.Errorf("records %+v", a)
	}
	b := history(bob.Address())
	if len(b) != 3 || b[0].From != alice.Address() || !b[0].Fee.IsZero() || b[0].Amount.String() != "1000" {
		t.Errorf("bob's history %+v, want the 1000 from alice with no fee of his", b)
	}
}
