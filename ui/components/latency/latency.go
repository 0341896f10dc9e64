// Package latency is the `:latency` view: the p50, p95 and p99 of each leg of an order's route
// (keystroke -> signed -> the exchange's answer -> the first streamed record -> on screen) and of
// the whole, over the orders sent from a keystroke this session, measured on the console's clock
// (state/report.LatencyOf). Each order's route is also kept in the journal.
package latency

import (
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/state/report"
	"github.com/tradedesk/tradedesk/ui/common"
)

// View is the latency view over the panes; it takes the keys while open.
type View struct {
	st      *common.Styles
	keys    *common.KeyMap
	l       report.Latency
	pending int
	note    string
	scroll  int
}

// New is the view of the session's complete routes; pending counts those still on their way
// (sent, not yet on screen); note says why routes cannot complete ("" when they can: no stream).
func New(st *common.Styles, keys *common.KeyMap, routes []record.Route, pending int, note string) *View {
	return &View{st: st, keys: keys, l: report.LatencyOf(routes), pending: pending, note: note}
}

// Latency is the spread shown (tests).
func (v *View) Latency() report.Latency { return v.l }

// Update implements the root's overlay: the view has no messages of its own.
func (v *View) Update(tea.Msg) tea.Cmd { return nil }

// Key handles a key: dismiss (or quit, or Enter) closes.
func (v *View) Key(msg tea.KeyMsg) (tea.Cmd, bool) {
	return nil, key.Matches(msg, v.keys.Dismiss, v.keys.Quit, v.keys.Pick)
}

// View draws the view in at most w x h cells.
func (v *View) View(w, h int) string {
	n := v.l.Whole.N
	head := []string{v.st.Bold.On("LATENCY · keystroke to screen, this session"), ""}
	var body []string
	if n == 0 {
		body = append(body, v.st.Muted.On("no order has gone from a keystroke to the screen yet this session"))
	} else {
		body = append(body, v.st.Header.On(common.Pad("Leg", 22)+cell("p50")+cell("p95")+cell("p99")))
		for i, s := range v.l.Legs {
			body = append(body, common.Pad(report.LegNames[i], 22)+cell(ms(s.P50))+cell(ms(s.P95))+cell(ms(s.P99)))
		}
		w := v.l.Whole
		body = append(body, v.st.Bold.On(common.Pad("keystroke → screen", 22)+cell(ms(w.P50))+cell(ms(w.P95))+cell(ms(w.P99))))
	}
	orders := strconv.Itoa(n) + " orders measured"
	if n == 1 {
		orders = "1 order measured"
	}
	body = append(body, "", v.st.Muted.On(orders+pendingText(v.pending)+" · the legs add up to the whole"),
		v.st.Muted.On("answer → stream is negative when the stream came first"))
	if v.note != "" {
		body = append(body, v.st.Warn.On(v.note))
	}
	foot := []string{"", v.st.Muted.On(common.KeyName(v.keys.Dismiss) + " close")}
	return common.Box(v.st, v.keys, head, body, foot, w, h, &v.scroll)
}

func pendingText(n int) string {
	if n == 0 {
		return ""
	}
	return ", " + strconv.Itoa(n) + " on their way"
}

// cell right-aligns a figure in its column.
func cell(s string) string { return common.Fit(s, 11, true) }

// ms is a duration in milliseconds to the tenth ("12.3 ms").
func ms(d time.Duration) string {
	return decimal.NewFromInt(d.Microseconds()).Shift(-3).StringFixed(1) + " ms"
}
