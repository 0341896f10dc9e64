package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"
)

// TestTransferHistory: transfer_history lists an account's transfers out and in, between its own
// accounts and its withdrawals, newest first, with the fee the sender paid (guards a list kept
// oldest first, and a fee charged to the receiver).
func TestTransferHistory(t *testing.T) {
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
	}
	var page struct {
		Data []rec `json:"data"`
	}
	history := func(user string) []rec {
		body, _ := json.Marshal(map[string]any{"method": "transfer_history", "params": map[string]any{"user": user}})
		resp, err := http.Post(e.srv.URL+"/info", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		page.Data = nil
		if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || resp.StatusCode != 200 {
			t.Fatalf("status %d: %v", resp.StatusCode, err)
		}
		return page.Data
	}
	a := history(alice.Address())
	if len(a) != 3 || a[0].Type != "withdraw" || a[1].Type != "internal" || a[2].Type != "derivative" {
		t.Fatalf("alice's history %+v, want withdraw, internal, derivative", a)
	}
	if a[0].Fee.String() != "1" || a[0].Amount.String() != "100" || a[2].To != bob.Address() {
		t.Errorf("records %+v", a)
	}
	b := history(bob.Address())
	if len(b) != 1 || b[0].From != alice.Address() || !b[0].Fee.IsZero() || b[0].Amount.String() != "1000" {
		t.Errorf("bob's history %+v, want the 1000 from alice with no fee of his", b)
	}
}
