// Package trades is the Activity group's Trades view (issue #41): the account's fills grouped into
// round trips by position (state/report.Trips): each from its open through its adds and closes
// to flat (or still open), newest first, with its side, fills (open + adds + closes), largest
// size, average in and out, realised PnL (the fills' closed_pnl), fees, funding paid or received
// while it was open, and how long it lasted. The fills are the Fills view's (older pages load as
// the trader scrolls to the last row, through the same task); the funding payments the Funding
// view's.
package trades

import (
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/report"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/fills"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
)

// Columns.
const (
	cOpened = iota
	cInstrument
	cSide
	cLegs
	cSize
	cAvgIn
	cAvgOut
	cRealised
	cFees
	cFunding
	cNet
	cDuration
)

// Pane is the Trades view.
type Pane struct {
	*pagedlist.List
	trips   []report.Trip // newest first
	fills   int
	version [3]uint64 // fills, funding and instruments versions read
}

// New is the Trades view; it reads the fills through the Fills view's task when there is one.
func New(c *common.Common, ex api.Exchange) *Pane {
	p := &Pane{}
	empty := "no round trips yet: they are made from fills"
	if common.ExchangeAddress(ex) == "" {
		empty = common.NoAccount("round trips")
	}
	p.List = pagedlist.NewShared(c, ex, fills.Source, []common.Column{
		common.Col("Opened", 14, false, 0), common.Col("Instrument", 10, false, 0), common.Col("Side", 5, false, 0),
		common.Col("Open+adds+closes", 16, false, 3), common.Col("Size", 10, true, 1), common.Col("Avg in", 11, true, 0),
		common.Col("Avg out", 11, true, 0), common.Col("Realised", 11, true, 0), common.Col("Fees", 9, true, 2),
		common.Col("Funding", 9, true, 2), common.Col("Net", 11, true, 1), common.Col("Duration", 10, true, 1),
	}, p.cell, empty)
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Trades (" + strconv.Itoa(len(p.trips)) + ")" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindFills, state.KindFunding} }

// Trips are the round trips shown, newest first.
func (p *Pane) Trips() []report.Trip { return p.trips }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if cmd, handled, refresh := p.Handle(msg, state.KindFunding); handled {
		if refresh {
			p.refresh()
		}
		return cmd
	}
	if msg, ok := msg.(tea.KeyMsg); ok && p.Tbl.Navigate(p.Keys, msg) {
		return p.LoadMore(p.fills)
	}
	return nil
}

// refresh groups the store's fills again when they, the funding payments or the instruments
// changed.
func (p *Pane) refresh() {
	s := p.Store
	v := [3]uint64{s.Version(state.KindFills), s.Version(state.KindFunding), s.Version(state.KindInstruments)}
	if v == p.version {
		return
	}
	p.version = v
	fs := s.Fills()
	trips := report.Trips(fs, s.Funding())
	for i, j := 0, len(trips)-1; i < j; i, j = i+1, j-1 {
		trips[i], trips[j] = trips[j], trips[i]
	}
	p.trips, p.fills = trips, len(fs)
	p.Tbl.SetRows(len(trips))
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	t := &p.trips[row]
	st := p.Styles
	in, known := p.Store.Instrument(t.Instrument)
	price := func(d decimal.Decimal) string {
		if known {
			return in.PriceText(d)
		}
		return d.String()
	}
	switch col {
	case cOpened:
		return state.TimeText(t.Opened, state.TimeShort), st.Muted
	case cInstrument:
		return t.Instrument, st.Bold
	case cSide:
		if t.Long {
			return "long", st.Buy
		}
		return "short", st.Sell
	case cLegs:
		return legsText(t), st.Text
	case cSize:
		if known {
			return in.SizeText(t.MaxSize), st.Text
		}
		return t.MaxSize.String(), st.Text
	case cAvgIn:
		return price(t.AvgIn), st.Text
	case cAvgOut:
		if !t.SizeOut.IsPositive() {
			return "-", st.Muted
		}
		return price(t.AvgOut), st.Text
	}
	return p.money(t, col)
}

// money is the cell of a trip's realised PnL, fees, funding, net or duration.
func (p *Pane) money(t *report.Trip, col int) (string, common.Paint) {
	st := p.Styles
	switch col {
	case cRealised:
		return common.FmtSigned(t.Realised, 2), common.SignPaint(st, t.Realised)
	case cFees:
		return state.FormatUSDFee(t.Fees), st.Muted
	case cFunding:
		return common.FmtSigned(t.Funding, 2), common.SignPaint(st, t.Funding)
	case cNet:
		return common.FmtSigned(t.Net(), 2), common.SignPaint(st, t.Net())
	case cDuration:
		d := durationText(t.Duration(p.Clock()))
		if t.Open {
			return d + " open", st.Accent
		}
		return d, st.Muted
	}
	return "", common.Paint{}
}

// legsText is the trip's fills by what they did: "1+3+2", the open one "earlier" when it opened
// before the first fill loaded.
func legsText(t *report.Trip) string {
	open := "1"
	if t.Before {
		open = "earlier"
	}
	return open + "+" + strconv.Itoa(t.Adds) + "+" + strconv.Itoa(t.Closes)
}

// durationText is a trip's length in its two largest units: "3d 4h", "2h 5m", "4m 10s", "12s".
func durationText(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d >= 24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d " + strconv.Itoa(int(d%(24*time.Hour)/time.Hour)) + "h"
	case d >= time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h " + strconv.Itoa(int(d%time.Hour/time.Minute)) + "m"
	case d >= time.Minute:
		return strconv.Itoa(int(d/time.Minute)) + "m " + strconv.Itoa(int(d%time.Minute/time.Second)) + "s"
	}
	return strconv.Itoa(int(d/time.Second)) + "s"
}

// View implements common.Pane: the table above the status line.
func (p *Pane) View() string {
	return p.Body(func() string {
		s := count(len(p.trips), "round trip") + " from " + count(p.fills, "fill") + " loaded"
		if _, more := p.Store.NextFillsPage(); more && p.fills > 0 {
			s += " · scroll to the end for older fills"
		}
		return s
	})
}

// count is n and the noun, plural when n is not 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
