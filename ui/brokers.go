package ui

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// brokersEvery is how often the broker approvals are read again.
var brokersEvery = time.Minute

// Broker columns.
const (
	bcBroker = iota
	bcFee
	bcUpdated
)

// brokersPane lists the brokers the account approved (brokers_check) and their fee caps.
type brokersPane struct {
	*Common
	ex      api.Exchange
	f       *fetcher
	tbl     *table
	rows    []api.BrokerApproval
	version uint64
	w, h    int
}

func newBrokersPane(c *Common, ex api.Exchange) *brokersPane {
	p := &brokersPane{Common: c, ex: ex}
	p.tbl = newTable(c.Styles, []column{
		{"Broker", 42, false, 0}, {"Max fee rate", 12, true, 0}, {"Updated", 16, false, 1},
	}, p.cell)
	p.tbl.empty = "no broker approved: no broker can charge fees on this account's orders"
	if exchangeAddress(ex) == "" {
		p.tbl.empty = "no account: start with --address, --keystore or a key"
	}
	p.f = newFetcher(state.KindBrokers, c.Clock, func() time.Duration { return brokersEvery }, p.request)
	return p
}

// request reads every page of the account's approvals as one list.
func (p *brokersPane) request() request {
	user := exchangeAddress(p.ex)
	if user == "" {
		return nil
	}
	ex := p.ex
	return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
		all, err := api.AllPages(ctx, func(ctx context.Context, pp api.PageParams) (api.Page[api.BrokerApproval], error) {
			return ex.BrokersCheck(ctx, user, "", pp)
		}, 0, nil)
		return state.BrokersMsg{Gen: gen, At: at, Page: api.Page[api.BrokerApproval]{Data: all, Page: 1,
			TotalCount: len(all), TotalPages: 1}}, err
	}
}

// Title implements Pane.
func (p *brokersPane) Title() string { return "Brokers" }

// Kinds implements kindsShower.
func (p *brokersPane) Kinds() []state.Kind { return []state.Kind{state.KindBrokers} }

// SetSize implements Pane; the last line is the status line.
func (p *brokersPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.tbl.setSize(w, max(h-1, 1))
}

// SetFocused implements Pane.
func (p *brokersPane) SetFocused(f bool) { p.tbl.focused = f }

// Update implements Pane.
func (p *brokersPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case startPanesMsg:
		return p.f.start()
	case DataMsg:
		if msg.Kind == state.KindBrokers {
			if v := p.Store.Version(state.KindBrokers); v != p.version {
				p.version = v
				p.rows = p.Store.Brokers()
				p.tbl.setRows(len(p.rows))
			}
		}
	case tea.KeyMsg:
		p.tbl.navigate(p.Keys, msg)
	}
	return nil
}

func (p *brokersPane) cell(row, col int) (string, paint) {
	b := &p.rows[row]
	st := p.Styles
	switch col {
	case bcBroker:
		return b.Broker, st.Text
	case bcFee:
		return state.FormatPercent(b.MaxFeeRate.Mul(decimal.NewFromInt(100)), 4), st.Warn
	case bcUpdated:
		if b.UpdatedAt.IsZero() {
			return "-", st.Muted
		}
		return b.UpdatedAt.UTC().Format("2006-01-02 15:04"), st.Muted
	}
	return "", paint{}
}

// View implements Pane.
func (p *brokersPane) View() string {
	if exchangeAddress(p.ex) != "" {
		p.tbl.empty = emptyFor(p.Store, state.KindBrokers, "no broker approved: no broker can charge fees on this account's orders")
	}
	lines := p.tbl.lines(make([]string, 0, p.h))
	status := freshLine(p.Styles, p.Store, state.KindBrokers, p.w)
	if status == "" {
		status = p.Styles.Muted.on(pad("approved brokers may add up to their max fee rate to orders they place for you", p.w))
	}
	return strings.Join(append(lines, status), "\n")
}

// ShortHelp implements Pane.
func (p *brokersPane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Up, p.Keys.Down} }

// FullHelp implements Pane.
func (p *brokersPane) FullHelp() [][]key.Binding { return [][]key.Binding{{p.Keys.Up, p.Keys.Down}} }
