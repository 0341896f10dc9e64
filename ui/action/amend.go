package action

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// An amend moves a resting order: it cancels the order, and only once the exchange says the old
// order is gone (cancelled, not filled) places the replacement with a new client id. The two steps
// are one action (at most one confirmation, one line in the status bar, the order lane held throughout),
// so there are never two live orders by accident: when the cancel's answer is lost or unclear, the
// old order's fate is looked up (by its client id, or its id in the open orders and history)
// before anything is placed, and a lost answer to the placement is looked up by the new client id.

// NewAmend builds the cancel-and-replace of old by the checked replacement, confirmed when the
// guard's policy asks for the replacement (repl.NeedsConfirm).
func NewAmend(old api.OrderRecord, repl state.CheckedOrder, st *common.Styles) *Action {
	w, in := repl.Wire, repl.Instrument
	oldPx, oldSz := in.PriceText(old.LimitPrice), in.SizeText(old.Unfilled)
	newPx, newSz := in.PriceText(repl.Price), in.SizeText(repl.Size)
	what := fmt.Sprintf("move %s %s %s from %s to %s (order %d)", state.SideText(old.Side), oldSz, old.Instrument, oldPx, newPx, old.OrderID)
	if !repl.Size.Equal(old.Unfilled) {
		what = fmt.Sprintf("change %s %s %s @ %s to %s @ %s (order %d)", state.SideText(old.Side), oldSz, old.Instrument, oldPx, newSz, newPx, old.OrderID)
	}
	lines := []string{
		st.Bold.On("MOVE ORDER " + fmt.Sprint(old.OrderID)),
		"",
		"Instrument   " + old.Instrument,
		"Side         " + common.SidePaint(st, old.Side).On(state.SideText(old.Side)),
		"Price        " + oldPx + " → " + newPx,
		"Size         " + oldSz + " → " + newSz,
	}
	if rows := repl.PreviewRows(); len(rows) > 0 {
		lines = append(lines, "")
		for _, r := range rows {
			lines = append(lines, common.Pad(r.Label, 13)+r.Value)
		}
	}
	lines = append(lines, "", "The order is cancelled first; the new one (client id "+w.Cloid+") is placed only once the old one is gone, never both.")
	if s := CrossesText(repl); s != "" {
		lines = append(lines, st.Warn.On("! "+s))
	}
	for _, warn := range repl.Warnings {
		lines = append(lines, st.Warn.On("! "+warn))
	}
	c := api.CancelOid{Oid: old.OrderID, InstrumentID: old.InstrumentID}
	a := &Action{Kind: KindAmend, Title: "Move order", Lines: lines, What: what, Confirm: repl.NeedsConfirm, Order: repl, Amend: old,
		Cancel: c, Lane: LaneOrder, Refresh: tradeKinds,
		Run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return t.CancelByOid(ctx, []api.CancelOid{c})
		},
		Read:     func(d DoneMsg) (string, bool) { return d.Act.What + ": not finished", true },
		FollowUp: amendRest,
	}
	if repl.NeedsTypedConfirm {
		a.Typed = "yes"
	}
	return a
}

// AmendOf moves old to price and size (size "" keeps its unfilled size) through the one order
// check, with a new client id: the action to request, or the problems in words.
func AmendOf(store *state.Store, g state.Guard, st *common.Styles, old api.OrderRecord, price, size string) (*Action, string) {
	if why := notMovable(old); why != "" {
		return nil, "order not moved: " + why
	}
	recheck := amendRecheck(store, g, st, old.OrderID, price, size)
	if size == "" {
		size = old.Unfilled.String()
	}
	tif := old.Tif
	if tif == "" {
		tif = api.TifGTC
	}
	in := state.OrderIntent{Instrument: old.Instrument, Side: old.Side, Type: state.Limit, Price: price, Size: size, Tif: tif,
		ReduceOnly: old.ReduceOnly, PostOnly: old.PostOnly, Cloid: state.NewCloid()}
	checked, errs := store.CheckOrder(in, g)
	if len(errs) > 0 {
		return nil, "order not moved: " + common.JoinFieldErrors(errs)
	}
	if checked.Wire.Price == old.LimitPrice.String() && checked.Size.Equal(old.Unfilled) {
		return nil, "order not moved: the price and size are those it has"
	}
	a := NewAmend(old, checked, st)
	a.Recheck = recheck
	return a, ""
}

// amendRecheck is the Recheck of a move of order oid to price and size ("": its unfilled size):
// the order as the store holds it now (partly filled since, or gone) moved again.
func amendRecheck(store *state.Store, g state.Guard, st *common.Styles, oid api.OrderID, price, size string) func() (*Action, string) {
	return func() (*Action, string) {
		for _, o := range store.Orders() {
			if o.OrderID == oid {
				return AmendOf(store, g, st, o, price, size)
			}
		}
		return nil, fmt.Sprintf("order not moved: order %d is no longer open", oid)
	}
}

// notMovable says why an order cannot be moved by cancel-and-replace, or "". The replacement is a
// plain limit order: a trigger would lose its trigger, and a bracket's entry, cancelled, takes its
// take-profit and stop-loss with it (the exchange ties them to the entry, not to the new order).
func notMovable(old api.OrderRecord) string {
	switch {
	case !old.RestingLimit():
		return "only a resting limit order can be moved"
	case old.Grouping == api.GroupingNormal:
		return "it is a bracket's entry, and cancelling it cancels its take-profit and stop-loss too; cancel it and place a new bracket"
	}
	return ""
}

// amendDoneMsg is how an amend ended, in words.
type amendDoneMsg struct {
	act   *Action
	text  string
	level common.NoticeLevel
}

// Settled implements FollowUpMsg.
func (m amendDoneMsg) Settled() (*Action, string, common.NoticeLevel) { return m.act, m.text, m.level }

// amendRest is the amend's second half, after the cancel's answer (or its loss): find out that
// the old order is gone, then place the replacement.
func amendRest(ex api.Exchange, d DoneMsg, timeout time.Duration) (tea.Cmd, string) {
	a := d.Act
	why := cancelFailure(d)
	waiting := a.What + ": old order cancelled, placing the new one…"
	if why != "" {
		waiting = a.What + ": cancel " + why + ": checking order " + fmt.Sprint(a.Amend.OrderID) + " before placing anything…"
	}
	return func() tea.Msg {
		text, level := finishAmend(ex, a, why, timeout)
		return amendDoneMsg{act: a, text: text, level: level}
	}, waiting
}

// finishAmend places the replacement once the old order is known to be gone.
func finishAmend(ex api.Exchange, a *Action, why string, timeout time.Duration) (string, common.NoticeLevel) {
	old := a.Amend
	if why != "" {
		fate, err := oldOrderFate(ex, old, timeout)
		switch {
		case err != nil:
			return fmt.Sprintf("%s stopped: the cancel is unclear (%s) and order %d could not be looked up (%s); nothing placed: check open orders", a.What, why, old.OrderID, common.PlainError(err)), common.LevelError
		case fate == api.StateOpen || fate == "":
			return fmt.Sprintf("%s stopped: the cancel failed (%s); order %d is still open at %s; nothing placed", a.What, why, old.OrderID, a.Order.Instrument.PriceText(old.LimitPrice)), common.LevelError
		case fate == api.StateFilled:
			return fmt.Sprintf("order %d filled before it could be moved: nothing placed", old.OrderID), common.LevelWarn
		}
		slog.Info("amend: old order gone after an unclear cancel", "oid", uint64(old.OrderID), "state", fate)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resp, err := ex.PlaceOrders(ctx, []api.OrderWire{a.Order.Wire})
	if api.IsAmbiguous(err) {
		return lostReplacement(ex, a, timeout)
	}
	if err != nil {
		return fmt.Sprintf("%s: the old order is cancelled but the new one failed: %s", a.What, common.PlainError(err)), common.LevelError
	}
	text, failed := orderOutcomeText(state.OrderOutcome(resp, a.Order.Size), a)
	if failed {
		return "the old order is cancelled; " + text, common.LevelError
	}
	return text, common.LevelInfo
}

// lostReplacement looks the replacement up by its client id after its answer was lost.
func lostReplacement(ex api.Exchange, a *Action, timeout time.Duration) (string, common.NoticeLevel) {
	cloid := a.Order.Wire.Cloid
	found, err := retried("replacement "+cloid, func() (*api.OrderRecord, error) { return findCloid(ex, cloid, timeout) })
	switch {
	case err != nil:
		return fmt.Sprintf("the old order is cancelled; the new one's answer was lost and the lookup failed (%s): check open orders for client id %s", common.PlainError(err), cloid), common.LevelError
	case found == nil:
		return "the old order is cancelled; the new one's answer was lost and client id " + cloid + " is not at the exchange: it was NOT placed", common.LevelWarn
	}
	return fmt.Sprintf("answer lost, but the exchange has it: order %d (%s) is %s", found.OrderID, a.What, found.State), common.LevelWarn
}

// oldOrderFate is the old order's state at the exchange: open, filled, cancelled... (tried a few
// times). By client id when it has one, else by id in the open orders and the first page of
// history; an order in neither is taken as gone only when the open orders were read.
func oldOrderFate(ex api.Exchange, old api.OrderRecord, timeout time.Duration) (string, error) {
	return retried(fmt.Sprint("old order ", old.OrderID), func() (string, error) { return fateOnce(ex, old, timeout) })
}

func fateOnce(ex api.Exchange, old api.OrderRecord, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*timeout)
	defer cancel()
	if old.Cloid != "" {
		found, err := api.FindCloid(ctx, ex, ex.Address(), old.Cloid)
		if err != nil {
			return "", err
		}
		if found == nil {
			return api.StateCancelled, nil
		}
		return found.State, nil
	}
	open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return ex.OpenOrders(ctx, ex.Address(), p)
	}, 0, nil)
	if err != nil {
		return "", err
	}
	if holds(open, old.OrderID) {
		return api.StateOpen, nil
	}
	if pg, err := ex.OrderHistory(ctx, ex.Address(), api.PageParams{Page: 1}); err == nil {
		for _, o := range pg.Data {
			if o.OrderID == old.OrderID {
				return o.State, nil
			}
		}
	}
	return "gone", nil
}
