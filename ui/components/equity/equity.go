// Package equity is the Activity group's equity curve: the account's value over time
// (account_history) drawn by ui/chart, one bar per point from the value before it to its own
// (rising green, falling red, and the volume traded in between beneath), under a line with the
// value now and its change over the series. The points reach it by the one route: a feed task in
// ui polls account_history, state.Apply replaces the series, the pane reads the store. The chart
// is drawn when the series or the size changes, never in View.
package equity

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/chart"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Pane is the equity curve.
type Pane struct {
	*common.Common
	styles  chart.Styles
	points  []api.AccountSnapshot
	version [2]uint64 // equity and transfers versions read
	w, h    int
	body    string // the header and the chart, drawn when the series or the size changed
	dirty   bool
	empty   string
}

// New is the equity curve; watching says whether the console watches an account.
func New(c *common.Common, watching bool) *Pane {
	p := &Pane{Common: c, dirty: true, empty: "no account value yet"}
	if !watching {
		p.empty = common.NoAccount("equity")
	}
	t := c.Styles.Theme
	p.styles = chart.Styles{Up: common.Fg(t, t.Up), Down: common.Fg(t, t.Down), Axis: common.Fg(t, t.Muted), Muted: common.Fg(t, t.Muted)}
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Equity" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindEquity} }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	if w != p.w || h != p.h {
		p.w, p.h, p.dirty = w, h, true
	}
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(bool) {}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(common.DataMsg); ok && (msg.Kind == state.KindEquity || msg.Kind == state.KindTransfers) {
		if v := [2]uint64{p.Store.Version(state.KindEquity), p.Store.Version(state.KindTransfers)}; v != p.version {
			p.version, p.points, p.dirty = v, p.Store.Equity(), true
		}
	}
	return nil
}

// Points is the series shown, oldest first.
func (p *Pane) Points() []api.AccountSnapshot { return p.points }

// View implements common.Pane.
func (p *Pane) View() string {
	if p.dirty {
		p.body = p.render()
		p.dirty = false
	}
	if s := common.FreshLine(p.Styles, p.Store, state.KindEquity, p.w); s != "" && p.h > 1 {
		// The freshness line replaces the header; it changes with the clock, so it is not cached.
		_, chartLines, _ := strings.Cut(p.body, "\n")
		return s + "\n" + chartLines
	}
	return p.body
}

func (p *Pane) render() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	header := p.Styles.Muted.On(common.Pad(common.EmptyFor(p.Store, state.KindEquity, p.empty), p.w))
	if len(p.points) > 0 {
		header = p.header()
	}
	if p.h == 1 {
		return header
	}
	body := chart.Render(Candles(p.points), p.w, p.h-1, chart.Options{PriceDecimals: 2, Styles: p.styles,
		Empty: common.EmptyFor(p.Store, state.KindEquity, p.empty)})
	return header + "\n" + body
}

// header is the value now (spot and perp, said so: the status bar's equity is the perp account's
// alone), its change over the series less what transfers moved in or out (a withdrawal is no
// loss), and the realized PnL: "Spot + perp value 100,012.34 USD · +12.34 (+0.01%) · transfers
// -1,001.00 since 01-29 12:00:00 · realized PnL +3.10". Until the transfers are loaded the change
// says it includes them. Where that does not fit, the start time goes first (the chart's axis
// shows it), then the PnL, then the change.
func (p *Pane) header() string {
	st := p.Styles
	last := p.points[len(p.points)-1]
	value := st.Bold.On("Spot + perp value " + common.FmtNum(last.AccountValue, 2) + " USD")
	// The series carries realized PnL (closed trades, fees, funding): said so, as the Account pane's
	// Total PnL adds the open positions' unrealized PnL and would otherwise seem to disagree.
	pnl := st.Muted.On(" · realized PnL ") + common.SignPaint(st, last.TotalPnl).On(common.FmtSigned(last.TotalPnl, 2))
	var change, since, note string
	if ch, pct, ok := state.EquityChange(p.points); ok {
		flow, known := p.transferFlow()
		ch = ch.Sub(flow)
		if first := p.points[0].AccountValue; first.IsPositive() {
			pct = ch.Div(first).Shift(2)
		}
		change = st.Muted.On(" · ") + common.SignPaint(st, ch).On(common.FmtSigned(ch, 2)+" ("+common.FmtPct(pct)+")")
		since = st.Muted.On(" since " + state.TimeText(p.points[0].Time.Time, state.TimeShort))
		switch {
		case !known:
			note = st.Muted.On(" incl. transfers")
		case !flow.IsZero():
			note = st.Muted.On(" · transfers " + common.FmtSigned(flow, 2))
		}
	}
	for _, h := range []string{value + change + note + since + pnl, value + change + note + pnl, value + change + note} {
		if ansi.StringWidth(h) <= p.w {
			return common.FitStyled(h, p.w)
		}
	}
	return common.FitStyled(value+pnl, p.w)
}

// transferFlow is what transfers of USD stablecoins (valued at 1 USD) moved into the account over
// the series, and whether the transfers are loaded to say so.
func (p *Pane) transferFlow() (decimal.Decimal, bool) {
	if !p.Store.Freshness(state.KindTransfers).Loaded() {
		return decimal.Zero, false
	}
	from, to := p.points[0].Time.Time, p.points[len(p.points)-1].Time.Time
	sum := decimal.Zero
	for id, amt := range state.TransferFlow(p.Store.Transfers(), p.Account, from, to) {
		if c, ok := p.Store.CollateralByID(id); ok && strings.HasPrefix(strings.ToUpper(c.Symbol), "USD") {
			sum = sum.Add(amt)
		}
	}
	return sum, true
}

// Candles turns the series into the chart's bars: each point's bar runs from the value before
// it to its own, its volume the volume traded since the point before (never negative).
func Candles(ps []api.AccountSnapshot) []api.Candle {
	out := make([]api.Candle, len(ps))
	for i, s := range ps {
		open, vol := s.AccountValue, decimal.Zero
		if i > 0 {
			open = ps[i-1].AccountValue
			vol = decimal.Max(s.TotalVolume.Sub(ps[i-1].TotalVolume), decimal.Zero)
		}
		out[i] = api.Candle{Time: s.Time, Open: open, Close: s.AccountValue,
			High: decimal.Max(open, s.AccountValue), Low: decimal.Min(open, s.AccountValue), Volume: vol}
	}
	return out
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding { return nil }

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding { return nil }

// Limit is how many equity points one poll asks for.
const Limit = 1000

// NewFed is the equity curve with its feed task.
func NewFed(c *common.Common, ex api.Exchange) *common.Fed {
	t := common.PaneTask(c, state.KindEquity, c.Every(func(iv state.Intervals) time.Duration { return iv.Equity }),
		common.AccountRequest(ex, func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
			ps, err := ex.AccountHistory(ctx, user, Limit)
			return state.EquityMsg{Gen: gen, At: at, Points: ps}, err
		}))
	return &common.Fed{Pane: New(c, common.ExchangeAddress(ex) != ""), Task: t}
}
