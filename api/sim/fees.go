package sim

import "github.com/shopspring/decimal"

// FeeRates are the fee rates the simulator charges on notional: the maker's (negative: a rebate)
// and the taker's. The embedded demo gives them to the console, so its previews show the fees
// the simulator will charge and its margin offers use the taker rate the simulator checks with.
func FeeRates() (maker, taker decimal.Decimal) { return makerFee, takerFee }

// feeRates is the fee schedule an engine charges: the simulator's own (makerFee, takerFee), or
// a live exchange's when it mirrors one (WithFees).
type feeRates struct{ maker, taker decimal.Decimal }

// WithFees sets the maker and taker fee rates on notional (default −0.0001 and 0.0004; a
// negative maker rate is a rebate). A mirror takes the live exchange's schedule this way.
func WithFees(maker, taker decimal.Decimal) Option {
	return func(c *config) { c.fees = &feeRates{maker: maker, taker: taker} }
}

// FeeRates are the maker and taker rates this simulator charges (WithFees, or FeeRates').
func (s *Sim) FeeRates() (maker, taker decimal.Decimal) { return s.eng.fee.maker, s.eng.fee.taker }
