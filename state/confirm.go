package state

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// ConfirmPolicy is which orders and cancels ask the trader to confirm before they are signed. The
// mass actions (cancel all, a transfer, a withdrawal, a leverage change) and every order with a
// fat-finger warning ask under every policy; the policy decides the rest.
type ConfirmPolicy string

const (
	// ConfirmRisky, the default, asks for market orders (a close is one), limit orders priced
	// through the book (they fill at once like a market order) or against a book not known,
	// trigger orders and brackets, and for every order the guard warns about; a limit order that
	// rests and a cancel of one order are sent on Enter, as in hlz.
	ConfirmRisky ConfirmPolicy = "risky"
	// ConfirmEvery asks for every order and every cancel.
	ConfirmEvery ConfirmPolicy = "every"
	// ConfirmWarned asks only for what the guard warns about: a market order or a close within
	// the guard's limits is sent on its key, as in hlz.
	ConfirmWarned ConfirmPolicy = "warned"
)

// ConfirmPolicies lists the policies in the order the config file's help gives them.
var ConfirmPolicies = []ConfirmPolicy{ConfirmRisky, ConfirmEvery, ConfirmWarned}

// ParseConfirmPolicy reads a policy's name ("" is the default, ConfirmRisky).
func ParseConfirmPolicy(s string) (ConfirmPolicy, error) {
	if s == "" {
		return ConfirmRisky, nil
	}
	for _, p := range ConfirmPolicies {
		if strings.EqualFold(s, string(p)) {
			return p, nil
		}
	}
	names := make([]string, len(ConfirmPolicies))
	for i, p := range ConfirmPolicies {
		names[i] = string(p)
	}
	return "", fmt.Errorf("confirm = %s: want one of %s", text.Quote(s), strings.Join(names, ", "))
}

// asksOrder reports whether the checked order c asks for a confirmation under p.
func (p ConfirmPolicy) asksOrder(c CheckedOrder) bool {
	if c.NeedsTypedConfirm || len(c.Warnings) > 0 {
		return true
	}
	switch p {
	case ConfirmEvery:
		return true
	case ConfirmWarned:
		return false
	}
	return c.Wire.IsMarket || c.Wire.TriggerPx != "" || !c.Rests
}

// asksBracket reports whether an entry with take-profit and stop-loss legs asks for a
// confirmation under p: the legs are trigger orders, so every policy but ConfirmWarned asks.
func (p ConfirmPolicy) asksBracket(entry CheckedOrder) bool {
	return p != ConfirmWarned || entry.NeedsConfirm
}

// AsksCancel reports whether cancelling one order asks for a confirmation under p: only under
// ConfirmEvery (a cancel is safe to repeat, and the console names the order it cancelled).
func (p ConfirmPolicy) AsksCancel() bool { return p == ConfirmEvery }
