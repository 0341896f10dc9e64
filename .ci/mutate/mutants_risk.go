package main

// riskMutants guard what issue #35's second round added: the trading state found as the
// account's data arrives, the account limits, the limits' use, an algorithm's refused child, and
// the flatten's summed result.
var riskMutants = []mutant{
	{id: "risk/console-never-observes", file: "ui/components/risk/line.go", from: "return eng.Observe(ctx, *acct)", to: "return eng.Report(ctx, nil)", pkgs: []string{"./ui/components/risk"}},
	{id: "risk/hwm-follows-the-pnl", file: "state/risk/observe.go", from: "if !e.rec.HWMSet || total.GreaterThan(e.rec.HWM) {", to: "if true {", pkgs: []string{"./state/risk"}},
	{id: "risk/loss-pct-flipped", file: "state/risk/observe.go", from: "max := e.rec.DayStartEquity.Mul(pct).Div(hundred); loss.GreaterThanOrEqual(max)", to: "max := e.rec.DayStartEquity.Mul(pct).Div(hundred); loss.GreaterThan(max)", pkgs: []string{"./state/risk"}},
	{id: "risk/leverage-unchecked", file: "state/risk/check.go", from: "if lev := gross.Div(acct.Equity); lev.GreaterThan(max) {", to: "if lev := gross.Div(acct.Equity); false && lev.GreaterThan(max) {", pkgs: []string{"./state/risk"}},
	{id: "risk/open-orders-batch-uncounted", file: "state/risk/check.go", from: "decimal.NewFromInt(int64(acct.OpenOrders+len(orders))).GreaterThan(n)", to: "decimal.NewFromInt(int64(acct.OpenOrders+1)).GreaterThan(n)", pkgs: []string{"./state/risk"}},
	{id: "risk/position-use-unmeasured", file: "state/risk/report.go", from: "largest = decimal.Max(largest, v.Abs())", to: "largest = decimal.Min(largest, v.Abs())", pkgs: []string{"./state/risk"}},
	{id: "risk/algo-refusal-ignored", file: "state/algo/algo.go", from: "if res.Kind == exec.Refused {", to: "if false && res.Kind == exec.Refused {", pkgs: []string{"./ui/headless"}},
	// The gate's record kept decoded while its text is unchanged (state/risk/engine.go): another
	// process's write is still seen at the next check, and a pending loosening still applies.
	{id: "risk/record-kept-through-change", file: "state/risk/engine.go", from: "if !ok || v == \"\" || v != e.raw {", to: "if e.raw == \"\" {", pkgs: []string{"./state/risk"}},
	{id: "risk/steady-with-pending", file: "state/risk/engine.go", from: "e.steady = e.raw != \"\" && len(e.rec.Pending) == 0", to: "e.steady = e.raw != \"\"", pkgs: []string{"./state/risk"}},
	{id: "risk/steady-through-new-limits", file: "state/risk/engine.go", from: "e.want, e.steady = want, false", to: "e.want = want", pkgs: []string{"./state/risk"}},
	{id: "flatten/refusal-why-dropped", file: "state/close_flatten.go", from: "s += fmt.Sprintf(\", %d refused: %s\", refused, strings.Join(whys, \"; \"))", to: "s += fmt.Sprintf(\", %d refused\", refused+0*len(strings.Join(whys, \"\")))", pkgs: []string{"./state"}},
}

func init() { mutants = append(mutants, riskMutants...) }
