package headless

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// posOpts are the position commands' own flags.
type posOpts struct {
	percent   string
	cancelAll bool
}

func closeFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "the position's instrument, e.g. BTC-PERP or btc")
	fs.text(&o.pos.percent, "percent", "P", "close P % of the position (1 to 100; default 100), rounded down to the lot")
	fs.text(&o.size, "size", "N", "close N of the position instead of a share (at most its size)")
	fs.text(&o.price, "price", "PX", "a reduce-only limit at PX, mid (the mid) or best (the best price on the closing side) instead of market")
	fs.text(&o.slippage, "slippage", "BOUND", "market close worst-price bound, as a fraction (0.01) or percent (1%); default 1%")
	fs.BoolVar(&o.yes, "yes", false, "send a close the fat-finger guard flags")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the close and print its preview, send nothing")
}

func reverseFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "the position's instrument, e.g. BTC-PERP or btc")
	fs.BoolVar(&o.yes, "yes", false, "send a reverse the fat-finger guard flags")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the reverse and print its preview, send nothing")
}

func flattenFlags(fs *flagSet, o *opts) {
	fs.BoolVar(&o.yes, "yes", false, "send it: without --yes flatten only prints what it would send and skip")
	fs.BoolVar(&o.pos.cancelAll, "cancel-all", false, "cancel every open order first")
}

func breakevenFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "the position's instrument, e.g. BTC-PERP or btc")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the stop and print it, send nothing")
}

func init() {
	register(&command{name: "close", trades: true, groups: gAgentTrade, flags: closeFlags, run: runClose,
		usage:   "--instrument SYM [--percent P | --size N] [--price PX|mid|best] [--slippage BOUND] [--yes] [--dry-run]",
		summary: "Close all or part of a position: reduce-only, at market or as a limit; says the PnL it realises and the fee."})
	register(&command{name: "reverse", trades: true, groups: gAgentTrade, flags: reverseFlags, run: runReverse,
		usage:   "--instrument SYM [--yes] [--dry-run]",
		summary: "Take a position to the same size on the other side: one market order of twice its size; its TP/SL are cancelled."})
	register(&command{name: "flatten", trades: true, groups: gAgentTrade, flags: flattenFlags, run: runFlatten,
		usage:   "--yes [--cancel-all]",
		summary: "Close every position with reduce-only market orders signed as one placeOrder; without --yes, print what it would send."})
	register(&command{name: "breakeven", trades: true, groups: gAgentTrade, flags: breakevenFlags, run: runBreakeven,
		usage:   "--instrument SYM [--dry-run]",
		summary: "Move a position's stop-loss to breakeven: its entry price plus the fees paid to open and to close it."})
}

// positionStore is orderStore with the open orders and the newest fills (a reverse's TP/SL, a
// breakeven's fees), and the books of every position's instrument.
func (r *runner) positionStore(ctx context.Context, symbol string) (*state.Store, error) {
	st, err := r.orderStore(ctx, symbol)
	if err != nil {
		return nil, err
	}
	user := r.client.Address()
	orders, err := api.AllPagesUpTo(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.client.OpenOrders(ctx, user, p)
	}, 0, api.MaxOpenOrders)
	if err != nil {
		return nil, err
	}
	st.Apply(state.OrdersMsg{Orders: orders})
	if fills, err := r.client.Fills(ctx, user, api.PageParams{}); err == nil {
		st.Apply(state.FillsMsg{Page: fills})
	}
	for _, p := range st.Positions() {
		if p.Instrument != symbol {
			if b, err := r.client.OrderBook(ctx, p.Instrument, 0); err == nil {
				st.Apply(state.BookMsg{Book: b})
			}
		}
	}
	return st, nil
}

// closeRequest reads the close's flags.
func (r *runner) closeRequest(st *state.Store) (state.CloseRequest, error) {
	o := r.o
	if o.instrument == "" {
		return state.CloseRequest{}, usagef("--instrument is required (a name like BTC-PERP, or btc)")
	}
	in, err := st.ResolveInstrument(o.instrument)
	if err != nil {
		return state.CloseRequest{}, usagef("--instrument: %v", err)
	}
	req := state.CloseRequest{Instrument: in.Name, Percent: decimal.NewFromInt(100), Cloid: state.NewCloid()}
	if o.pos.percent != "" && o.size != "" {
		return req, usagef("give --percent or --size, not both")
	}
	if share := o.pos.percent; share != "" || o.size != "" {
		if share != "" {
			share = strings.TrimSuffix(share, "%") + "%"
		} else {
			share = o.size
		}
		if req.Percent, req.Size, err = state.ParseCloseShare(share); err != nil {
			return req, usagef("--%s: %s", map[bool]string{true: "percent", false: "size"}[o.pos.percent != ""], err.(state.FieldError).Msg)
		}
	}
	switch p := strings.ToLower(strings.TrimSpace(o.price)); p {
	case "":
	case "mid":
		req.Pricing = state.CloseAtMid
	case "best":
		req.Pricing = state.CloseAtBest
	default:
		v, err := state.ParsePositive(state.FieldPrice, "price", p)
		if err != nil {
			return req, usagef("--price: %s (or mid, best)", err.(state.FieldError).Msg)
		}
		req.Pricing, req.Price = state.CloseAtPrice, v
	}
	if req.Slippage, err = parseSlippage(o.slippage); err != nil {
		return req, err
	}
	return req, nil
}

// closeJSON is close's and reverse's JSON output.
type closeJSON struct {
	Preview  string           `json:"preview"`
	Sent     bool             `json:"sent"`
	Order    api.OrderWire    `json:"order"`
	Oid      api.OrderID      `json:"oid,omitempty"`
	Status   string           `json:"status,omitempty"`
	Filled   *decimal.Decimal `json:"filled,omitempty"`
	AvgPrice *decimal.Decimal `json:"avg_price,omitempty"`
	PnL      decimal.Decimal  `json:"pnl"`
	Fee      decimal.Decimal  `json:"fee"`
	Result   string           `json:"result,omitempty"`
	// Cancelled are the TP/SL orders a reverse cancelled.
	Cancelled []api.OrderID `json:"cancelled,omitempty"`
}

func runClose(ctx context.Context, r *runner) error {
	st, err := r.positionStore(ctx, r.o.instrument)
	if err != nil {
		return err
	}
	req, err := r.closeRequest(st)
	if err != nil {
		return err
	}
	plan, errs := st.PlanClose(req, r.o.conn.guard())
	if len(errs) > 0 {
		return refused(errs)
	}
	out := closeJSON{Preview: plan.Words(), Order: plan.Order.Wire, PnL: plan.PnL, Fee: plan.Fee}
	res, err := r.sendOne(ctx, st, plan.Intent, "close: "+plan.Words(), &out)
	if err != nil || res == nil {
		return err
	}
	r.settleClose(&out, plan.Position, *res)
	return r.printClose(out)
}

// sendOne checks in through the executor's gate and sends it (nothing with --dry-run: out is
// printed and the result is nil).
func (r *runner) sendOne(ctx context.Context, st *state.Store, in state.OrderIntent, what string, out *closeJSON) (*exec.Result, error) {
	c, errs := exec.Check(st, in, r.o.conn.guard())
	if len(errs) > 0 {
		return nil, refused(errs)
	}
	if r.o.dryRun {
		return nil, r.printClose(*out)
	}
	if err := r.unconfirmed(c.Order(), "", "send it"); err != nil {
		return nil, err
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := e.Place(ctx, c, exec.Ask{Who: journal.WhoHeadless, What: what, Confirmed: r.o.yes})
	if err != nil {
		return nil, err
	}
	if err := orderFailed(res); err != nil {
		return nil, err
	}
	return &res, nil
}

// settleClose fills in what a sent close did: its fill, the PnL it realised and the fee paid.
func (r *runner) settleClose(out *closeJSON, pos api.Position, res exec.Result) {
	out.Sent, out.Oid, out.Status = true, res.Outcome.Oid, res.Outcome.Word()
	held := pos.Size.Abs()
	if res.Outcome.FillKnown() {
		filled, avg := res.Outcome.Filled, res.Outcome.AvgPrice.Decimal
		out.Filled, out.AvgPrice = &filled, &avg
		out.PnL = state.Realised(pos, decimal.Min(filled, held), avg)
	}
	if res.Fee.Valid {
		out.Fee = res.Fee.Decimal
	}
	out.Result = fmt.Sprintf("%s: realised %s USD, fee %s USD", out.Status, state.FormatSigned(out.PnL, 2), state.FormatUSDFee(out.Fee))
	if out.Filled != nil {
		out.Result = fmt.Sprintf("%s %s at %s: realised %s USD, fee %s USD", out.Status, out.Filled, out.AvgPrice, state.FormatSigned(out.PnL, 2), state.FormatUSDFee(out.Fee))
	}
}

func (r *runner) printClose(out closeJSON) error {
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, out)
	}
	fmt.Fprintln(r.env.Stdout, text.Clean(out.Preview))
	if !out.Sent {
		_, err := fmt.Fprintln(r.env.Stdout, "checked (dry run, not sent)")
		return err
	}
	_, err := fmt.Fprintln(r.env.Stdout, text.Clean(out.Result))
	return err
}

// positionInstrument is the instrument --instrument names (a name like BTC-PERP, or btc) and
// its positionStore: what a command on one position (reverse, breakeven) starts from.
func (r *runner) positionInstrument(ctx context.Context) (*state.Store, state.Instrument, error) {
	if r.o.instrument == "" {
		return nil, state.Instrument{}, usagef("--instrument is required (a name like BTC-PERP, or btc)")
	}
	st, err := r.positionStore(ctx, r.o.instrument)
	if err != nil {
		return nil, state.Instrument{}, err
	}
	in, err := st.ResolveInstrument(r.o.instrument)
	if err != nil {
		return nil, state.Instrument{}, usagef("--instrument: %v", err)
	}
	return st, in, nil
}

func runReverse(ctx context.Context, r *runner) error {
	st, in, err := r.positionInstrument(ctx)
	if err != nil {
		return err
	}
	plan, errs := st.PlanReverse(in.Name, state.NewCloid(), r.o.conn.guard())
	if len(errs) > 0 {
		return refused(errs)
	}
	out := closeJSON{Preview: plan.Words(), Order: plan.Order.Wire, PnL: plan.PnL, Fee: plan.Fee}
	res, err := r.sendOne(ctx, st, plan.Intent, plan.Words(), &out)
	if err != nil || res == nil {
		return err
	}
	r.settleClose(&out, plan.Position, *res)
	if err := r.cancelTpsl(ctx, plan, &out); err != nil {
		return err
	}
	return r.printClose(out)
}

// cancelTpsl cancels the reversed position's take-profit and stop-loss orders still open (the
// exchange may have cancelled them with the old side), and says so.
func (r *runner) cancelTpsl(ctx context.Context, plan state.ReversePlan, out *closeJSON) error {
	if len(plan.Tpsl) == 0 {
		return nil
	}
	open, err := api.AllPagesUpTo(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.client.OpenOrders(ctx, r.client.Address(), p)
	}, 0, api.MaxOpenOrders)
	if err != nil {
		return fmt.Errorf("reversed; the old side's TP/SL could not be checked (%w): see `tradedesk orders` and cancel them", err)
	}
	still := map[api.OrderID]bool{}
	for _, o := range open {
		still[o.OrderID] = true
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	var left []string
	for _, o := range plan.Tpsl {
		if !still[o.OrderID] { // gone with the old side
			out.Cancelled = append(out.Cancelled, o.OrderID)
			continue
		}
		res, err := e.Cancel(ctx, exec.Cancel{InstrumentID: o.InstrumentID, Oid: o.OrderID},
			exec.Ask{Who: journal.WhoHeadless, What: fmt.Sprintf("cancel the reversed position's TP/SL %d", o.OrderID)})
		if err != nil {
			return err
		}
		if res.Kind == exec.Cancelled {
			out.Cancelled = append(out.Cancelled, o.OrderID)
		} else {
			left = append(left, fmt.Sprintf("%d (%s)", o.OrderID, res.Reason))
		}
	}
	out.Result += fmt.Sprintf("; its TP/SL cancelled (%d orders): set them again on the new side", len(out.Cancelled))
	if len(left) > 0 {
		out.Result += "; NOT cancelled: " + strings.Join(left, ", ")
	}
	return nil
}
