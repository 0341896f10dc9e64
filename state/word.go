package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// Record wording: how a side, an order's type, its flags and a record's time are written. The
// panes, the confirmations, the headless tables and the exports all word records from here, so
// one order reads the same everywhere.

// SideText is "buy" or "sell"; a side the exchange should not send is "?".
func SideText(side string) string {
	switch side {
	case api.SideBuy:
		return "buy"
	case api.SideSell:
		return "sell"
	}
	return "?"
}

// directionWords spell out a fill's direction.
var directionWords = map[string]string{
	api.DirOpenLong: "open long", api.DirOpenShort: "open short",
	api.DirCloseLong: "close long", api.DirCloseShort: "close short",
}

// DirectionText spells out a fill's direction: "open long", "close short"; another value is
// returned as the exchange sent it.
func DirectionText(d string) string {
	if w, ok := directionWords[d]; ok {
		return w
	}
	return d
}

// triggerWords names the trigger kinds: short (tables, exports) and in full (confirmations).
var triggerWords = map[string][2]string{
	api.TpslTakeProfit: {"tp", "take profit"},
	api.TpslStopLoss:   {"sl", "stop loss"},
}

// executionText is how an order executes: "market" or "limit".
func executionText(isMarket bool) string {
	if isMarket {
		return "market"
	}
	return "limit"
}

// OrderTypeText names an order's type: "limit", "market", or a trigger's kind and how it then
// executes: "tp limit", "sl market".
func OrderTypeText(tpsl string, isMarket bool) string {
	if w, ok := triggerWords[tpsl]; ok {
		return w[0] + " " + executionText(isMarket)
	}
	return executionText(isMarket)
}

// OrderTypeLong is OrderTypeText in full words, for a confirmation: "stop loss (trigger), market".
func OrderTypeLong(tpsl string, isMarket bool) string {
	if w, ok := triggerWords[tpsl]; ok {
		return w[1] + " (trigger), " + executionText(isMarket)
	}
	return executionText(isMarket)
}

// RecordTypeText is an order record's type with its trigger price at in's tick: "sl market
// @3,300.0", "limit".
func RecordTypeText(o *api.OrderRecord, in Instrument) string {
	return OrderTypeText(o.Tpsl, o.IsMarket) + triggerSuffix(o, in)
}

// RecordTypeShort is RecordTypeText for a narrow column beside the price: a trigger order is its
// kind and trigger price ("sl @3,300.0"), its execution being in the price column ("market").
func RecordTypeShort(o *api.OrderRecord, in Instrument) string {
	if w, ok := triggerWords[o.Tpsl]; ok {
		return w[0] + triggerSuffix(o, in)
	}
	return executionText(o.IsMarket)
}

func triggerSuffix(o *api.OrderRecord, in Instrument) string {
	if o.TriggerPx.Valid && o.TriggerPx.Decimal.IsPositive() {
		return " @" + in.PriceText(o.TriggerPx.Decimal)
	}
	return ""
}

// RecordText is an open order in words, in the one number style: "buy 0.1000 BTC-PERP @
// 97,000.0", "sell 25.00 SOL-PERP market sl @179.830" (the status line's and a confirmation's).
func RecordText(o *api.OrderRecord, in Instrument) string {
	s := SideText(o.Side) + " " + in.SizeText(o.Unfilled) + " " + o.Instrument + " "
	if o.IsMarket {
		s += "market"
	} else {
		s += "@ " + in.PriceText(o.LimitPrice)
	}
	if w, ok := triggerWords[o.Tpsl]; ok {
		s += " " + w[0] + triggerSuffix(o, in)
	}
	return s
}

// orderFlags are the order flags in their one order, in words and abbreviated.
var orderFlags = [...]struct{ long, short string }{{"reduce-only", "RO"}, {"post-only", "PO"}}

// FlagTexts are an order's flags in words: reduce-only, post-only (nil for none).
func FlagTexts(reduceOnly, postOnly bool) []string { return flagWords(reduceOnly, postOnly, false) }

// FlagAbbrevs are FlagTexts abbreviated for a narrow column: RO, PO.
func FlagAbbrevs(reduceOnly, postOnly bool) []string { return flagWords(reduceOnly, postOnly, true) }

func flagWords(reduceOnly, postOnly, short bool) []string {
	var out []string
	for i, on := range [...]bool{reduceOnly, postOnly} {
		if !on {
			continue
		}
		if short {
			out = append(out, orderFlags[i].short)
		} else {
			out = append(out, orderFlags[i].long)
		}
	}
	return out
}

// The layouts record times are written in, always in UTC.
const (
	// TimeShort is a pane's row time: "03-02 09:15:04".
	TimeShort = "01-02 15:04:05"
	// TimeFull is a table's time: "2026-03-02 09:15:04".
	TimeFull = "2006-01-02 15:04:05"
	// TimeMinute is a setting's time, to the minute: "2026-03-02 09:15".
	TimeMinute = "2006-01-02 15:04"
	// TimeExport is an export's time, RFC 3339 with milliseconds: "2026-03-02T09:15:04.000Z".
	TimeExport = "2006-01-02T15:04:05.000Z07:00"
)

// TimeText writes t in UTC in one of the layouts above; the zero time is "".
func TimeText(t time.Time, layout string) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(layout)
}

// PartlyFilled is the state word of an order that filled in part and whose rest was cancelled.
const PartlyFilled = "partly filled"

// RecordStateText is an order record's state as the history says it: the exchange's word, except
// that a cancelled order which filled in part says so with the size that filled ("partly filled
// 29.249"): the rest was cancelled, but it is not an order that did nothing.
func RecordStateText(o *api.OrderRecord, in Instrument) string {
	if filled := o.Size.Sub(o.Unfilled); o.State == api.StateCancelled && filled.IsPositive() && o.Unfilled.IsPositive() {
		return PartlyFilled + " " + in.SizeText(filled)
	}
	return o.State
}
