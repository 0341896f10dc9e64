// Package daily is the Activity group's Daily view (issue #41): realised PnL, fees and funding per
// UTC day (state/report.Daily) over the last Days days, as bars drawn by ui/chart: each day's bar
// runs from zero to its net (realised less fees plus funding; rising green, falling red), its
// wick out to the gross realised PnL, its fees as the volume beneath. The line above says the
// selected day's figures (the list keys move it) and the totals. The fills are the Fills view's
// and the payments the Funding view's, as the store holds them; the equity view stays beside it.
// The chart is drawn when the data, the selection or the size changes, never in View.
package daily

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/report"
	"github.com/tradedesk/tradedesk/ui/chart"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Days is how many UTC days the view shows, today the last.
const Days = 30

// Pane is the Daily view.
type Pane struct {
	*common.Common
	styles  chart.Styles
	days    []report.Day
	sel     int // the selected day (index into days)
	version [2]uint64
	today   string
	w, h    int
	body    string
	dirty   bool
	empty   string
}

// New is the Daily view; watching says whether the console watches an account.
func New(c *common.Common, watching bool) *Pane {
	p := &Pane{Common: c, dirty: true, sel: Days - 1, empty: "no fills yet"}
	if !watching {
		p.empty = common.NoAccount("daily PnL")
	}
	t := c.Styles.Theme
	p.styles = chart.Styles{Up: common.Fg(t, t.Up), Down: common.Fg(t, t.Down), Axis: common.Fg(t, t.Muted), Muted: common.Fg(t, t.Muted)}
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Daily" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindFills, state.KindFunding} }

// Days are the days shown, oldest first.
func (p *Pane) Days() []report.Day { return p.days }

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
	switch msg := msg.(type) {
	case common.DataMsg:
		if msg.Kind == state.KindFills || msg.Kind == state.KindFunding {
			p.refresh()
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.Keys.Up):
			p.sel, p.dirty = max(p.sel-1, 0), true
		case key.Matches(msg, p.Keys.Down):
			p.sel, p.dirty = min(p.sel+1, Days-1), true
		}
	}
	return nil
}

// refresh sums the store's fills and payments by day when they changed (or the day did).
func (p *Pane) refresh() {
	now := p.Clock()
	today := now.UTC().Format(time.DateOnly)
	v := [2]uint64{p.Store.Version(state.KindFills), p.Store.Version(state.KindFunding)}
	if v == p.version && today == p.today {
		return
	}
	p.version, p.today, p.dirty = v, today, true
	p.days = report.Daily(p.Store.Fills(), p.Store.Funding(), Days, now)
}

// View implements common.Pane.
func (p *Pane) View() string {
	if p.today != "" && p.Clock().UTC().Format(time.DateOnly) != p.today {
		p.refresh() // a new UTC day: the bars move on (the store's data, no request)
	}
	if p.dirty {
		p.body, p.dirty = p.render(), false
	}
	return p.body
}

func (p *Pane) render() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	empty := common.EmptyFor(p.Store, state.KindFills, p.empty)
	header := p.Styles.Muted.On(common.Pad(empty, p.w))
	if len(p.days) > 0 {
		header = p.header()
	}
	if p.h == 1 {
		return header
	}
	var candles []api.Candle
	if p.traded() {
		candles = Candles(p.days)
	}
	body := chart.Render(candles, p.w, p.h-1, chart.Options{PriceDecimals: 2, Styles: p.styles, Interval: 24 * time.Hour, Empty: empty})
	return header + "\n" + body
}

// traded reports whether any day shown has a fill or a payment.
func (p *Pane) traded() bool {
	for _, d := range p.days {
		if d.Fills > 0 || !d.Funding.IsZero() {
			return true
		}
	}
	return false
}

// header is the selected day's figures, then the totals over the days shown: "11-26 · realised
// +12.30 · fees 4.10 · funding -0.20 · net +8.00 | 30 days net +41.00".
func (p *Pane) header() string {
	st := p.Styles
	d := p.days[min(p.sel, len(p.days)-1)]
	var sum decimal.Decimal
	for _, x := range p.days {
		sum = sum.Add(x.Net)
	}
	parts := []string{st.Bold.On(d.Date + " UTC"),
		st.Muted.On("realised ") + common.SignPaint(st, d.Realised).On(common.FmtSigned(d.Realised, 2)),
		st.Muted.On("fees " + state.FormatUSDFee(d.Fees)),
		st.Muted.On("funding ") + common.SignPaint(st, d.Funding).On(common.FmtSigned(d.Funding, 2)),
		st.Muted.On("net ") + common.SignPaint(st, d.Net).On(common.FmtSigned(d.Net, 2)),
		st.Muted.On(strconv.Itoa(len(p.days))+" days net ") + common.SignPaint(st, sum).On(common.FmtSigned(sum, 2)),
	}
	return common.FitStyled(strings.Join(parts, st.Muted.On(" · ")), p.w)
}

// Candles turns the days into the chart's bars: each from zero to its net, its wick to its
// realised PnL, its fees as its volume.
func Candles(days []report.Day) []api.Candle {
	out := make([]api.Candle, len(days))
	for i, d := range days {
		at, _ := time.Parse(time.DateOnly, d.Date)
		hi := decimal.Max(decimal.Zero, d.Net, d.Realised)
		lo := decimal.Min(decimal.Zero, d.Net, d.Realised)
		out[i] = api.Candle{Time: api.Time{Time: at}, Open: decimal.Zero, Close: d.Net, High: hi, Low: lo, Volume: d.Fees.Abs()}
	}
	return out
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Up, p.Keys.Down} }

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding { return nil }
