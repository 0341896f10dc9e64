package sim

import "github.com/shopspring/decimal"

// FeeRates are the fee rates the simulator charges on notional: the maker's (negative: a rebate)
// and the taker's. The embedded demo gives them to the console, so its previews show the fees
// the simulator will charge and its margin offers use the taker rate the simulator checks with.
func FeeRates() (maker, taker decimal.Decimal) { return makerFee, takerFee }
