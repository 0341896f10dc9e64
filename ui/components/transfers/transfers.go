// Package transfers is the Activity group's transfers view: the account's latest deposits,
// transfers and withdrawals, newest first (time, kind in words from the account's side, amount
// signed: negative when it left the account, the fee paid on top of it, collateral, the other
// address of a send or receipt, the transaction hash). The records reach it by the one route: a feed task in ui polls
// transfer_history, state.Apply replaces the list, the pane reads the store.
package transfers

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui/common"
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

// Pane is the transfers view.
type Pane struct {
	*common.Common
	tbl     *common.Table
	rows    []api.TransferRecord
	version [2]uint64 // transfers and collateral versions read
	w, h    int
	empty   string
}

// New is the transfers view; watching says whether the console watches an account.
func New(c *common.Common, watching bool) *Pane {
	p := &Pane{Common: c, empty: "no transfers yet"}
	if !watching {
		p.empty = "no account: start with --address, --keystore or a key to see transfers"
	}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col("Time", 14, false, 0), common.Col("Kind", 15, false, 0), common.Col("Amount", 14, true, 0),
		common.Col("Fee", 8, true, 0), common.Col("Coll.", 6, false, 0), common.Col("Other address", 13, false, 1), common.Col("Tx hash", 13, false, 2),
	}, p.cell)
	p.tbl.Empty = p.empty
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Transfers (" + strconv.Itoa(len(p.rows)) + ")" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindTransfers} }

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
	case common.DataMsg:
		if msg.Kind == state.KindTransfers || msg.Kind == state.KindCollateral {
			p.refresh()
		}
	case tea.KeyMsg:
		p.tbl.Navigate(p.Keys, msg)
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
	p.tbl.SetRows(len(p.rows))
}

// collateral is a collateral's symbol and display precision ("#id" and 8 places before the
// collateral list loads).
func (p *Pane) collateral(id api.CollateralID) (string, int32) {
	if c, ok := p.Store.CollateralByID(id); ok {
		return c.Symbol, state.DisplayDecimals(c.Symbol, int32(c.Decimals))
	}
	return "#" + strconv.FormatInt(int64(id), 10), 8
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
		_, places := p.collateral(t.CollateralID)
		amt := t.Amount.Abs()
		if state.TransferOutgoing(*t, p.Account) {
			amt = amt.Neg()
		}
		return common.FmtSigned(amt, places), common.SignPaint(st, amt)
	case cFee:
		if !t.Fee.IsPositive() || !state.TransferOutgoing(*t, p.Account) {
			return state.NotApplicable, st.Muted
		}
		_, places := p.collateral(t.CollateralID)
		return common.FmtSigned(t.Fee.Neg(), places), common.SignPaint(st, t.Fee.Neg())
	case cCollateral:
		sym, _ := p.collateral(t.CollateralID)
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
	p.tbl.Empty = common.EmptyFor(p.Store, state.KindTransfers, p.empty)
	lines := p.tbl.Lines(make([]string, 0, p.h))
	status := common.FreshLine(p.Styles, p.Store, state.KindTransfers, p.w)
	if status == "" {
		status = p.Styles.Muted.On(common.Pad(strconv.Itoa(len(p.rows))+" latest · the Funds group moves collateral", p.w))
	}
	return strings.Join(append(lines, status), "\n")
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Up, p.Keys.Down} }

// FullHelp implements common.Pane: only the list's navigation, which the Activity group's help
// already shows with the fills, so it adds nothing there.
func (p *Pane) FullHelp() [][]key.Binding { return nil }

// Limit is how many transfers one poll asks for.
const Limit = 200

// NewFed is the transfers view with its feed task.
func NewFed(c *common.Common, ex api.Exchange) *common.Fed {
	t := common.PaneTask(c, state.KindTransfers, c.Every(func(iv profile.Intervals) time.Duration { return iv.Transfers }),
		common.AccountRequest(ex, func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
			ts, err := ex.TransferHistory(ctx, user, Limit)
			return state.TransfersMsg{Gen: gen, At: at, Transfers: ts}, err
		})).Follow(state.KindAccount) // rare: reconciled while the account streams
	return &common.Fed{Pane: New(c, common.ExchangeAddress(ex) != ""), Task: t}
}
