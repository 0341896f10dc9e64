package instrument

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Pane shows the current instrument's terms and the account's leverage on it.
type Pane struct {
	*common.Common
	ex      api.Exchange
	f       *feed.Task
	symbol  string
	lines   []string
	view    string // lines from offset, fitted to the size
	version [3]uint64
	offset  int
	w, h    int
}

// New is the instrument details pane; it reads the account's leverage through ex.
func New(c *common.Common, ex api.Exchange) *Pane {
	p := &Pane{Common: c, ex: ex}
	p.f = common.PaneTask(c, state.KindLeverage, c.Every(func(iv state.Intervals) time.Duration { return iv.Leverage }), p.request)
	return p
}

// request reads the account's leverage on the instrument shown (perpetuals of a watched account).
func (p *Pane) request() feed.Request {
	in, ok := p.Store.Instrument(p.symbol)
	user := common.ExchangeAddress(p.ex)
	if !ok || in.Spot || user == "" {
		return nil
	}
	ex, sym := p.ex, p.symbol
	return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
		l, err := ex.InstrumentLeverage(ctx, user, sym)
		if l.Instrument == "" {
			l.Instrument = sym
		}
		return state.LeverageMsg{Gen: gen, At: at, Leverage: l}, err
	}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Instrument" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind {
	return []state.Kind{state.KindInstruments, state.KindLeverage}
}

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.render()
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(bool) {}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.StartPanesMsg:
		p.follow()
		p.render()
		return common.Tea(p.f.Start())
	case common.DataMsg:
		var cmd tea.Cmd
		_, known := p.Store.Leverage(p.symbol)
		// A new instrument, or the instruments arriving after a request that had to wait for them.
		if p.follow() || (msg.Kind == state.KindInstruments && !p.f.InFlight() && !known) {
			cmd = common.Tea(p.f.Poll())
		}
		v := [3]uint64{p.Store.Version(state.KindInstruments), p.Store.Version(state.KindLeverage), p.Store.Version(state.KindAccount)}
		if v != p.version || cmd != nil {
			p.version = v
			p.render()
		}
		return cmd
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.Keys.Up):
			p.offset = max(p.offset-1, 0)
		case key.Matches(msg, p.Keys.Down):
			p.offset = common.ScrollDown(p.offset, 1, len(p.lines), p.h)
		}
		p.fit()
	}
	return nil
}

// follow tracks the current instrument (the first instrument until one is picked); it reports
// whether it changed.
func (p *Pane) follow() bool {
	sym := p.ShownInstrument()
	if sym == p.symbol {
		return false
	}
	p.symbol, p.offset = sym, 0
	return true
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// render builds the lines and the view once per change.
func (p *Pane) render() {
	p.build()
	p.fit()
}

func (p *Pane) fit() { p.view = common.ScrolledLines(p.lines, p.offset, p.w, p.h) }

func (p *Pane) build() {
	st := p.Styles
	in, ok := p.Store.Instrument(p.symbol)
	if !ok {
		msg := "waiting for instruments…"
		if f := p.Store.Freshness(state.KindInstruments); f.Err != nil {
			msg = "instruments failed: " + common.PlainError(f.Err) + " (retrying)"
		} else if p.symbol != "" && f.Loaded() {
			msg = "unknown instrument " + p.symbol
		}
		p.lines = []string{st.Muted.On(msg)}
		return
	}
	kind := "perpetual"
	if in.Spot {
		kind = "spot pair"
	}
	l := []string{st.Bold.On(in.Name) + st.Muted.On(fmt.Sprintf("  %s · id %d · index %s", kind, in.ID, in.PriceIndex))}
	row := func(a, av, b, bv string) string {
		return st.FieldLabel.On(common.Pad(a, 14)) + common.Pad(av, 14) + st.FieldLabel.On(common.Pad(b, 14)) + bv
	}
	minNotional := in.MinNotional.String() + " USD"
	if in.Spot {
		minNotional = in.MinNotional.String() + " quote"
	}
	l = append(l,
		row("Tick size", in.TickSize.String(), "Lot size", in.LotSize.String()),
		row("Min notional", minNotional, "Max leverage", in.MaxLeverage.String()+"x"),
		row("Only isolated", yesNo(in.OnlyIsolated), "Delisted", delistedText(st, in.Delisted)),
		st.FieldLabel.On(common.Pad("Listed", 14))+listedText(in.ListedAt),
	)
	if !in.Spot {
		l = append(l, p.leverageLine(in))
		l = append(l, p.tierLines(in.MarginTiers)...)
	}
	p.lines = l
}

func delistedText(st *common.Styles, d bool) string {
	if d {
		return st.Danger.On("DELISTED: no new orders")
	}
	return "no"
}

func listedText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return state.TimeText(t, state.TimeMinute) + " UTC"
}

// leverageLine is the account's leverage and margin type on the instrument.
func (p *Pane) leverageLine(in state.Instrument) string {
	st := p.Styles
	label := st.FieldLabel.On(common.Pad("Your leverage", 14))
	if common.ExchangeAddress(p.ex) == "" {
		return label + st.Muted.On("no account")
	}
	lv, ok := p.Store.Leverage(in.Name)
	f := p.Store.Freshness(state.KindLeverage)
	switch {
	case !ok && f.Err != nil:
		return label + st.Danger.On("failed: "+common.PlainError(f.Err)+" (retrying)")
	case !ok:
		return label + st.Muted.On("loading…")
	}
	s := lv.Leverage.String() + "x " + lv.MarginType
	if !lv.UpdatedAt.IsZero() {
		s += st.Muted.On(" (set " + state.TimeText(lv.UpdatedAt.Time, state.TimeMinute) + ")")
	}
	if f.Err != nil {
		s += st.Warn.On(" stale: " + common.PlainError(f.Err))
	}
	return label + s
}

// tierLines is the margin tier table.
func (p *Pane) tierLines(tiers []api.MarginTier) []string {
	st := p.Styles
	if len(tiers) == 0 {
		return []string{st.FieldLabel.On("Margin tiers  ") + st.Muted.On("none published")}
	}
	out := []string{st.Header.On(fmt.Sprintf("%-16s %8s %8s %12s", "Notional from", "Max lev", "MMR", "MMD"))}
	hundred := decimal.NewFromInt(100)
	for _, t := range tiers {
		out = append(out, fmt.Sprintf("%-16s %8s %8s %12s", common.FmtNum(t.NotionalUSDThreshold, 0),
			t.MaxLeverage.String()+"x", state.FormatPercent(t.MMR.Mul(hundred), 2), common.FmtNum(t.MMD, 0)))
	}
	return out
}

// View implements common.Pane.
func (p *Pane) View() string { return p.view }

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Up, p.Keys.Down} }

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding { return [][]key.Binding{{p.Keys.Up, p.Keys.Down}} }
