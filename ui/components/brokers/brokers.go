// Package brokers is the Brokers view: the brokers the account approved to charge fees on its
// orders, with a to approve one (or change its rate) and x to revoke one, each confirmed and sent
// through the one pipeline of signed actions.
package brokers

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Broker columns.
const (
	bcBroker = iota
	bcFee
	bcUpdated
)

// Pane lists the brokers the account approved (brokers_check) and their fee caps.
type Pane struct {
	*common.Common
	ex      api.Exchange
	f       *feed.Task
	tbl     *common.Table
	rows    []api.BrokerApproval
	version uint64
	w, h    int
	// The approval line (see parseApproval): "0xBROKER RATE", and why Enter refused it.
	editing bool
	input   textinput.Model
	note    string
}

// New is the Brokers view of the account ex watches, with its feed task.
func New(c *common.Common, ex api.Exchange) *Pane {
	p := &Pane{Common: c, ex: ex, input: common.NewField("0x… broker address and max fee rate, e.g. 0.1%", 64)}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col("Broker", 42, false, 0), common.Col("Max fee rate", 12, true, 0), common.Col("Updated", 16, false, 1),
	}, p.cell)
	p.tbl.Follow(func(row int) string { return strings.ToLower(p.rows[row].Broker) })
	p.tbl.Empty = "no broker approved: no broker can charge fees on this account's orders"
	if common.ExchangeAddress(ex) == "" {
		p.tbl.Empty = "no account: start with --address, --keystore or a key"
	}
	p.f = common.PaneTask(c, state.KindBrokers, c.Every(func(iv profile.Intervals) time.Duration { return iv.Brokers }), p.request)
	return p
}

// request reads every page of the account's approvals as one list.
func (p *Pane) request() feed.Request {
	user := common.ExchangeAddress(p.ex)
	if user == "" {
		return nil
	}
	ex := p.ex
	return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
		all, err := api.AllPagesUpTo(ctx, func(ctx context.Context, pp api.PageParams) (api.Page[api.BrokerApproval], error) {
			return ex.BrokersCheck(ctx, user, "", pp)
		}, 0, api.MaxMarketRecords)
		return state.BrokersMsg{Gen: gen, At: at, Page: api.Page[api.BrokerApproval]{Data: all, Page: 1,
			TotalCount: len(all), TotalPages: 1}}, err
	}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Brokers" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindBrokers} }

// SetSize implements common.Pane; the last line is the status line.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.tbl.SetSize(w, max(h-1, 1))
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) { p.tbl.SetFocused(f) }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.StartPanesMsg:
		return common.Tea(p.f.Start())
	case common.DataMsg:
		if msg.Kind == state.KindBrokers {
			if v := p.Store.Version(state.KindBrokers); v != p.version {
				p.version = v
				p.rows = p.Store.Brokers()
				p.tbl.SetRows(len(p.rows))
			}
		}
	case tea.KeyMsg:
		if p.editing {
			return p.editKey(msg)
		}
		if cmd, took := p.brokerKey(msg); took {
			return cmd
		}
		p.tbl.Navigate(p.Keys, msg)
	}
	return nil
}

// Capturing implements common.InputCapturer: the approval line takes every key while open.
func (p *Pane) Capturing() bool { return p.editing }

func (p *Pane) cell(row, col int) (string, common.Paint) {
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
		return state.TimeText(b.UpdatedAt.Time, state.TimeMinute), st.Muted
	}
	return "", common.Paint{}
}

// View implements common.Pane.
func (p *Pane) View() string {
	if common.ExchangeAddress(p.ex) != "" {
		p.tbl.Empty = common.EmptyFor(p.Store, state.KindBrokers, "no broker approved: no broker can charge fees on this account's orders")
	}
	lines := p.tbl.Lines(make([]string, 0, p.h))
	status := common.FreshLine(p.Styles, p.Store, state.KindBrokers, p.w)
	switch {
	case p.editing && p.note != "":
		status = common.FitStyled("approve: "+p.input.View()+p.Styles.Danger.On("  ! "+p.note), p.w)
	case p.editing:
		status = common.FitStyled("approve: "+p.input.View()+p.Styles.Muted.On("  "+common.KeyName(p.Keys.TextSubmit)+" review · "+common.KeyName(p.Keys.Dismiss)+" back"), p.w)
	case status == "":
		status = p.Styles.Muted.On(common.Pad(common.KeyName(p.Keys.BrokerApprove)+" approve a broker · "+common.KeyName(p.Keys.BrokerRevoke)+" revoke the selected approval · approved brokers may add up to their max fee rate", p.w))
	}
	return strings.Join(append(lines, status), "\n")
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Up, p.Keys.Down, p.Keys.BrokerApprove, p.Keys.BrokerRevoke, p.Keys.Transfer, p.Keys.Withdraw}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.Keys.Up, p.Keys.Down}, {p.Keys.BrokerApprove, p.Keys.BrokerRevoke}, {p.Keys.Transfer, p.Keys.Withdraw}}
}

// Rows are the approvals listed, in order.
func (p *Pane) Rows() []api.BrokerApproval { return p.rows }

// Select puts the cursor on row i.
func (p *Pane) Select(i int) { p.tbl.MoveTo(i) }

// Note is why the approval line refused what was typed ("" when it did not).
func (p *Pane) Note() string { return p.note }
