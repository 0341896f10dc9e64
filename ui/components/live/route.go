// Package live is a shadow console's live session: the send_live key sends a rehearsed paper
// order (Route.Order) or algorithm (Route.AlgoAction) again as a new one, confirmed with a typed
// yes, signed by the live executor on the live network's journal (never the shadow's). The root
// feeds it values: the route main gives it, the store, the styles, the live session's runner.
package live

import (
	"context"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Route is the live session of a shadow console: an executor on the live exchange, signing
// with the trader's key, on the live network's journal (never the shadow's). The send_live key
// sends a rehearsed paper order's parameters through it, never its client id or journal entry.
type Route struct {
	// Exec is the live executor (nil: no key was given, Missing says what to set).
	Exec *exec.Executor
	// Ex is the live exchange, signing with the same key: the live session's algorithms read
	// its market and account (nil: its algorithms cannot be started).
	Ex api.Exchange
	// Network is the live network ("mainnet"), named in the confirmation's title.
	Network string
	// Missing says how to give the console a live session when Exec is nil.
	Missing string
}

// Title starts the title of every order the send_live key confirms: the dialog says LIVE, and
// the shadow badge is not added to it (IsLive).
const Title = "Send LIVE"

// IsLive reports whether a is an order for the live session of a shadow console.
func IsLive(a *action.Action) bool { return strings.HasPrefix(a.Title, Title) }

// NoKey is the notice of a send_live key on a shadow console with no live session.
func (r Route) NoKey() string {
	why := r.Missing
	if why == "" {
		why = "start tradedesk --shadow with --keystore FILE (or --agent-keystore FILE) to hold a live session beside the paper one"
	}
	return "not sent live: no live key; " + why
}

// Order is the live action of a paper order o: its instrument, side, type, price, size, time in
// force and flags as a new intent (a fresh client id), checked with the live executor's guard on
// the market store holds (the mirror's), confirmed with a typed yes, run by the live executor.
// nil and why when the check refuses it.
func (r Route) Order(o api.OrderRecord, store *state.Store, st *common.Styles) (*action.Action, string) {
	in := state.OrderIntent{Instrument: o.Instrument, Side: o.Side, Type: state.Limit, Price: o.LimitPrice.String(),
		Size: o.Size.String(), Tif: o.Tif, ReduceOnly: o.ReduceOnly, PostOnly: o.PostOnly}
	switch {
	case o.TriggerPx.Valid && o.TriggerPx.Decimal.IsPositive():
		in.Type, in.TriggerPx, in.Tpsl = state.Trigger, o.TriggerPx.Decimal.String(), o.Tpsl
		if o.IsMarket {
			in.Price = ""
		}
	case o.IsMarket:
		in.Type, in.Price = state.Market, ""
	}
	live := r.Exec
	co, errs := store.CheckOrder(in, live.Guard())
	if len(errs) > 0 {
		return nil, errs[0].Error()
	}
	a := action.NewOrder(action.KindPlace, co, st)
	a.What = "LIVE " + a.What
	a.Confirm, a.Typed, a.Recheck = true, "yes", nil
	net := strings.ToUpper(r.Network)
	a.Title = Title + " · " + a.Title + " · LIVE " + net
	a.Lines = append([]string{st.Bold.On(strings.ToUpper(a.What)), st.Warn.On("! sent to " + net + " with your live key, in the live journal")},
		a.Lines[1:]...)
	a.Lines = append(a.Lines, st.Warn.On("! margin rows are the paper account's: the live exchange checks its own"))
	run := a.Run
	a.Run = func(ctx context.Context, _ action.Executor, ask exec.Ask) (action.Outcome, error) {
		return run(ctx, live, ask) // never the shadow's executor: its journal and key are paper
	}
	return a, ""
}
