package state

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// KindTransfers is the account's deposits, transfers and withdrawals (transfer_history), newest
// first: each poll's answer replaces the list.
var KindTransfers = newKind("transfers", time.Minute, func() any { return &transferData{} })

type transferData struct{ list []api.TransferRecord }

// TransfersMsg carries the account's latest transfers (it replaces the list).
type TransfersMsg struct {
	Gen       uint64
	At        time.Time
	Transfers []api.TransferRecord
}

// Kind implements Msg.
func (TransfersMsg) Kind() Kind { return KindTransfers }

// Order implements Msg.
func (m TransfersMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m TransfersMsg) apply(s *Store, _ Order) bool {
	d := s.data(KindTransfers).(*transferData)
	return replace(&d.list, m.Transfers)
}

// Transfers returns the account's latest transfers, newest first.
func (s *Store) Transfers() []api.TransferRecord {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindTransfers).(*transferData).list
}

// TransferOutgoing reports whether t takes collateral out of account (a withdrawal, a transfer to
// another address, a vault deposit); a move between the account's own balances and anything
// into it is not.
func TransferOutgoing(t api.TransferRecord, account string) bool {
	switch t.Type {
	case api.TransferSpotWithdraw, api.TransferDerivativeWithdraw, api.TransferVaultDeposit:
		return true
	case api.TransferInternal, api.TransferDeposit, api.TransferVaultWithdraw:
		return false
	}
	return strings.EqualFold(t.From, account) && !strings.EqualFold(t.To, account)
}

// TransferText is a transfer's kind in words, from account's side: "deposit", "withdraw (spot)",
// "send (perp)", "receive (spot)", "spot ⇄ perp"; a kind the console does not know is shown as
// the exchange names it.
func TransferText(t api.TransferRecord, account string) string {
	switch t.Type {
	case api.TransferDeposit:
		return "deposit"
	case api.TransferSpotWithdraw:
		return "withdraw (spot)"
	case api.TransferDerivativeWithdraw:
		return "withdraw (perp)"
	case api.TransferInternal:
		return "spot ⇄ perp"
	case api.TransferVaultDeposit:
		return "vault deposit"
	case api.TransferVaultWithdraw:
		return "vault withdraw"
	case api.TransferSpot, api.TransferDerivative:
		book := "(spot)"
		if t.Type == api.TransferDerivative {
			book = "(perp)"
		}
		if TransferOutgoing(t, account) {
			return "send " + book
		}
		return "receive " + book
	}
	return t.Type
}

// TransferCounterparty is the other address of a send or a receipt ("" for the account's own
// moves, deposits and withdrawals).
func TransferCounterparty(t api.TransferRecord, account string) string {
	if t.Type != api.TransferSpot && t.Type != api.TransferDerivative {
		return ""
	}
	if TransferOutgoing(t, account) {
		return t.To
	}
	if strings.EqualFold(t.From, account) {
		return "" // to itself
	}
	return t.From
}

// TransferFlow is what transfers moved into the account (positive) or out of it (negative, with
// the fee paid on top) after from and up to to, per collateral: deposits, receipts and vault
// withdrawals in; withdrawals, sends and vault deposits out; moves between its own spot and
// derivative balances nothing. The account's value moves by these without any gain or loss.
func TransferFlow(ts []api.TransferRecord, account string, from, to time.Time) map[api.CollateralID]decimal.Decimal {
	out := map[api.CollateralID]decimal.Decimal{}
	for _, t := range ts {
		at := t.Time.Time
		if !at.After(from) || at.After(to) || t.Type == api.TransferInternal {
			continue
		}
		if TransferOutgoing(t, account) {
			out[t.CollateralID] = out[t.CollateralID].Sub(t.Amount.Abs()).Sub(t.Fee.Abs())
		} else if !strings.EqualFold(t.From, account) || t.Type == api.TransferDeposit || t.Type == api.TransferVaultWithdraw {
			out[t.CollateralID] = out[t.CollateralID].Add(t.Amount.Abs())
		}
	}
	return out
}
