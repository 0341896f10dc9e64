package main

// sessionMutants are the combined view's sums (issue #42): state/session's Total and Nets, which
// the combined view shows as every profile's figures added up.
var sessionMutants = []mutant{
	{id: "session/equity-summed", file: "state/session/summary.go", from: "t.Equity = t.Equity.Add(s.Equity)", to: "t.Equity = s.Equity"},
	{id: "session/margin-summed", file: "state/session/summary.go", from: "t.MarginUsed = t.MarginUsed.Add(s.MarginUsed)", to: "t.MarginUsed = s.MarginUsed"},
	{id: "session/loaded-needs-all", file: "state/session/summary.go", from: "t.Loaded = t.Loaded && s.Loaded", to: "t.Loaded = t.Loaded || s.Loaded"},
	{id: "session/net-signed", file: "state/session/summary.go", from: "n.Total = n.Total.Add(p.Size)", to: "n.Total = n.Total.Add(p.Size.Abs())"},
}

func init() { mutants = append(mutants, sessionMutants...) }
