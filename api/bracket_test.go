package api

import (
	"encoding/hex"
	"testing"
)

// The SDK's signed order with a trigger and grouping (vector placeOrder_two_orders_uuid_cloids,
// its second order: a market stop-loss with grouping normal) is what TpslOrder builds from the
// leg's numbers, byte for byte: msgpack, hash and signature. Guards a changed tif, ro, isMarket or
// field of the child.
func TestTpslOrderMatchesSDKVector(t *testing.T) {
	vf := loadVectors(t)
	s := testSigner(t, vf.PrivateKey)
	for _, v := range vf.Vectors {
		if v.Name != "placeOrder_two_orders_uuid_cloids" {
			continue
		}
		want := vectorData(t, v).(*PlaceOrderData)
		got := *want
		got.Orders = []OrderWire{want.Orders[0], TpslOrder(2, SideSell, "1.25", GroupingNormal,
			TpslLeg{Tpsl: TpslStopLoss, Trigger: "2900", Price: "3000", Cloid: "8d79218d-1735-418e-b5a5-6ea94a366988"})}
		if mp := "0x" + hex.EncodeToString(got.AppendMsgpack(nil)); mp != v.MsgpackHex {
			t.Fatalf("msgpack\n got %s\nwant %s", mp, v.MsgpackHex)
		}
		sig, err := s.SignAction(v.Source, v.TxType, &got)
		if err != nil || sig != v.Signature {
			t.Fatalf("signature %s (%v), want %s", sig, err, v.Signature)
		}
		return
	}
	t.Fatal("vector placeOrder_two_orders_uuid_cloids is missing")
}

// A bracket is the entry with grouping normal, then take-profit and stop-loss (in that order
// whatever order they are given in) on the other side, reduce-only, for the entry's size.
// Guards a child on the entry's side, a child without ro, and an unstable leg order.
func TestBracketOrders(t *testing.T) {
	entry := OrderWire{InstrumentID: 1, Side: SideBuy, PositionSide: PositionSideBoth, Price: "97000", Size: "0.1",
		Tif: TifGTC, Cloid: "e"}
	sl := TpslLeg{Tpsl: TpslStopLoss, Trigger: "95000", Price: "90250", Cloid: "s"}
	tp := TpslLeg{Tpsl: TpslTakeProfit, Trigger: "99000", Price: "94050", Cloid: "t"}
	os, err := Bracket(entry, sl, tp)
	if err != nil {
		t.Fatal(err)
	}
	if len(os) != 3 || os[0].Grouping != GroupingNormal || os[0].Tpsl != "" || os[0].Cloid != "e" {
		t.Fatalf("entry %+v", os)
	}
	for i, want := range []TpslLeg{tp, sl} {
		c := os[i+1]
		if c.Tpsl != want.Tpsl || c.TriggerPx != want.Trigger || c.Price != want.Price || c.Cloid != want.Cloid ||
			c.Side != SideSell || !c.ReduceOnly || !c.IsMarket || c.Tif != TifIOC || c.Size != "0.1" ||
			c.Grouping != GroupingNormal || c.InstrumentID != 1 {
			t.Errorf("child %d: %+v", i, c)
		}
	}
	entry.Side = SideSell
	os, _ = Bracket(entry, tp)
	if len(os) != 2 || os[1].Side != SideBuy {
		t.Errorf("a short's take-profit buys: %+v", os)
	}
	for name, legs := range map[string][]TpslLeg{"none": nil, "two tp": {tp, tp}, "three": {tp, sl, sl},
		"bad trigger": {{Tpsl: TpslTakeProfit, Trigger: "1e5", Price: "1"}}} {
		if _, err := Bracket(entry, legs...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	entry.ReduceOnly = true
	if _, err := Bracket(entry, tp); err == nil {
		t.Error("reduce-only entry accepted")
	}
}
