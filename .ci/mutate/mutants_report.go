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
	{id: "market/vwap-by-size", file: "state/report/market.go", from: "cost = cost.Add(t.Size.Mul(t.Price))", to: "cost = cost.Add(t.Price)"},
	{id: "market/interval-start", file: "state/report/market.go", from: "if at.Before(from) {", to: "if false {"},
	{id: "market/interval-end", file: "state/report/market.go", from: "if at.After(to) ||", to: "if false ||"},
	{id: "market/participation-of-volume", file: "state/report/market.go", from: "m.Participation = decimal.Min(c.Size.Div(m.Volume), decimal.NewFromInt(1))", to: "m.Participation = decimal.NewFromInt(1)"},
	{id: "market/participation-needs-cover", file: "state/report/market.go", from: "if m.Covered {\n\t\tm.Participation", to: "if true {\n\t\tm.Participation"},
	{id: "market/kept-only-covered", file: "state/report/market.go", from: "|| !c.Market.Covered ||", to: "||"},
	{id: "market/kept-read-back", file: "state/report/market.go", from: "if m, ok, err := j.AlgoMarketOf(ctx, a.ID); err == nil && ok {", to: "if m, ok, err := j.AlgoMarketOf(ctx, a.ID); err == nil && ok && false {"},
	{id: "card/maker-share-not-crossed", file: "state/report/card.go", from: "if !f.Crossed {", to: "if f.Crossed {"},
	{id: "trips/reversal-is-no-add", file: "state/report/trips.go", from: "if t.Fills > 0 || t.Before {\n\t\tt.Adds++", to: "if true {\n\t\tt.Adds++"},
	{id: "latency/legs-between-stamps", file: "state/report/latency.go", from: "legs[i] = s[i+1].Sub(s[i])", to: "legs[i] = s[i+1].Sub(s[0])"},
	{id: "latency/nearest-rank", file: "state/report/latency.go", from: "i := (p*len(s)+99)/100 - 1", to: "i := p * len(s) / 100"},
	{id: "arrival/resting-mid", file: "state/exec/result.go", from: "a := journal.Arrival{Mark: co.Mark, Mid: co.Mid}", to: "a := journal.Arrival{Mark: co.Mark}", pkgs: []string{"./state/report"}},
	{id: "arrival/batch-kept", file: "state/exec/batch.go", from: "Numbers: ask.Numbers}, arrival)", to: "Numbers: ask.Numbers}, nil)", pkgs: []string{"./state/report"}},
	{id: "market/kept-at-end", file: "state/algo/algo.go", from: "if d.Ended != nil {\n\t\td.Ended(id)", to: "if false {\n\t\td.Ended(id)", pkgs: []string{"./ui/headless"}},
	{id: "phrase/sell-slip-sign", file: "state/report/phrase.go", from: "if side == api.SideSell {\n\t\td = d.Neg()", to: "if false {\n\t\td = d.Neg()"},
}

func init() { mutants = append(mutants, reportMutants...) }
