// Package tape is the trades tape of the current instrument: its recent trades, newest on top,
// with the time, the taker's side (an arrow and a word as well as a colour), price and size; a
// print over the large-trade notional stands out with a marker.
package tape

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// DefaultLarge is the notional (price times size, in the quote currency) from which a trade is a
// large print, when none is configured.
var DefaultLarge = decimal.NewFromInt(50_000)

// Pane is the tape.
type Pane struct {
	*common.Common
	large   decimal.Decimal
	w, h    int
	symbol  string
	trades  []api.Trade
	in      state.Instrument
	version [2]uint64 // trades and instruments versions read
	lines   string
	dirty   bool
}

// New is the tape; large is the notional from which a print stands out (zero: DefaultLarge).
func New(c *common.Common, large decimal.Decimal) *Pane {
	if !large.IsPositive() {
		large = DefaultLarge
	}
	return &Pane{Common: c, large: large, dirty: true}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Tape" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindTrades} }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.version = [2]uint64{}
	p.load()
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(bool) {}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(common.DataMsg); ok {
		switch msg.Kind {
		case state.KindTrades, state.KindInstruments, state.KindTickers:
			p.load()
		}
	}
	return nil
}

// load reads the newest trades when they (or the instrument) changed.
func (p *Pane) load() {
	sym := p.ShownInstrument()
	v := [2]uint64{p.Store.Version(state.KindTrades), p.Store.Version(state.KindInstruments)}
	if sym == p.symbol && v == p.version {
		return
	}
	p.symbol, p.version = sym, v
	if in, ok := p.Store.Instrument(sym); ok {
		p.in = in
	}
	p.trades = p.Store.Trades(sym, max(p.h-1, 0))
	p.dirty = true
}

// Trades is the trades shown, newest first.
func (p *Pane) Trades() []api.Trade { return p.trades }

// Large reports whether t is a large print.
func (p *Pane) Large(t api.Trade) bool { return t.Price.Mul(t.Size).GreaterThanOrEqual(p.large) }

// View implements common.Pane.
func (p *Pane) View() string {
	if p.dirty {
		p.lines = p.render()
		p.dirty = false
	}
	return p.lines
}

func (p *Pane) render() string {
	st := p.Styles
	if len(p.trades) == 0 {
		msg := "no trades of " + p.symbol + " yet"
		if p.symbol == "" {
			msg = "no instrument yet"
		}
		return common.FitLines([]string{"", st.Muted.On(common.EmptyFor(p.Store, state.KindTrades, msg))}, p.w, p.h)
	}
	pd, sd := p.in.PriceDecimals(), p.in.SizeDecimals()
	pw, sw := p.widths(pd, sd)
	lines := make([]string, 0, p.h)
	lines = append(lines, st.Header.On(common.Pad("  Time     Side   "+common.Fit("Price", pw, true)+" "+common.Fit("Size", sw, true), p.w)))
	for _, t := range p.trades {
		side, arrow, word := st.Buy, "▲", "buy "
		if t.Side == api.SideSell {
			side, arrow, word = st.Sell, "▼", "sell"
		}
		mark, size := "  ", st.Text
		if p.Large(t) {
			mark, size = "★ ", st.Bold
		}
		var b strings.Builder
		b.WriteString(st.Warn.On(mark))
		b.WriteString(st.Muted.On(t.Time.UTC().Format("15:04:05")))
		b.WriteString(" " + side.On(arrow+" "+word) + " ")
		b.WriteString(side.On(common.Fit(common.FmtNum(t.Price, pd), pw, true)))
		b.WriteString(" " + size.On(common.Fit(common.FmtNum(t.Size, sd), sw, true)))
		lines = append(lines, b.String())
	}
	return common.FitLines(lines, p.w, p.h)
}

// widths are the price and size columns: 12 and 10 where there is room, else as wide as the
// widest price and size shown (a narrow pane beside the order form), the price first.
func (p *Pane) widths(pd, sd int32) (pw, sw int) {
	const fixed = 18 + 1 // marker, time, side; the space between price and size
	pw, sw = 12, 10
	if p.w >= fixed+pw+sw {
		return pw, sw
	}
	pw, sw = len("Price"), len("Size")
	for _, t := range p.trades {
		pw = max(pw, common.TextWidth(common.FmtNum(t.Price, pd)))
		sw = max(sw, common.TextWidth(common.FmtNum(t.Size, sd)))
	}
	pw = max(pw, min(12, p.w-fixed-sw))
	return pw, max(sw, min(10, p.w-fixed-pw))
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding { return nil }

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding { return nil }
