package headless

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

func modifyFlags(fs *flagSet, o *opts) {
	fs.text(&o.oid, "oid", "N", "exchange order id of the resting limit order to move")
	fs.text(&o.price, "price", "PX", "the new limit price (default: the order's own)")
	fs.text(&o.size, "size", "N", "the new size (default: what is left of the order)")
	fs.text(&o.cloid, "cloid", "ID", "client order id of the replacement (a UUID; default: a new one)")
	fs.BoolVar(&o.yes, "yes", false, "send a replacement the fat-finger guard flags")
}

func init() {
	register(&command{name: "modify", trades: true, groups: gAgentTrade, flags: modifyFlags, run: runModify,
		usage:   "--oid N [--price PX] [--size N] [--cloid ID] [--yes]",
		summary: "Move a resting limit order: cancel it, and only once it is gone with nothing filled meanwhile place the replacement (never two live orders)."})
}

// modifyJSON is modify's JSON output.
type modifyJSON struct {
	Outcome   string      `json:"outcome"`
	OldOid    api.OrderID `json:"old_oid"`
	Cancelled bool        `json:"cancelled"`
	OldFilled bool        `json:"old_filled,omitempty"`
	Placed    bool        `json:"placed"`
	Oid       api.OrderID `json:"oid,omitempty"`
	Cloid     string      `json:"cloid,omitempty"`
	Status    string      `json:"status,omitempty"`
	Stopped   string      `json:"stopped,omitempty"`
}

func runModify(ctx context.Context, r *runner) error {
	oid, err := strconv.ParseUint(strings.TrimSpace(r.o.oid), 10, 64)
	if err != nil || oid == 0 {
		return usagef("--oid N is required: the exchange order id to move (a whole number; `tradedesk orders` lists them)")
	}
	if strings.TrimSpace(r.o.price) == "" && strings.TrimSpace(r.o.size) == "" {
		return usagef("give --price PX, --size N or both: what to change")
	}
	cloid := r.o.cloid
	if cloid == "" {
		cloid = state.NewCloid()
	} else if err := api.CheckCloid(cloid); err != nil {
		return usagef("--cloid: %v", err)
	}
	old, err := r.openOrder(ctx, api.OrderID(oid))
	if err != nil {
		return err
	}
	if why := exec.NotMovable(old); why != "" {
		return fmt.Errorf("order %d not moved, nothing sent: %s", oid, why)
	}
	in := exec.MoveIntent(old, strings.TrimSpace(r.o.price), strings.TrimSpace(r.o.size), cloid)
	if err := formUsage(in.FormErrors()); err != nil {
		return err
	}
	st, err := r.orderStore(ctx, old.Instrument)
	if err != nil {
		return err
	}
	c, errs := exec.Check(st, in, r.o.conn.guard())
	if len(errs) > 0 {
		return refused(errs)
	}
	co := c.Order()
	if co.Wire.Price == old.LimitPrice.String() && co.Size.Equal(old.Unfilled) {
		return usagef("order %d not moved: the price and size are those it has", oid)
	}
	if err := r.unconfirmed(co, "replacement", "move it"); err != nil {
		return err
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	what := fmt.Sprintf("move order %d to %s", oid, orderWords(st, co))
	out, err := e.Modify(ctx, old, c, exec.Ask{Who: journal.WhoHeadless, What: what, Confirmed: r.o.yes})
	if err != nil {
		return err
	}
	return r.modified(out, old, co, what)
}

// modified prints a move and exits as it ended.
func (r *runner) modified(out exec.ModifyResult, old api.OrderRecord, co state.CheckedOrder, what string) error {
	res := modifyJSON{OldOid: old.OrderID, Cancelled: out.Cancel.Kind == exec.Cancelled, OldFilled: out.OldFilled, Stopped: text.Clean(out.Stopped)}
	var fail error
	switch {
	case out.Stopped != "" && out.Cancel.Kind == exec.Unknown:
		fail = withExit(ExitUnknown, errors.New(res.Stopped))
	case out.Stopped != "" && !res.Cancelled && !out.OldFilled:
		fail = withExit(ExitRejected, errors.New(res.Stopped))
	case out.Stopped != "":
		fail = errors.New(res.Stopped)
	case out.Place != nil:
		p := *out.Place
		res.Placed, res.Oid, res.Cloid, res.Status = p.Kind != exec.Refused && p.Kind != exec.Rejected && p.Kind != exec.NotPlaced && p.Kind != exec.Unknown, p.Outcome.Oid, p.Cloid, p.Kind.String()
		if err := orderFailed(p); err != nil {
			fail = fmt.Errorf("order %d cancelled, but the replacement: %w", old.OrderID, err)
		}
	}
	res.Outcome = OutcomeWord(ExitOK)
	if fail != nil {
		res.Outcome = OutcomeWord(exitCode(fail))
	}
	if r.o.json {
		r.jsonDone = true
		if err := writeJSON(r.env.Stdout, res); err != nil {
			return err
		}
		return fail
	}
	if fail == nil {
		if _, err := fmt.Fprintf(r.env.Stdout, "%s: order %d cancelled; placed order %d %s (client id %s)\n", what, old.OrderID, res.Oid, res.Status, co.Wire.Cloid); err != nil {
			return err
		}
	}
	return fail
}

// openOrder is the account's open order oid.
func (r *runner) openOrder(ctx context.Context, oid api.OrderID) (api.OrderRecord, error) {
	user := r.client.Address()
	open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.client.OpenOrders(ctx, user, p)
	}, 0, nil)
	if err != nil {
		return api.OrderRecord{}, err
	}
	for _, o := range open {
		if o.OrderID == oid {
			return o, nil
		}
	}
	return api.OrderRecord{}, fmt.Errorf("order %d is not open (filled, cancelled, or not this account's): nothing sent; `tradedesk orders` lists the open ones", oid)
}
