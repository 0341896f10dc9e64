package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/kit"
)

// actionKind is what a trading action does (its payload below, and how its answer is read).
type actionKind int

const (
	actPlace actionKind = iota
	actClose
	actCancel
	actCancelInstrument
	actCancelAll
	actTransfer
)

// action is one signed action a pane asks the root model to run through the pipeline
// (pipeline.go): how it is confirmed, how it runs against api.Trader, and how its answer is read.
type action struct {
	kind    actionKind
	title   string   // the confirmation's title
	lines   []string // the confirmation's body
	what    string   // one line for the status bar and the log ("buy 0.5 BTC-PERP @ 50,000")
	confirm bool
	typed   string // a word the trader must type to confirm ("" for Enter alone)

	lane    lane
	run     func(ctx context.Context, t api.Trader) (api.TxResponse, error)
	read    func(d actionDoneMsg) (text string, failed bool)
	refresh []state.Kind // polled at once when it is settled
	// followUp, when the answer needs finding out, returns the command that finds it out (its
	// message is a followUpMsg) and the status line's words meanwhile; nil otherwise.
	followUp func(ex api.Exchange, d actionDoneMsg, timeout time.Duration) (cmd tea.Cmd, waiting string)

	order      state.CheckedOrder
	cancel     api.CancelOid
	instrument api.InstrumentID
	movement   funds.Checked
}

// readOnlyNotice explains why a trading key does nothing.
func readOnlyNotice(reason, what string) tea.Cmd {
	return kit.Notice(kit.LevelWarn, "read-only: cannot "+what+" ("+reason+")")
}

func joinFieldErrors(errs []state.FieldError) string {
	parts := make([]string, 0, len(errs))
	for _, e := range errs {
		s := e.Field + ": " + e.Msg
		if e.Suggest != "" && !strings.Contains(e.Msg, e.Suggest) {
			s += " (try " + e.Suggest + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// orderAction builds the confirmation of a checked order: the whole order, its preview and the
// fat-finger warnings.
func orderAction(kind actionKind, c state.CheckedOrder, st *kit.Styles) *action {
	w := c.Wire
	title := "Place order"
	if kind == actClose {
		title = "Close position"
	}
	what := orderWhat(c)
	lines := []string{
		st.Bold.On(strings.ToUpper(what)),
		"",
		"Instrument   " + c.Instrument.Name,
		"Side         " + sidePaint(st, w.Side).On(strings.ToUpper(state.SideText(w.Side))),
		"Type         " + state.OrderTypeLong(w.Tpsl, w.IsMarket),
		"Price        " + priceText(w),
		"Size         " + w.Size,
		"In force     " + strings.Join(append([]string{w.Tif}, state.FlagTexts(w.ReduceOnly, w.PostOnly)...), ", "),
		"",
		"Notional     " + kit.FmtNum(c.Preview.Notional, 2) + " USD",
		"Fee (est.)   " + kit.FmtNum(c.Preview.Fee, 4) + " USD",
		"Margin req.  " + kit.FmtNum(c.Preview.MarginRequired, 2) + " USD",
		"Utilization  " + state.FormatPercent(c.Preview.UtilizationAfter, 2) + " after",
	}
	if c.Preview.LiquidationEstimate.IsPositive() {
		lines = append(lines, "Liq. est.    "+kit.FmtNum(c.Preview.LiquidationEstimate, c.Instrument.PriceDecimals()))
	}
	lines = append(lines, "Client id    "+w.Cloid)
	for _, warn := range c.Warnings {
		lines = append(lines, st.Warn.On("! "+warn))
	}
	a := &action{kind: kind, title: title, lines: lines, what: what, confirm: true, order: c,
		lane: laneOrder, run: placeOrder(c.Wire), read: resultText, refresh: tradeKinds, followUp: lookupLostOrder}
	if c.NeedsTypedConfirm {
		a.typed = "yes"
	}
	return a
}

func sidePaint(st *kit.Styles, side string) kit.Paint {
	if side == api.SideBuy {
		return st.Buy
	}
	return st.Sell
}

func orderWhat(c state.CheckedOrder) string {
	w := c.Wire
	return fmt.Sprintf("%s %s %s %s", state.SideText(w.Side), w.Size, c.Instrument.Name, priceText(w))
}

func priceText(w api.OrderWire) string {
	var s string
	if w.IsMarket {
		s = "market (worst " + w.Price + ")"
	} else {
		s = "@ " + w.Price
	}
	if w.TriggerPx != "" {
		s += " trigger " + w.TriggerPx
	}
	return s
}

// placeOrder sends one order.
func placeOrder(w api.OrderWire) func(context.Context, api.Trader) (api.TxResponse, error) {
	return func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
		return accepted(t.PlaceOrders(ctx, []api.OrderWire{w}))
	}
}

// accepted turns a transaction the exchange refused as a whole into an error.
func accepted(resp api.TxResponse, err error) (api.TxResponse, error) {
	if err == nil && resp.Error != "" {
		err = fmt.Errorf("%s", resp.Error)
	}
	if err == nil && resp.Success != nil && !*resp.Success {
		err = fmt.Errorf("the exchange did not accept it")
	}
	return resp, err
}

// resultText is the status line's words for a finished action, and whether it failed. The
// answer is read once, by state (OrderOutcome, CancelOutcome, CancelManyOutcome).
func resultText(d actionDoneMsg) (string, bool) {
	if d.err != nil {
		return d.act.what + " failed: " + kit.PlainError(d.err), true
	}
	switch d.act.kind {
	case actPlace, actClose:
		return orderOutcomeText(state.OrderOutcome(d.resp, d.act.order.Size), d.act.what)
	case actCancel:
		return cancelOutcomeText(state.CancelOutcome(d.resp), d.act.what)
	}
	return cancelManyOutcomeText(state.CancelManyOutcome(d.resp), d.act.what)
}
