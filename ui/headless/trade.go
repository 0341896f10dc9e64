package headless

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/report"
)

func orderCmdFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "instrument name or id, e.g. BTC-PERP or 1")
	fs.text(&o.side, "side", "SIDE", "buy or sell")
	fs.text(&o.size, "size", "N", "order size in the instrument's lots, e.g. 0.1")
	fs.text(&o.notional, "notional", "USD", "order value in USD instead of --size (rounded down to the lot)")
	fs.text(&o.price, "price", "PX", "limit price (a multiple of the tick size)")
	fs.BoolVar(&o.market, "market", false, "market order: fills now, up to the mid +/- --slippage")
	fs.text(&o.slippage, "slippage", "BOUND", "market order worst-price bound, as a fraction (0.01) or percent (1%); default 1%")
	fs.text(&o.tif, "tif", "TIF", "time in force: GTC (default), IOC or FOK")
	fs.BoolVar(&o.reduceOnly, "reduce-only", false, "only reduce the position")
	fs.BoolVar(&o.postOnly, "post-only", false, "only rest on the book (rejected if it would fill at once)")
	fs.StringVar(&o.trigger, "trigger", "", "trigger price `PX` of a take-profit or stop-loss (needs --tpsl)")
	fs.text(&o.tpsl, "tpsl", "KIND", "tp (take profit) or sl (stop loss), with --trigger")
	fs.text(&o.cloid, "cloid", "ID", "client order id (a UUID; default: a new one)")
	fs.BoolVar(&o.yes, "yes", false, "send an order the fat-finger guard flags (far from the mark, large, or a large market order)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the order and print it with its preview, but do not send it")
	bracketFlags(fs, o)
}

func cancelFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "instrument name or id")
	fs.text(&o.oid, "oid", "N", "exchange order id to cancel")
	fs.text(&o.cloid, "cloid", "ID", "client order id to cancel")
}

func init() {
	register(&command{name: "order", trades: true, groups: gAgentTrade, flags: orderCmdFlags, run: runOrder,
		usage:   "--instrument SYM --side buy|sell (--size N | --notional USD) (--price PX | --market) [--tif GTC|IOC|FOK] [--reduce-only] [--post-only] [--trigger PX --tpsl tp|sl] [--tp PX|N%|Nt] [--sl PX|N%|Nt] [--cloid ID] [--yes] [--dry-run]",
		summary: "Check an order against the instrument, the market and the account, then sign and send it; --tp/--sl attach a take-profit and stop-loss (a bracket, one request)."})
	register(&command{name: "cancel", trades: true, groups: gAgentTrade, flags: cancelFlags, run: runCancel,
		usage: "--instrument SYM (--oid N | --cloid ID)", summary: "Cancel one order. Cancelling twice is safe."})
	register(&command{name: "cancel-all", trades: true, groups: gAgentTrade, flags: cancelAllFlags, run: runCancelAll,
		usage: "[--instrument SYM] --yes", summary: "Cancel every open order, or every open order on one instrument, stops included (needs --yes)."})
}

// intent turns the order flags into a state.OrderIntent, refusing contradictory flags.
func (r *runner) intent() (state.OrderIntent, error) {
	for _, name := range []string{"instrument", "side", "size", "notional", "price", "tif", "trigger", "tpsl", "cloid", "slippage"} {
		if f := r.flagValue(name); r.explicit[name] && strings.TrimSpace(f) == "" {
			return state.OrderIntent{}, usagef("--%s is empty: give a value or leave the flag out", name)
		}
	}
	o := r.o
	in := state.OrderIntent{Instrument: o.instrument, Side: o.side, Price: o.price, Size: o.size, NotionalUSD: o.notional,
		TriggerPx: o.trigger, Tif: o.tif, ReduceOnly: o.reduceOnly, PostOnly: o.postOnly, Tpsl: o.tpsl, Cloid: o.cloid}
	switch {
	case o.instrument == "":
		return in, errNoInstrument
	case o.side == "":
		return in, usagef("--side is required: buy or sell")
	case o.size == "" && o.notional == "":
		return in, usagef("give --size, or --notional in USD")
	case o.size != "" && o.notional != "":
		return in, usagef("give --size or --notional, not both")
	case o.market && o.price != "":
		return in, usagef("--price and --market exclude each other")
	case o.tpsl != "" && o.trigger == "":
		return in, usagef("--tpsl needs --trigger PX")
	}
	switch {
	case o.trigger != "":
		in.Type = state.Trigger
		if o.price == "" && !o.market {
			return in, usagef("a trigger order needs --price PX (limit) or --market")
		}
	case o.market:
		in.Type = state.Market
	case o.price == "":
		return in, usagef("give --price PX for a limit order, or --market")
	}
	slip, err := parseSlippage(o.slippage)
	if err != nil {
		return in, err
	}
	in.Slippage = slip
	return in, formUsage(in.FormErrors())
}

// formUsage is a usage error naming each flag whose value is not of its form (--side up, --size
// lots, --tif day): the table's 2, a flag to fix, where a check of the order against the market or
// the account refuses (1). The intent's fields are named as the flags are.
func formUsage(errs []state.FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = "--" + e.Field + ": " + e.Msg
		if e.Suggest != "" && !strings.Contains(e.Msg, e.Suggest) {
			parts[i] += " (try " + e.Suggest + ")"
		}
	}
	return usagef("%s", strings.Join(parts, "; "))
}

// flagValue is the text given to one of the order's string flags.
func (r *runner) flagValue(name string) string {
	o := r.o
	return map[string]string{"instrument": o.instrument, "side": o.side, "size": o.size, "notional": o.notional,
		"price": o.price, "tif": o.tif, "trigger": o.trigger, "tpsl": o.tpsl, "cloid": o.cloid, "slippage": o.slippage}[name]
}

// parseSlippage reads a fraction (0.01) or a percent (1%); empty means the default.
func parseSlippage(s string) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return state.DefaultSlippage, nil
	}
	pct := strings.HasSuffix(s, "%")
	v, err := state.ParsePositive("slippage", "slippage", strings.TrimSuffix(s, "%"))
	if err != nil {
		return decimal.Zero, usagef("--slippage: %v", err.(state.FieldError).Msg)
	}
	if pct {
		v = v.Div(decimal.NewFromInt(100))
	}
	if v.GreaterThan(decimal.RequireFromString("0.5")) {
		return decimal.Zero, usagef("--slippage %s is over 50%%: give a fraction like 0.01 or a percent like 1%%", s)
	}
	return v, nil
}

// orderStore loads what CheckOrder needs: instruments, market data, the account, its positions,
// the collateral list and the leverage setting on the instrument.
func (r *runner) orderStore(ctx context.Context, symbol string) (*state.Store, error) {
	st, err := r.market(ctx)
	if err != nil {
		return nil, err
	}
	user := r.client.Address()
	if err := r.loadInto(ctx, st, user, loadTickers, loadMids, loadAccount, loadPositions, loadCollateral); err != nil {
		return nil, err
	}
	// The account's own fee rates, as the console loads them (user_fees): the preview's fee is
	// then the one the exchange charges. A server without user_fees leaves the configured rates.
	if f, err := r.client.UserFees(ctx, user); err == nil {
		st.Apply(state.FeesMsg{Fees: f})
	}
	if in, ok := st.FindInstrument(symbol); ok {
		// The preview of a market or crossing order walks the book; without one it says less.
		if b, err := r.client.OrderBook(ctx, in.Name, 0); err == nil {
			st.Apply(state.BookMsg{Book: b})
		}
	}
	if in, ok := st.FindInstrument(symbol); ok && !in.Spot {
		// A server without instrument_leverage leaves the default leverage in force.
		if l, err := r.client.InstrumentLeverage(ctx, user, in.Name); err == nil {
			st.Apply(state.LeverageMsg{Leverage: l})
		}
	}
	return st, nil
}

// refused joins field errors into one line: a check refused the order before anything was
// signed (the exit table's "refused").
func refused(errs []state.FieldError) error {
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.Error()
		if e.Suggest != "" && !strings.Contains(e.Msg, e.Suggest) {
			parts[i] += " (try " + e.Suggest + ")"
		}
	}
	return errors.New("order refused, nothing sent: " + strings.Join(parts, "; "))
}

// orderResult is the order command's JSON output.
type orderResult struct {
	Sent     bool            `json:"sent"`
	Order    api.OrderWire   `json:"order"`
	Preview  previewJSON     `json:"preview"`
	Warnings []string        `json:"warnings,omitempty"`
	Oid      api.OrderID     `json:"oid,omitempty"`
	Status   string          `json:"status,omitempty"`
	Response *api.TxResponse `json:"response,omitempty"`
	// Filled, AvgPrice and Remaining are what the exchange's answer says filled on arrival, at
	// what average, and what of the requested size did not (absent when the answer does not say).
	Filled    *decimal.Decimal `json:"filled,omitempty"`
	AvgPrice  *decimal.Decimal `json:"avg_price,omitempty"`
	Remaining *decimal.Decimal `json:"remaining,omitempty"`
	// Fee is what the order's fills paid (negative: a rebate), from the exchange's fills.
	Fee *decimal.Decimal `json:"fee,omitempty"`
	// Remainder says what became of the part that did not fill: "resting", or "cancelled: why".
	Remainder string `json:"remainder,omitempty"`
	remainder string // the same, as the table's tail
	cost      string // slippage and fee in one phrase (report.Phrase), "" when neither is known
	// Outcome is the exit table's word: "ok"; "partial" when it filled only in part and the rest
	// was cancelled (exit 6); or "unknown" when the answer could not be read and the cloid was
	// not found (exit 4).
	Outcome string `json:"outcome"`
}

type previewJSON struct {
	Notional            decimal.Decimal  `json:"notional"`
	Fee                 decimal.Decimal  `json:"fee"`
	Taker               bool             `json:"taker"`
	MarginRequired      decimal.Decimal  `json:"margin_required"`
	Leverage            decimal.Decimal  `json:"leverage"`
	UtilizationAfter    decimal.Decimal  `json:"utilization_after_pct"`
	LiquidationEstimate *decimal.Decimal `json:"liquidation_estimate"` // null: none (the table says "none")
	// MarginValuedAt is the price the exchange values the margin at, and MarginValuedBy which
	// price that is: "price", "mark" or "trigger" (perpetuals only).
	MarginValuedAt *decimal.Decimal `json:"margin_valued_at,omitempty"`
	MarginValuedBy string           `json:"margin_valued_by,omitempty"`
	Book           *bookJSON        `json:"book,omitempty"` // the book walk of an order that takes liquidity
	// Rows are the preview as the console's form and confirmation show it (state.PreviewRows).
	Rows []rowJSON `json:"rows"`
}

// rowJSON is one preview row: its label and its value in words.
type rowJSON struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// bookJSON is the preview's walk of the order book.
type bookJSON struct {
	Fillable        decimal.Decimal `json:"fillable"`
	ExpectedAvg     decimal.Decimal `json:"expected_avg_price"`
	SlippagePct     decimal.Decimal `json:"slippage_pct"`
	SlippageTicks   decimal.Decimal `json:"slippage_ticks"`
	FillMargin      decimal.Decimal `json:"fill_margin"`
	FillUtilization decimal.Decimal `json:"fill_utilization_pct"`
}

func runOrder(ctx context.Context, r *runner) error {
	in, err := r.intent()
	if err != nil {
		return err
	}
	if r.explicit["tp"] || r.explicit["sl"] {
		if strings.TrimSpace(r.o.par.tp) == "" && strings.TrimSpace(r.o.par.sl) == "" {
			return usagef("--tp and --sl are empty: give a price, a percent (2%%) or ticks (40t), or leave them out")
		}
		return runBracket(ctx, r, in)
	}
	st, err := r.orderStore(ctx, in.Instrument)
	if err != nil {
		return err
	}
	// The executor's gate, with the guard the executor keeps (the config's [guard], as the
	// console's): a refused order or a dry run opens no journal.
	c, errs := exec.Check(st, in, r.o.conn.guard())
	if len(errs) > 0 {
		return refused(errs)
	}
	co := c.Order()
	res := orderResult{Order: co.Wire, Warnings: co.Warnings, Preview: previewOf(co), Outcome: OutcomeWord(ExitOK)}
	if r.o.dryRun {
		return r.printOrder(st, co, res)
	}
	if err := r.unconfirmed(co, "order", "send it"); err != nil {
		return err
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	out, err := e.Place(ctx, c, exec.Ask{Who: journal.WhoHeadless, What: orderWords(st, co), Confirmed: r.o.yes})
	if err != nil {
		return err
	}
	return r.reportOrder(st, co, res, out)
}

// unconfirmed is the error of an order the fat-finger guard flags (a typed confirmation in the
// console), sent without --yes; nil when it is not flagged or --yes was given. what names the
// order ("order", "line 3"; "" for none) and do says what --yes does ("send it").
func (r *runner) unconfirmed(co state.CheckedOrder, what, do string) error {
	if !co.NeedsTypedConfirm || r.o.yes {
		return nil
	}
	return fmt.Errorf("%s, nothing sent: %s; add --yes to %s", strings.TrimSpace(what+" needs confirmation"), strings.Join(co.Warnings, "; "), do)
}

// reportOrder prints what the executor found of a sent order and picks the exit: done, partly
// filled, or unknown (the cloid is the way to look it up before sending again).
func (r *runner) reportOrder(st *state.Store, co state.CheckedOrder, res orderResult, out exec.Result) error {
	if err := orderFailed(out); err != nil {
		return err
	}
	if out.AnswerLost && out.Resp == nil && out.Found != nil {
		return r.lostFound(out)
	}
	if out.AnswerLost && out.Found != nil {
		fmt.Fprintf(r.env.Stderr, "the answer could not be read; cloid %s is order %d, %s\n", text.Clean(out.Cloid), out.Outcome.Oid, text.Clean(out.Found.State))
	}
	res.sent(out, co)
	if out.Fee.Valid {
		fee := out.Fee.Decimal
		res.Fee = &fee
	}
	if out.Kind != exec.Unknown && out.Outcome.Partial() {
		return r.partial(st, co, res)
	}
	if out.Kind != exec.Unknown {
		return r.printOrder(st, co, res)
	}
	res.Outcome = OutcomeWord(ExitUnknown)
	if err := r.printOrder(st, co, res); err != nil {
		return err
	}
	return withExit(ExitUnknown, fmt.Errorf("sent, outcome unknown: the answer could not be read and cloid %s was not found; check `tradedesk orders` before sending it again", co.Wire.Cloid))
}

// partial prints an order that filled only in part and exits with ExitPartial: a script must not
// take it for done, nor send the whole order again.
func (r *runner) partial(st *state.Store, co state.CheckedOrder, res orderResult) error {
	res.Outcome = OutcomeWord(ExitPartial)
	if err := r.printOrder(st, co, res); err != nil {
		return err
	}
	name := co.Instrument.Name
	return withExit(ExitPartial, fmt.Errorf("%s: %s of %s %s; %s %s", state.PartlyFilled, sizeText(st, name, *res.Filled),
		sizeText(st, name, co.Size), name, sizeText(st, name, *res.Remaining), res.Remainder))
}

// orderFailed is the error of an order the executor did not get placed: refused, rejected, not
// placed, or sent with its answer lost and the lookup unsettled (nil for the others).
func orderFailed(out exec.Result) error {
	cloid := out.Cloid
	switch {
	case out.Kind == exec.Refused:
		return errors.New("order refused, nothing sent: " + out.Reason)
	case out.Kind == exec.Rejected && out.Resp != nil:
		return withExit(ExitRejected, fmt.Errorf("exchange rejected the order (cloid %s): %s", cloid, out.Reason))
	case out.Kind == exec.Rejected || out.Kind == exec.NotPlaced && !out.AnswerLost:
		return fmt.Errorf("order not placed (cloid %s): %w", cloid, out.Err)
	case out.Kind == exec.NotPlaced:
		return withExit(ExitUnavailable, fmt.Errorf("the answer was lost (%v) and cloid %s is not in open orders or history: the order was not placed (its request expired unseen)", out.Err, cloid))
	case out.Kind == exec.Unknown && out.Resp == nil:
		return withExit(ExitUnknown, fmt.Errorf("sent, outcome unknown: the answer was lost and the lookup did not settle it (%s); check `tradedesk orders` for cloid %s before sending again", out.Reason, cloid))
	}
	return nil
}

// sent records what the executor found of the sent order co: its id and status, the exchange's
// answer, what filled, and its cost in one phrase.
func (res *orderResult) sent(out exec.Result, co state.CheckedOrder) {
	res.Sent, res.Response = true, out.Resp
	res.Oid, res.Status = out.Outcome.Oid, out.Outcome.Word()
	res.fill(out.Outcome, co)
	res.cost = report.Phrase(co.Wire.Side, out.Outcome.AvgPrice, out.Arrival, out.Fee)
}

// fill records what filled: the total, its average and the remainder and its fate.
func (res *orderResult) fill(out state.Outcome, co state.CheckedOrder) {
	if !out.FillKnown() && out.Kind != state.OutcomeUnfilled {
		return
	}
	filled, avg, rest := out.Filled, out.AvgPrice.Decimal, out.Remaining()
	res.Filled, res.AvgPrice, res.Remaining = &filled, &avg, &rest
	if !rest.IsPositive() {
		return
	}
	res.Remainder = state.RemainderFate(out, co.Wire.Tif, co.Wire.IsMarket)
	res.remainder = "; " + co.Instrument.SizeText(rest) + " " + res.Remainder
}

// previewOf is the preview's figures and its rows, the ones the console shows, for --json.
func previewOf(co state.CheckedOrder) previewJSON {
	p := co.Preview
	out := previewJSON{Notional: p.Notional, Fee: p.Fee, Taker: p.Taker, MarginRequired: p.MarginRequired,
		Leverage: p.Leverage, UtilizationAfter: p.UtilizationAfter, Rows: []rowJSON{}}
	if p.LiquidationEstimate.IsPositive() {
		liq := p.LiquidationEstimate
		out.LiquidationEstimate = &liq
	}
	if p.MarginPrice.IsPositive() {
		at := p.MarginPrice
		out.MarginValuedAt, out.MarginValuedBy = &at, p.MarginBasis
	}
	if w := p.Walk; w.Known {
		out.Book = &bookJSON{Fillable: w.Fillable, ExpectedAvg: w.AvgPrice, SlippagePct: w.SlippagePct,
			SlippageTicks: w.SlippageTicks, FillMargin: w.FillMargin, FillUtilization: w.FillUtilization}
	}
	for _, r := range co.PreviewRows() {
		out.Rows = append(out.Rows, rowJSON{Label: r.Label, Value: r.Value})
	}
	return out
}

// lostFoundJSON is order --json when the answer was lost and the lookup by cloid found the order.
type lostFoundJSON struct {
	Outcome    string      `json:"outcome"`
	Sent       bool        `json:"sent"`
	AnswerLost bool        `json:"answer_lost"`
	Oid        api.OrderID `json:"oid"`
	State      string      `json:"state"`
	Cloid      string      `json:"cloid"`
}

// lostFound prints an order whose answer was lost and whose lookup by cloid found it.
func (r *runner) lostFound(out exec.Result) error {
	found := out.Found
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, lostFoundJSON{Outcome: OutcomeWord(ExitOK), Sent: true, AnswerLost: true,
			Oid: found.OrderID, State: text.Clean(found.State), Cloid: text.Clean(found.Cloid)})
	}
	_, err := fmt.Fprintf(r.env.Stdout, "the answer was lost, but the order is on the exchange: oid %d, state %s, cloid %s\n", found.OrderID, text.Clean(found.State), text.Clean(found.Cloid))
	return err
}

func (r *runner) printOrder(st *state.Store, co state.CheckedOrder, res orderResult) error {
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, res)
	}
	w, in := co.Wire, co.Instrument
	verb := "placed"
	if !res.Sent {
		verb = "checked (dry run, not sent):"
	}
	k := newKV(false)
	k.add("Order", verb+" "+orderWords(st, co))
	if res.Sent {
		k.add("Order id", strconv.FormatUint(uint64(res.Oid), 10)+" "+res.Status)
		if res.Filled != nil {
			k.add("Filled", fmt.Sprintf("%s of %s at %s avg%s", sizeText(st, in.Name, *res.Filled), sizeText(st, in.Name, co.Size),
				priceText(st, in.Name, *res.AvgPrice), res.remainder)+costText(res.cost))
		}
		if res.Fee != nil {
			k.add("Fees paid", state.FormatUSDFee(*res.Fee)+" USD")
		}
		k.add("Transaction", res.Response.TxHash)
	}
	k.add("Client id", w.Cloid)
	// The preview is the console's own rows (state.PreviewRows): the order form and the
	// confirmation show these figures, worded the same.
	for _, row := range co.PreviewRows() {
		k.add(row.Label, row.Value)
	}
	for _, wmsg := range co.Warnings {
		k.add("Warning", wmsg)
	}
	return k.write(r.env.Stdout)
}

// orderWords is a checked order in words: "buy 0.5 BTC-USD @ 50,000.0 limit GTC, post-only".
func orderWords(st *state.Store, co state.CheckedOrder) string {
	w, name := co.Wire, co.Instrument.Name
	px := priceText(st, name, co.Price)
	what := fmt.Sprintf("%s %s %s", state.SideText(w.Side), sizeText(st, name, co.Size), name)
	how := fmt.Sprintf("@ %s limit %s", px, w.Tif)
	if w.IsMarket {
		how = "at market, worst price " + px
	}
	if w.TriggerPx != "" {
		trig, _ := decimal.NewFromString(w.TriggerPx)
		how = fmt.Sprintf("on %s trigger %s, %s", w.Tpsl, priceText(st, name, trig), how)
	}
	for _, f := range state.FlagTexts(w.ReduceOnly, w.PostOnly) {
		how += ", " + f
	}
	return what + " " + how
}

// findInstrument resolves --instrument against the exchange's instruments.
func (r *runner) findInstrument(ctx context.Context) (state.Instrument, error) {
	if r.o.instrument == "" {
		return state.Instrument{}, errNoInstrument
	}
	st, err := r.market(ctx)
	if err != nil {
		return state.Instrument{}, err
	}
	in, ok := st.FindInstrument(r.o.instrument)
	if !ok {
		return state.Instrument{}, fmt.Errorf("unknown instrument %s; `tradedesk instruments` lists them", text.Quote(r.o.instrument))
	}
	return in, nil
}
