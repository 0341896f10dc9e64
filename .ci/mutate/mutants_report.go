package main

// reportMutants are the execution report's money rules (issue #41): state/report's card (VWAP,
// fees, slippage sign), round trips (a reversal split, closed_pnl and fees kept) and the result
// line's phrase.
var reportMutants = []mutant{
	{id: "report/vwap-by-size", file: "state/report/card.go", from: "c.Notional = c.Notional.Add(f.Size.Mul(f.Price))", to: "c.Notional = c.Notional.Add(f.Price)"},
	{id: "report/fees-summed", file: "state/report/card.go", from: "c.Fee = c.Fee.Add(f.Fee)", to: "c.Fee = f.Fee"},
	{id: "report/sell-slip-sign", file: "state/report/card.go", from: "if c.Side == api.SideSell {\n\t\td = d.Neg()", to: "if c.Side == api.SideBuy {\n\t\td = d.Neg()"},
	{id: "report/slip-vs-preview", file: "state/report/card.go", from: "c.VsPreview = c.slip(a.Expected, tick)", to: "c.VsPreview = c.slip(a.Mid, tick)"},
	{id: "trips/reversal-splits", file: "state/report/trips.go", from: "if ok && trips[i].pos.Sign() != delta.Sign() {", to: "if ok && trips[i].pos.Sign() == 0 {"},
	{id: "trips/closed-pnl-kept", file: "state/report/trips.go", from: "t.Realised = t.Realised.Add(f.ClosedPnl)\n\tif t.pos.IsZero()", to: "if t.pos.IsZero()"},
	{id: "trips/reversing-fee-once", file: "state/report/trips.go", from: "f.Fee, f.ClosedPnl = f.Fee.Sub(f.Fee.Mul(share)), decimal.Zero", to: "f.ClosedPnl = decimal.Zero"},
	{id: "phrase/sell-slip-sign", file: "state/report/phrase.go", from: "if side == api.SideSell {\n\t\td = d.Neg()", to: "if false {\n\t\td = d.Neg()"},
}

func init() { mutants = append(mutants, reportMutants...) }
