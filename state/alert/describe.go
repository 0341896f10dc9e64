package alert

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
)

// describe is an alert in one line ("BTC-PERP mark 100,012.5 > 100,000").
func describe(ev Event, r Rule) string {
	switch r.Kind {
	case KindPrice:
		return fmt.Sprintf("%s %s %s %s %s", ev.Instrument, r.Field, ev.Value, r.Op, ev.Threshold)
	case KindMove:
		return fmt.Sprintf("%s moved %s%% within %s (> %s%%)", ev.Instrument, ev.Value, shortDuration(r.Window), ev.Threshold)
	case KindLiq:
		return fmt.Sprintf("%s liquidation %s%% away (< %s%%; %s price)", ev.Instrument, ev.Value, ev.Threshold, ev.Source)
	case KindMargin:
		return fmt.Sprintf("margin utilisation %s%% (> %s%%)", ev.Value, ev.Threshold)
	case KindFunding:
		return fmt.Sprintf("%s funding %s %s %s", ev.Instrument, ev.Value, r.Op, ev.Threshold)
	case KindPayment:
		return fmt.Sprintf("%s funding payment %s USD (beyond %s)", ev.Instrument, ev.Value, ev.Threshold)
	case KindDown:
		return fmt.Sprintf("%s down %ss (> %ss)", r.Field, ev.Value, ev.Threshold)
	}
	return text.Clean(ev.Rule)
}

func describeOrder(ev string, x Event) string {
	word := map[string]string{EventFill: "filled", EventPartial: "partly filled", EventCancel: "cancelled",
		EventTrigger: "triggered"}[ev]
	return fmt.Sprintf("%s order %s: %s @ %s", x.Instrument, word, x.Value, x.Threshold)
}

func decimalOrZero(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return d
}

// Summary is a burst of alerts in one line: the one alert's text, or "3 alerts: " and the first
// texts. Every event is still delivered on its own; this is what the bell and the status line
// and the desktop say once.
func Summary(evs []Event) string {
	switch len(evs) {
	case 0:
		return ""
	case 1:
		return evs[0].Text
	}
	parts := make([]string, 0, 3)
	for _, ev := range evs[:min(len(evs), 3)] {
		parts = append(parts, ev.Text)
	}
	more := ""
	if len(evs) > 3 {
		more = "; …"
	}
	return fmt.Sprintf("%d alerts: %s%s", len(evs), strings.Join(parts, "; "), more)
}
