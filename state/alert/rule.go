package alert

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Kind is what a rule watches.
type Kind string

// The kinds of rule.
const (
	KindPrice   Kind = "price"   // an instrument's mark, last or mid price crosses a level
	KindMove    Kind = "move"    // an instrument's mark moves by more than a percentage within a window
	KindLiq     Kind = "liq"     // a position's distance to liquidation falls under a percentage
	KindMargin  Kind = "margin"  // the account's margin utilisation rises above a percentage
	KindFunding Kind = "funding" // an instrument's funding rate rises above or falls below a rate
	KindPayment Kind = "payment" // a funding payment (paid or received) above an amount, in USD
	KindOrder   Kind = "order"   // one of the account's orders fills, partly fills, is cancelled or triggers
	KindDown    Kind = "down"    // the stream or the exchange is down for longer than a number of seconds
)

// Op is a rule's direction.
type Op string

// The directions.
const (
	Above Op = ">"
	Below Op = "<"
)

// The order events a KindOrder rule names (Rule.Field).
const (
	EventFill    = "fill"    // any fill: filled or partly filled
	EventPartial = "partial" // a fill that leaves the order partly filled
	EventCancel  = "cancel"  // the order was cancelled
	EventTrigger = "trigger" // a trigger order fired
)

// What a KindDown rule watches (Rule.Field).
const (
	DownStream   = "stream"
	DownExchange = "exchange"
)

// RearmChecks is how many checks in a row a fired rule's value must stay on the quiet side of its
// threshold before it re-arms, when it has not come back by the rearm margin.
const RearmChecks = 5

// DefaultCooldown is the least time between two deliveries of one repeating rule.
const DefaultCooldown = time.Minute

// Rule is one alert definition.
type Rule struct {
	ID         string          // stable: derived from the definition (see Canon)
	Kind       Kind            //
	Instrument string          // as typed, upper case ("BTC"); "" for margin, down and any order
	Field      string          // price: mark|last|mid; order: an Event*; down: stream|exchange
	Op         Op              // Above or Below (order rules: "")
	Level      decimal.Decimal // price, percent (move, liq, margin), rate (funding), seconds (down)
	Window     time.Duration   // move: the window
	Once       bool            // one-shot: done once fired
	// Rearm is the margin, a fraction of |Level|, the value must come back past the threshold
	// by before the rule fires again (zero: the kind's default).
	Rearm    decimal.Decimal
	Cooldown time.Duration // zero: DefaultCooldown; negative: none
}

// Canon is the rule in the grammar, written the one way Parse reads back to the same rule.
func (r Rule) Canon() string {
	var b strings.Builder
	add := func(s string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	switch r.Kind {
	case KindPrice:
		add(r.Instrument)
		add(r.Field)
		add(string(r.Op))
		add(r.Level.String())
	case KindMove:
		add(r.Instrument)
		add("move > " + r.Level.String() + "% in " + shortDuration(r.Window))
	case KindLiq:
		add(r.Instrument + " liq < " + r.Level.String() + "%")
	case KindMargin:
		add("margin > " + r.Level.String() + "%")
	case KindFunding:
		add(r.Instrument + " funding " + string(r.Op) + " " + r.Level.Mul(hundred).String() + "%")
	case KindOrder:
		if r.Instrument != "" {
			add(r.Instrument)
		}
		add(r.Field)
	case KindPayment:
		if r.Instrument != "" {
			add(r.Instrument)
		}
		add("funding payment > " + r.Level.String())
	case KindDown:
		add(r.Field + " down > " + r.Level.String() + "s")
	}
	if r.Once {
		add("once")
	}
	if r.Rearm.IsPositive() {
		add("rearm " + r.Rearm.Mul(hundred).String() + "%")
	}
	if r.Cooldown != 0 {
		add("cooldown " + shortDuration(max(r.Cooldown, 0)))
	}
	return b.String()
}

// String is Canon.
func (r Rule) String() string { return r.Canon() }

// StableID is the id a rule's definition always gets: "al-" and 10 hex digits of its canonical
// text's hash, so the same rule seeded from the config on every start, or added twice, is one.
func StableID(r Rule) string {
	sum := sha256.Sum256([]byte(strings.ToLower(r.Canon())))
	return "al-" + hex.EncodeToString(sum[:5])
}

// shortDuration writes d as the grammar reads it: 90s, 5m, 2h.
func shortDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d%time.Hour == 0:
		return decimal.NewFromInt(int64(d/time.Hour)).String() + "h"
	case d%time.Minute == 0:
		return decimal.NewFromInt(int64(d/time.Minute)).String() + "m"
	}
	return decimal.NewFromInt(int64(d/time.Second)).String() + "s"
}

var hundred = decimal.NewFromInt(100)

// defaultRearm is each kind's rearm margin, a fraction of |Level|.
func defaultRearm(k Kind) decimal.Decimal {
	switch k {
	case KindPrice:
		return decimal.RequireFromString("0.001") // 0.1% of the level
	case KindDown:
		return decimal.RequireFromString("0.5")
	}
	return decimal.RequireFromString("0.1")
}
