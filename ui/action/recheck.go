package action

import (
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The second check on Enter (issue #31 #6): a confirmation is built when it opens, and the market
// and the account move while it is read. On Enter the action's Recheck builds it again from the
// store as it stands; when what the trader confirmed moved (state.CheckedOrder.Moved), or the
// confirmation is older than state.ReviewMaxAge, the refreshed one is shown and asked again
// instead of sending, saying why; when it no longer passes, nothing is sent.

// Again is the outcome of the second check on Enter.
type Again struct {
	// Send: nothing moved; the action confirmed goes as it is.
	Send bool
	// Fresh is the action built again, to confirm again, and Why says why it is asked again.
	Fresh *Action
	Why   string
	// Refused says why the action no longer passes (nothing is sent).
	Refused string
}

// CheckAgain is the second check of a, confirmed at now in a confirmation opened at opened (both
// from the console's clock). An action without Recheck (a cancel, a transfer) is sent.
func CheckAgain(a *Action, opened, now time.Time) Again {
	if a.Recheck == nil {
		return Again{Send: true}
	}
	fresh, refused := a.Recheck()
	if refused != "" {
		return Again{Refused: refused}
	}
	fresh.Recheck, fresh.Confirm = a.Recheck, true
	why := Moved(a, fresh)
	if age := now.Sub(opened); age > state.ReviewMaxAge {
		why = append(why, "it was open "+common.FmtAge(age)+", over "+common.FmtAge(state.ReviewMaxAge))
	}
	if len(why) == 0 {
		return Again{Send: true}
	}
	return Again{Fresh: fresh, Why: "not sent, checked again: " + strings.Join(why, "; ") + ". Check it and confirm again."}
}

// Moved says what changed between a, as its confirmation shows it, and fresh, the same action
// built again: nil when nothing the trader confirmed moved.
func Moved(a, fresh *Action) []string {
	switch {
	case a.Kind == KindPositionTpsl:
		return a.Tpsl.Moved(fresh.Tpsl)
	case a.Leverage.Instrument.Name != "":
		return a.Leverage.Moved(fresh.Leverage)
	}
	if len(a.Bracket.Wires) > 0 && len(fresh.Bracket.Wires) > 0 {
		return a.Bracket.Moved(fresh.Bracket)
	}
	return a.Order.Moved(fresh.Order)
}

// RecheckOrder is the Recheck of an order of kind KindPlace or KindClose from b's entry intent (a
// bracket when b has legs): the same intent, client id included, checked again with g.
func RecheckOrder(store *state.Store, g state.Guard, st *common.Styles, kind Kind, b state.BracketIntent) func() (*Action, string) {
	return func() (*Action, string) {
		if !b.HasLegs() {
			c, errs := store.CheckOrder(b.Entry, g)
			if len(errs) > 0 {
				return nil, "order not sent: " + common.JoinFieldErrors(errs)
			}
			return NewOrder(kind, c, st), ""
		}
		cb, errs := store.CheckBracket(b, g)
		if len(errs) > 0 {
			return nil, "order not sent: " + common.JoinFieldErrors(errs)
		}
		return NewBracket(cb, st), ""
	}
}
