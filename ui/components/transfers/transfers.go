// Package transfers is the Activity group's transfers view: the account's latest deposits,
// transfers and withdrawals, newest first (time, kind in words from the account's side, amount
// signed: negative when it left the account, the fee paid on top of it, collateral, the other
// address of a send or receipt, the transaction hash). The records reach it by the one route: the
// kit's paged list (pagedlist.List, one page) polls transfer_history, state.Apply replaces the
// list, the pane reads the store.
package transfers

import (
	"context"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
)

// Columns.
const (
	cTime = iota
	cKind
	cAmount
	cFee
	cCollateral
	cPeer
	cTx
)

// Pane is the transfers view: a paged list (pagedlist.List) of one page, the latest Limit
// transfers.
type Pane struct {
	*pagedlist.List
	rows    []api.TransferRecord
	version [2]uint64 // transfers and collateral versions read
	empty   string
}

// Limit is how many transfers one poll asks for.
const Limit = 200

// source is the account's latest transfers, one page, polled every Intervals.Transfers.
var source = pagedlist.Source{
	Kind: state.KindTransfers, Every: func(iv state.Intervals) time.Duration { return iv.Transfers },
	Follows: []state.Kind{state.KindAccount}, // rare: reconciled while the account streams
	Page: func(ex api.Exchange, user string, _ int) feed.Request {
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			ts, err := ex.TransferHistory(ctx, user, Limit)
			return state.TransfersMsg{Gen: gen, At: at, Transfers: ts}, err
		}
	},
}

// New is the transfers view of the account ex watches, with its feed task.
func New(c *common.Common, ex api.Exchange) *Pane {
	return newPane(c, ex, source, common.ExchangeAddress(ex) != "")
}

// newPane is the transfers view on src; watching says whether the console watches an account.
func newPane(c *common.Common, ex api.Exchange, src pagedlist.Source, watching bool) *Pane {
	p := &Pane{empty: "no transfers yet"}
	if !watching {
		p.empty = common.NoAccount("transfers")
	}
	p.List = pagedlist.New(c, ex, src, []common.Column{
		common.Col("Time", 14, false, 0), common.Col("Kind", 15, false, 0), common.Col("Amount", 14, true, 0),
		common.Col("Fee", 8, true, 0), common.Col("Coll.", 6, false, 0), common.Col("Other address", 13, false, 1), common.Col("Tx hash", 13, false, 2),
	}, p.cell, p.empty)
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Transfers (" + strconv.Itoa(len(p.rows)) + ")" }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if cmd, handled, refresh := p.Handle(msg, state.KindCollateral); handled {
		if refresh {
			p.refresh()
		}
		return cmd
	}
	if msg, ok := msg.(tea.KeyMsg); ok {
		p.Tbl.Navigate(p.Keys, msg)
	}
	return nil
}

// refresh takes the store's transfers when they (or the collateral names) changed.
func (p *Pane) refresh() {
	v := [2]uint64{p.Store.Version(state.KindTransfers), p.Store.Version(state.KindCollateral)}
	if v == p.version {
		return
	}
	p.version = v
	p.rows = p.Store.Transfers()
	p.Tbl.SetRows(len(p.rows))
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	t := &p.rows[row]
	st := p.Styles
	switch col {
	case cTime:
		if s := state.TimeText(t.Time.Time, state.TimeShort); s != "" {
			return s, st.Muted
		}
		return "-", st.Muted
	case cKind:
		return state.TransferText(*t, p.Account), st.Text
	case cAmount:
		_, places := p.Store.CollateralShown(t.CollateralID)
		amt := t.Amount.Abs()
		if state.TransferOutgoing(*t, p.Account) {
			amt = amt.Neg()
		}
		return common.FmtSigned(amt, places), common.SignPaint(st, amt)
	case cFee:
		if !t.Fee.IsPositive() || !state.TransferOutgoing(*t, p.Account) {
			return state.NotApplicable, st.Muted
		}
		_, places := p.Store.CollateralShown(t.CollateralID)
		return common.FmtSigned(t.Fee.Neg(), places), common.SignPaint(st, t.Fee.Neg())
	case cCollateral:
		sym, _ := p.Store.CollateralShown(t.CollateralID)
		return sym, st.Muted
	case cPeer:
		if a := state.TransferCounterparty(*t, p.Account); a != "" {
			return common.ShortAddr(a), st.Muted
		}
		return state.NotApplicable, st.Muted
	case cTx:
		if t.TxHash == "" {
			return state.NotApplicable, st.Muted
		}
		return common.ShortAddr(t.TxHash), st.Muted
	}
	return "", common.Paint{}
}

// View implements common.Pane: the table above the status line.
func (p *Pane) View() string {
	p.Tbl.Empty = common.EmptyFor(p.Store, state.KindTransfers, p.empty)
	return p.Body(p.idle)
}

// idle is the status line when nothing is wrong or under way.
func (p *Pane) idle() string {
	return strconv.Itoa(len(p.rows)) + " latest · the Funds group moves collateral"
}
