package main

// poskeysMutants are the position keys' money rules (issue #35): state/close.go,
// close_reverse.go, close_flatten.go, close_share.go.
var poskeysMutants = []mutant{
	{id: "close/share-floors-to-lot", file: "state/close.go", from: "want = FloorToStep(want, lot)", to: "want = CeilToStep(want, lot)"},
	{id: "close/never-over-position", file: "state/close.go", from: "case size.GreaterThan(held):", to: "case false:"},
	{id: "close/short-pnl-sign", file: "state/close.go", from: "if pos.Size.IsNegative() {\n\t\td = d.Neg()", to: "if false {\n\t\td = d.Neg()"},
	{id: "breakeven/fees-counted", file: "state/close_reverse.go", from: "CeilToStep(pos.EntryPrice.Add(per), inst.TickSize)", to: "CeilToStep(pos.EntryPrice, inst.TickSize)"},
	{id: "reverse/twice-the-size", file: "state/close_reverse.go", from: "Size: held.Add(held).String()", to: "Size: held.String()"},
	{id: "share/floors-to-lot", file: "state/close_share.go", from: "size = FloorToStep(max.Mul(pct).Div(hundred), inst.LotSize)", to: "size = CeilToStep(max.Mul(pct).Div(hundred), inst.LotSize)"},
	{id: "share/of-the-max", file: "state/close_share.go", from: "size = FloorToStep(max.Mul(pct).Div(hundred), inst.LotSize)", to: "size = FloorToStep(max.Mul(pct).Div(decimal.NewFromInt(10)), inst.LotSize)"},
	{id: "flatten/stale-refused", file: "state/close_flatten.go", from: "case f.Stale || f.Age > maxFlattenAge:", to: "case false:"},
}

func init() { mutants = append(mutants, poskeysMutants...) }
