package state

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Size as a share (issue #35): "25%" in a size is a share of the offered maximum, the most the
// account can afford on this order by the very rule the check offers when a size exceeds it.

// probeLots is how many lots the maximum is probed with: far beyond any account, so the check
// refuses it and says the most it takes.
var probeLots = decimal.New(1, 15)

// OfferedMax is the largest size of in (its instrument, side, type and price; its size is
// ignored) the account can afford, rounded down to the lot: the size the check offers when one
// exceeds it ("use a size of at most ..."), the smallest when several limits offer one. Zero and
// why when the check offers none (the account not loaded, nothing affordable).
func (s *Store) OfferedMax(in OrderIntent, g Guard) (decimal.Decimal, error) {
	inst, ok := s.FindInstrument(in.Instrument)
	if !ok || !inst.LotSize.IsPositive() {
		return decimal.Zero, fmt.Errorf("instrument %s is not loaded yet", in.Instrument)
	}
	in.Size, in.NotionalUSD = inst.LotSize.Mul(probeLots).String(), ""
	in.ReduceOnly = false
	_, errs := s.CheckOrder(in, g)
	var max decimal.Decimal
	why := "the account cannot afford one lot"
	for _, e := range errs {
		if e.Field != FieldSize {
			continue
		}
		if v, err := decimal.NewFromString(e.Suggest); err == nil && v.IsPositive() && (max.IsZero() || v.LessThan(max)) {
			max = v
		} else if strings.Contains(e.Msg, "not loaded") {
			why = e.Msg
		}
	}
	if !max.IsPositive() {
		return decimal.Zero, fmt.Errorf("no maximum to take a share of: %s", why)
	}
	return FloorToStep(max, inst.LotSize), nil
}

// ShareOfMax is pct % (above 0, at most 100) of OfferedMax, rounded down to the lot.
func (s *Store) ShareOfMax(in OrderIntent, pct decimal.Decimal, g Guard) (size, max decimal.Decimal, err error) {
	if !pct.IsPositive() || pct.GreaterThan(hundred) {
		return decimal.Zero, decimal.Zero, fmt.Errorf("a share is 1 to 100%%, e.g. 25%%")
	}
	if max, err = s.OfferedMax(in, g); err != nil {
		return decimal.Zero, max, err
	}
	inst, _ := s.FindInstrument(in.Instrument)
	size = FloorToStep(max.Mul(pct).Div(hundred), inst.LotSize)
	if !size.IsPositive() {
		return size, max, fmt.Errorf("%s%% of the most you can afford (%s) is less than one lot (%s)", pct, max, inst.LotSize)
	}
	return size, max, nil
}
