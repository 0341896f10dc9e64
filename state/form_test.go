package state

import (
	"slices"
	"testing"
)

// TestFormErrors: each field not of its form is reported under its own name, with the message
// CheckOrder gives; empty fields and well-formed ones are not (CheckOrder and the instrument judge
// those). Mutations it kills: a check dropped, an empty field reported, a lower-case tif or "SL"
// refused, long/short sides refused.
func TestFormErrors(t *testing.T) {
	good := OrderIntent{Instrument: "BTC-PERP", Side: "long", Type: Trigger, Price: "100", Size: "0.1", Tif: "ioc", Tpsl: "SL", TriggerPx: "99"}
	if errs := good.FormErrors(); len(errs) != 0 {
		t.Fatalf("well-formed: %v", errs)
	}
	if errs := (OrderIntent{}).FormErrors(); len(errs) != 0 {
		t.Fatalf("empty: %v", errs)
	}
	bad := OrderIntent{Side: "up", Tif: "day", Tpsl: "xx", Size: "lots", NotionalUSD: "-5", Price: "0", TriggerPx: "1e3", Cloid: "a\tb"}
	var fields []string
	for _, e := range bad.FormErrors() {
		fields = append(fields, e.Field)
	}
	want := []string{FieldSide, FieldTif, FieldTpsl, FieldSize, FieldNotional, FieldPrice, FieldTrigger, FieldCloid}
	if !slices.Equal(fields, want) {
		t.Fatalf("fields %v, want %v", fields, want)
	}
	s := walkStore(t)
	_, errs := s.CheckOrder(OrderIntent{Instrument: "BTC-PERP", Side: "up", Type: Limit, Price: "49000", Size: "0.1"}, Guard{})
	if form := (OrderIntent{Side: "up"}).FormErrors(); len(errs) == 0 || errs[0] != form[0] {
		t.Fatalf("CheckOrder says %v, FormErrors %v", errs, form)
	}
}
