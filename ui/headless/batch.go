package headless

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/report"
)

func batchFlags(fs *flagSet, o *opts) {
	fs.StringVar(&o.par.file, "file", "", "read the orders from `FILE` (default, or -: standard input)")
	fs.BoolVar(&o.yes, "yes", false, "send orders the fat-finger guard flags")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check every order, send nothing")
}

func init() {
	register(&command{name: "batch", trades: true, groups: gAgentTrade, flags: batchFlags, run: runBatch,
		usage:   "[--file FILE] [--yes] [--dry-run]  (one order a line, in order's flags: --instrument SYM --side buy --size N --price PX ...)",
		summary: "Check up to 100 orders, one a line in order's flags (blank lines and # comments skipped), and sign them as one placeOrder; any line refused sends nothing."})
}

// batchLine is one order of a batch and what became of it, for --json.
type batchLine struct {
	Line   int         `json:"line"`
	Order  string      `json:"order"`
	Cloid  string      `json:"cloid"`
	Oid    api.OrderID `json:"oid,omitempty"`
	Status string      `json:"status,omitempty"`
	Reason string      `json:"reason,omitempty"`
	// Cost is its slippage and fee in one phrase (report.Phrase), when it filled.
	Cost string `json:"cost,omitempty"`
	side string
}

// batchFlagsOK are the order flags a batch line may carry.
var batchLineFlags = map[string]bool{"instrument": true, "side": true, "size": true, "notional": true, "price": true, "market": true,
	"slippage": true, "tif": true, "reduce-only": true, "post-only": true, "trigger": true, "tpsl": true, "cloid": true}

// lineIntent reads one batch line (order's flags) into an intent, as order reads its flags.
func (r *runner) lineIntent(line string, n int) (state.OrderIntent, error) {
	sub := *r
	sub.o = opts{conn: r.o.conn}
	fs := &flagSet{FlagSet: pflag.NewFlagSet("batch line", pflag.ContinueOnError)}
	fs.SetOutput(io.Discard)
	orderCmdFlags(fs, &sub.o)
	if err := fs.Parse(strings.Fields(line)); err != nil {
		return state.OrderIntent{}, usagef("line %d: %v", n, flagValueError(err))
	}
	sub.explicit = map[string]bool{}
	var bad string
	fs.Visit(func(f *pflag.Flag) {
		sub.explicit[f.Name] = true
		if !batchLineFlags[f.Name] && bad == "" {
			bad = f.Name
		}
	})
	switch {
	case bad != "":
		return state.OrderIntent{}, usagef("line %d: --%s is not for a batch line (a line takes order's flags up to --cloid; --yes and --dry-run go on batch itself)", n, bad)
	case fs.NArg() > 0:
		return state.OrderIntent{}, usagef("line %d: %q is not a flag: write the order as order's flags", n, fs.Arg(0))
	}
	in, err := sub.intent()
	if err != nil {
		return in, usagef("line %d: %v", n, err)
	}
	if in.Cloid == "" {
		in.Cloid = state.NewCloid()
	}
	return in, nil
}

// readBatch reads the batch's lines: blank ones and # comments skipped.
func (r *runner) readBatch() ([]string, []int, error) {
	var src io.Reader = r.env.Stdin
	if f := r.o.par.file; f != "" && f != "-" {
		fh, err := os.Open(f)
		if err != nil {
			return nil, nil, fmt.Errorf("batch: %w", err)
		}
		defer fh.Close()
		src = fh
	}
	var lines []string
	var nums []int
	sc := bufio.NewScanner(src)
	for n := 1; sc.Scan(); n++ {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			lines, nums = append(lines, l), append(nums, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("batch: reading the orders: %w", err)
	}
	switch {
	case len(lines) == 0:
		return nil, nil, usagef("batch: no orders: give one order a line (order's flags) on standard input or in --file")
	case len(lines) > exec.MaxBatch:
		return nil, nil, usagef("batch: %d orders; one placeOrder takes at most %d: split the file", len(lines), exec.MaxBatch)
	}
	return lines, nums, nil
}

// batchJSON is batch's JSON output.
type batchJSON struct {
	Outcome string      `json:"outcome"`
	Sent    bool        `json:"sent"`
	Orders  []batchLine `json:"orders"`
}

func runBatch(ctx context.Context, r *runner) error {
	lines, nums, err := r.readBatch()
	if err != nil {
		return err
	}
	ins := make([]state.OrderIntent, len(lines))
	for i, l := range lines {
		if ins[i], err = r.lineIntent(l, nums[i]); err != nil {
			return err
		}
	}
	st, err := r.batchStore(ctx, ins)
	if err != nil {
		return err
	}
	cs := make([]exec.Checked, len(ins))
	out := batchJSON{Outcome: OutcomeWord(ExitOK), Orders: make([]batchLine, len(ins))}
	seen := map[string]int{}
	for i, in := range ins {
		c, errs := exec.Check(st, in, r.o.conn.guard())
		if len(errs) > 0 {
			return fmt.Errorf("line %d: %w", nums[i], refused(errs))
		}
		if j, dup := seen[in.Cloid]; dup {
			return usagef("line %d: client id %s is line %d's too: give each order its own", nums[i], in.Cloid, j)
		}
		seen[in.Cloid] = nums[i]
		co := c.Order()
		if err := r.unconfirmed(co, fmt.Sprintf("line %d", nums[i]), "send the batch"); err != nil {
			return err
		}
		cs[i] = c
		out.Orders[i] = batchLine{Line: nums[i], Order: orderWords(st, co), Cloid: co.Wire.Cloid, side: co.Wire.Side}
	}
	if r.o.dryRun {
		return r.printBatch(out)
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	res, err := e.PlaceBatch(ctx, cs, exec.Ask{Who: journal.WhoHeadless, What: fmt.Sprintf("batch of %d orders", len(cs)), Confirmed: r.o.yes})
	if err != nil {
		return err
	}
	return r.batchDone(out, res)
}

// batchStore is the order store of a batch: every instrument's book and leverage.
func (r *runner) batchStore(ctx context.Context, ins []state.OrderIntent) (*state.Store, error) {
	st, err := r.orderStore(ctx, ins[0].Instrument)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{ins[0].Instrument: true}
	for _, in := range ins[1:] {
		if i, ok := st.FindInstrument(in.Instrument); ok && !done[in.Instrument] {
			done[in.Instrument] = true
			if b, err := r.client.OrderBook(ctx, i.Name, 0); err == nil {
				st.Apply(state.BookMsg{Book: b})
			}
			if l, err := r.client.InstrumentLeverage(ctx, r.client.Address(), i.Name); err == nil && !i.Spot {
				st.Apply(state.LeverageMsg{Leverage: l})
			}
		}
	}
	return st, nil
}

// batchDone prints each order's outcome and exits as the worst did.
func (r *runner) batchDone(out batchJSON, res exec.BatchResult) error {
	if res.Kind == exec.Refused {
		return fmt.Errorf("batch refused, nothing sent: %s", res.Reason)
	}
	out.Sent = res.Result.Sent
	code := ExitOK
	for i, o := range res.Orders {
		out.Orders[i].Oid, out.Orders[i].Status, out.Orders[i].Reason = o.Outcome.Oid, o.Kind.String(), text.Clean(o.Reason)
		out.Orders[i].Cost = report.Phrase(out.Orders[i].side, o.Outcome.AvgPrice, o.Arrival, o.Fee)
		switch {
		case o.Kind == exec.Unknown:
			code = ExitUnknown
		case (o.Kind == exec.Rejected || o.Kind == exec.NotPlaced) && code == ExitOK:
			code = ExitRejected
		}
	}
	out.Outcome = OutcomeWord(code)
	if err := r.printBatch(out); err != nil {
		return err
	}
	switch code {
	case ExitUnknown:
		return withExit(code, fmt.Errorf("batch sent, some outcomes unknown: %s; check `tradedesk orders` before sending again", text.Clean(res.Reason)))
	case ExitRejected:
		return withExit(code, fmt.Errorf("batch sent, some orders not placed: %s", text.Clean(res.Reason)))
	}
	return nil
}

func (r *runner) printBatch(out batchJSON) error {
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, out)
	}
	t := newTable("LINE", "ORDER", "CLIENT ID", "OID", "STATUS")
	for _, o := range out.Orders {
		oid, status := "", "checked (dry run, not sent)"
		if out.Sent {
			oid, status = fmt.Sprint(o.Oid), o.Status
			if o.Reason != "" {
				status += ": " + o.Reason
			}
			status += costText(o.Cost)
		}
		t.add(fmt.Sprint(o.Line), o.Order, o.Cloid, oid, status)
	}
	return t.write(r.env.Stdout)
}
