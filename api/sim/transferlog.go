package sim

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// transferRec is one movement of collateral an account made or received: a transfer to or from
// another account, between its own spot and derivative accounts, or a withdrawal.
type transferRec struct {
	kind   string // spot, derivative, internal, withdraw
	coll   *collateralSpec
	amount decimal.Decimal
	fee    decimal.Decimal
	from   string
	to     string // an address; for internal "spot" or "derivative"; for withdraw the chain
	at     time.Time
}

// transferJSON is one record of the transfer_history method (the simulator's own shape).
type transferJSON struct {
	Type         string           `json:"type"`
	CollateralID api.CollateralID `json:"collateral_id"`
	Collateral   string           `json:"collateral"`
	Amount       decimal.Decimal  `json:"amount"`
	Fee          decimal.Decimal  `json:"fee"`
	From         string           `json:"from"`
	To           string           `json:"to"`
	Timestamp    isoTime          `json:"timestamp"`
}

// addTransfer records a movement on an account (kept like fills: the newest maxFillsKept).
func (a *account) addTransfer(r transferRec) {
	if a.internal {
		return
	}
	if len(a.transfers) >= maxFillsKept {
		a.transfers = append(a.transfers[:0], a.transfers[len(a.transfers)-maxFillsKept/2:]...)
	}
	a.transfers = append(a.transfers, r)
}

// infoTransfers answers transfer_history {user, page?, limit?}, newest first.
func (s *Sim) infoTransfers(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	ts := a.transfers
	return page(len(ts), p, func(i int) transferJSON {
		t := ts[len(ts)-1-i]
		return transferJSON{Type: t.kind, CollateralID: t.coll.rec.ID, Collateral: t.coll.rec.Symbol, Amount: t.amount, Fee: t.fee,
			From: t.from, To: t.to, Timestamp: isoTime(t.at)}
	})
}
