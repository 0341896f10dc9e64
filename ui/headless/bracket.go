package headless

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// parityOpts are the flags of order's bracket, modify and leverage's read.
type parityOpts struct {
	tp, sl string
	file   string
	count  int
}

func bracketFlags(fs *flagSet, o *opts) {
	fs.text(&o.par.tp, "tp", "PX|N%|Nt", "take-profit attached to the order: a price, a distance in percent (2%) or in ticks (40t) from the entry")
	fs.text(&o.par.sl, "sl", "PX|N%|Nt", "stop-loss attached to the order: a price, a distance in percent (1%) or in ticks (20t) from the entry")
}

// legJSON is one take-profit or stop-loss of a bracket, and what became of it.
type legJSON struct {
	Tpsl    string          `json:"tpsl"`
	Trigger decimal.Decimal `json:"trigger"`
	Cloid   string          `json:"cloid"`
	Oid     api.OrderID     `json:"oid,omitempty"`
	Status  string          `json:"status,omitempty"`
	Reason  string          `json:"reason,omitempty"`
}

// bracketJSON is order --tp/--sl's JSON output: the entry as order prints it, with its legs.
type bracketJSON struct {
	orderResult
	Legs   []legJSON        `json:"legs"`
	Reward *decimal.Decimal `json:"reward,omitempty"`
	Risk   *decimal.Decimal `json:"risk,omitempty"`
}

// runBracket is order with --tp and/or --sl: the console's bracket rules (state.CheckBracket)
// through the executor's bracket gate, one placeOrder with the legs' client ids derived from the
// entry's.
func runBracket(ctx context.Context, r *runner, in state.OrderIntent) error {
	st, err := r.orderStore(ctx, in.Instrument)
	if err != nil {
		return err
	}
	c, errs := exec.CheckBracket(st, state.BracketIntent{Entry: in, TakeProfit: r.o.par.tp, StopLoss: r.o.par.sl}, r.o.conn.guard())
	if len(errs) > 0 {
		return refused(errs)
	}
	cb := c.Bracket()
	co := cb.Entry
	res := bracketJSON{orderResult: orderResult{Order: co.Wire, Warnings: co.Warnings, Preview: previewOf(co), Outcome: OutcomeWord(ExitOK)}}
	res.Legs = legsOf(cb)
	if cb.Reward.IsPositive() {
		res.Reward = &cb.Reward
	}
	if cb.Risk.IsPositive() {
		res.Risk = &cb.Risk
	}
	if r.o.dryRun {
		return r.printBracket(st, cb, res)
	}
	if err := r.unconfirmed(co, "bracket", "send it"); err != nil {
		return err
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	out, err := e.PlaceBracket(ctx, c, exec.Ask{Who: journal.WhoHeadless, What: orderWords(st, co) + cb.LegsWords(), Confirmed: r.o.yes})
	if err != nil {
		return err
	}
	if err := orderFailed(out.Result); err != nil {
		return err
	}
	res.sent(out.Result, co)
	for i, l := range out.Legs {
		if i < len(res.Legs) {
			res.Legs[i].Oid, res.Legs[i].Status, res.Legs[i].Reason = l.Outcome.Oid, l.Kind.String(), text.Clean(l.Reason)
		}
	}
	return r.bracketDone(st, cb, res, out)
}

// bracketDone prints a sent bracket and exits as its worst part did: a leg rejected is a
// rejection (the entry may stand unprotected), one unknown is unknown.
func (r *runner) bracketDone(st *state.Store, cb state.CheckedBracket, res bracketJSON, out exec.BracketResult) error {
	var bad, unknown []string
	for _, l := range res.Legs {
		switch l.Status {
		case exec.Rejected.String():
			bad = append(bad, fmt.Sprintf("%s %s rejected: %s", legName(l.Tpsl), l.Cloid, l.Reason))
		case exec.Unknown.String():
			unknown = append(unknown, l.Cloid)
		}
	}
	code := ExitOK
	switch {
	case len(bad) > 0:
		code = ExitRejected
	case out.Kind == exec.Unknown || len(unknown) > 0:
		code = ExitUnknown
	}
	res.Outcome = OutcomeWord(code)
	if err := r.printBracket(st, cb, res); err != nil {
		return err
	}
	switch code {
	case ExitRejected:
		return withExit(code, fmt.Errorf("the entry (cloid %s) was %s, but %s", cb.Entry.Wire.Cloid, res.Status, strings.Join(bad, "; ")))
	case ExitUnknown:
		return withExit(code, fmt.Errorf("sent, outcome unknown: %s; check `tradedesk orders` before sending again", text.Clean(out.Reason)))
	}
	return nil
}

// legsOf are the bracket's legs as its wires carry them.
func legsOf(cb state.CheckedBracket) []legJSON {
	legs := []legJSON{}
	for _, w := range cb.Wires[1:] {
		px, _ := decimal.NewFromString(w.TriggerPx)
		legs = append(legs, legJSON{Tpsl: w.Tpsl, Trigger: px, Cloid: w.Cloid})
	}
	return legs
}

func legName(tpsl string) string {
	if tpsl == api.TpslTakeProfit {
		return "take-profit"
	}
	return "stop-loss"
}

func (r *runner) printBracket(st *state.Store, cb state.CheckedBracket, res bracketJSON) error {
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, res)
	}
	co := cb.Entry
	verb := "placed"
	if !res.Sent {
		verb = "checked (dry run, not sent):"
	}
	k := newKV(false)
	k.add("Bracket", verb+" "+orderWords(st, co)+cb.LegsWords())
	if res.Sent {
		k.add("Order id", strconv.FormatUint(uint64(res.Oid), 10)+" "+res.Status+costText(res.cost))
	}
	k.add("Client id", co.Wire.Cloid)
	name := co.Instrument.Name
	for _, l := range res.Legs {
		v := "trigger " + priceText(st, name, l.Trigger) + ", client id " + l.Cloid
		if res.Sent {
			v += ", " + l.Status
			if l.Oid != 0 {
				v += " (order " + strconv.FormatUint(uint64(l.Oid), 10) + ")"
			}
		}
		k.add(strings.ToUpper(legName(l.Tpsl)[:1])+legName(l.Tpsl)[1:], v)
	}
	if res.Reward != nil {
		k.add("Reward", state.FormatPrice(*res.Reward, 2)+" USD at the take-profit")
	}
	if res.Risk != nil {
		k.add("Risk", state.FormatPrice(*res.Risk, 2)+" USD at the stop-loss")
	}
	for _, row := range co.PreviewRows() {
		k.add(row.Label, row.Value)
	}
	for _, w := range co.Warnings {
		k.add("Warning", w)
	}
	return k.write(r.env.Stdout)
}
