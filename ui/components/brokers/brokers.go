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
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
)

// Broker columns.
const (
	bcBroker = iota
	bcFee
	bcUpdated
)

// Pane lists the brokers the account approved (brokers_check) and their fee caps: a paged list
// (pagedlist.List) of one page, every page of the approvals read as one.
type Pane struct {
	*pagedlist.List
	ex      api.Exchange
	rows    []api.BrokerApproval
	version uint64
	// The approval line (see parseApproval): "0xBROKER RATE", and why Enter refused it.
	editing bool
	input   textinput.Model
	note    string
}

// source is the account's approvals, polled every Intervals.Brokers.
var source = pagedlist.Source{
	Kind: state.KindBrokers, Every: func(iv state.Intervals) time.Duration { return iv.Brokers },
	Page: func(ex api.Exchange, user string, _ int) feed.Request {
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			all, err := api.AllPagesUpTo(ctx, func(ctx context.Context, pp api.PageParams) (api.Page[api.BrokerApproval], error) {
				return ex.BrokersCheck(ctx, user, "", pp)
			}, 0, api.MaxMarketRecords)
			return state.BrokersMsg{Gen: gen, At: at, Page: api.Page[api.BrokerApproval]{Data: all, Page: 1,
				TotalCount: len(all), TotalPages: 1}}, err
		}
	},
}

// New is the Brokers view of the account ex watches, with its feed task.
func New(c *common.Common, ex api.Exchange) *Pane {
	p := &Pane{ex: ex, input: common.NewField("0x… broker address and max fee rate, e.g. 0.1%", 64)}
	empty := "no broker approved: no broker can charge fees on this account's orders"
	if common.ExchangeAddress(ex) == "" {
		empty = common.NoAccount("")
	}
	p.List = pagedlist.New(c, ex, source, []common.Column{
		common.Col("Broker", 42, false, 0), common.Col("Max fee rate", 12, true, 0), common.Col("Updated", 16, false, 1),
	}, p.cell, empty)
	p.Tbl.Follow(func(row int) string { return strings.ToLower(p.rows[row].Broker) })
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Brokers" }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if cmd, handled, refresh := p.Handle(msg); handled {
		if v := p.Store.Version(state.KindBrokers); refresh && v != p.version {
			p.version = v
			p.rows = p.Store.Brokers()
			p.Tbl.SetRows(len(p.rows))
		}
		return cmd
	}
	if msg, ok := msg.(tea.KeyMsg); ok {
		if p.editing {
			return p.editKey(msg)
		}
		if cmd, took := p.brokerKey(msg); took {
			return cmd
		}
		p.Tbl.Navigate(p.Keys, msg)
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
		p.Tbl.Empty = common.EmptyFor(p.Store, state.KindBrokers, "no broker approved: no broker can charge fees on this account's orders")
	}
	switch {
	case p.editing && p.note != "":
		return p.Over(common.FitStyled("approve: "+p.input.View()+p.Styles.Danger.On("  ! "+p.note), p.Width()))
	case p.editing:
		return p.Over(common.FitStyled("approve: "+p.input.View()+p.Styles.Muted.On("  "+common.KeyName(p.Keys.TextSubmit)+" review · "+common.KeyName(p.Keys.Dismiss)+" back"), p.Width()))
	}
	return p.Body(func() string {
		return common.KeyName(p.Keys.BrokerApprove) + " approve a broker · " + common.KeyName(p.Keys.BrokerRevoke) + " revoke the selected approval · approved brokers may add up to their max fee rate"
	})
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
func (p *Pane) Select(i int) { p.Tbl.MoveTo(i) }

// Note is why the approval line refused what was typed ("" when it did not).
func (p *Pane) Note() string { return p.note }
