package sim

import (
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// Transfer kinds of transfer_history, as the SDKs name them.
const (
	xferDeposit       = "deposit"
	xferSpotWithdraw  = "spot_withdraw"
	xferDerivWithdraw = "derivative_withdraw"
	xferSpot          = "spot_balance_transfer"
	xferDeriv         = "derivative_balance_transfer"
	xferInternal      = "internal_balance_transfer"
	// The simulator's own kinds (see the package doc): the insurance fund bought collateral
	// from a bankrupt account (amount of the collateral out, proceeds USDC in, at price), or
	// paid a debt of the account that no liquidation fill shows (amount USDC in).
	xferSeizure = "insurance_seizure"
	xferCover   = "insurance_cover"
)

// Directions of an internal transfer (transferJSON.Direction).
const (
	dirToDeriv = "spot_to_derivatives"
	dirToSpot  = "derivatives_to_spot"
)

// transferRec is one movement of collateral an account made or received: a deposit, a transfer
// to or from another account, a move between its own spot and derivative accounts, or a
// withdrawal. Deposits, internal moves and withdrawals move between the account and its own
// wallet, so from and to are the account's address (a withdrawal names its chain).
type transferRec struct {
	kind     string
	coll     *collateralSpec
	amount   decimal.Decimal
	fee      decimal.Decimal // what the sender paid on top; the receiver's record has none
	from, to string
	chain    int64
	txHash   string
	at       time.Time
	dir      string          // an internal transfer's direction (dirToDeriv, dirToSpot)
	proceeds decimal.Decimal // a seizure's USDC paid to the account
	price    decimal.Decimal // a seizure's price of the collateral in USDC
}

// transferJSON is one record of transfer_history: the SDKs' fields (from, to, collateral_id,
// amount, tx_hash, type, timestamp), then the simulator's additions (the collateral's symbol,
// the fee this account paid, a withdrawal's chain, an internal transfer's direction, and a
// seizure's proceeds and price).
type transferJSON struct {
	From         string           `json:"from"`
	To           string           `json:"to"`
	CollateralID api.CollateralID `json:"collateral_id"`
	Amount       decimal.Decimal  `json:"amount"`
	TxHash       string           `json:"tx_hash"`
	Type         string           `json:"type"`
	Timestamp    isoTime          `json:"timestamp"`
	Collateral   string           `json:"collateral"`
	Fee          decimal.Decimal  `json:"fee"`
	ChainID      int64            `json:"chain_id,omitempty"`
	Direction    string           `json:"direction,omitempty"`
	Proceeds     *decimal.Decimal `json:"proceeds,omitempty"`
	Price        *decimal.Decimal `json:"price,omitempty"`
}

// addTransfer records a movement on an account (kept like fills: the newest maxFillsKept).
func (a *account) addTransfer(r transferRec) {
	if a.internal {
		return
	}
	a.dirty = true
	a.logN[logTransfers]++
	if len(a.transfers) >= maxFillsKept {
		a.transfers = append(a.transfers[:0], a.transfers[len(a.transfers)-maxFillsKept/2:]...)
	}
	a.transfers = append(a.transfers, r)
}

// noteTransfer records a movement from one account to another (the same for its own moves) in
// the history of each, the fee on the sender's record only.
func (e *engine) noteTransfer(r transferRec, from, to *account) {
	r.from, r.to, r.at = from.addr, to.addr, e.now()
	if r.txHash = e.curTx; r.txHash == "" {
		r.txHash = depositHash(to.addr, r.at, len(to.transfers))
	}
	from.addTransfer(r)
	e.noteHistory(from, false)
	if to != from {
		r.fee = decimal.Zero
		to.addTransfer(r)
		e.noteHistory(to, false)
	}
}

// noteDeposit records a deposit (the faucet, --fund, Deposit): it comes from no signed action.
func (e *engine) noteDeposit(a *account, id api.CollateralID, amount decimal.Decimal) {
	c := e.collByID[id]
	if c == nil {
		return
	}
	now := e.now()
	a.addTransfer(transferRec{kind: xferDeposit, coll: c, amount: amount, fee: decimal.Zero, from: a.addr, to: a.addr,
		txHash: depositHash(a.addr, now, len(a.transfers)), at: now})
	e.noteHistory(a, false)
}

// noteSeizure records in the account's transfer history what the insurance fund took from it
// or paid for it (kind xferSeizure or xferCover).
func (e *engine) noteSeizure(a *account, s seizure, price decimal.Decimal) {
	r := transferRec{kind: xferSeizure, coll: e.collByID[s.coll], amount: s.amount, fee: decimal.Zero, from: a.addr,
		to: e.insure.addr, proceeds: s.proceeds, price: price, txHash: e.curTx, at: e.now()}
	if s.coll == collUSDC {
		r.kind, r.amount, r.from, r.to = xferCover, s.proceeds, e.insure.addr, a.addr
	}
	if r.txHash == "" {
		r.txHash = depositHash(a.addr, r.at, len(a.transfers))
	}
	a.addTransfer(r)
	e.noteHistory(a, false)
}

// depositHash names a deposit: deterministic, unique per account, and drawing nothing from the
// engine's transaction counter.
func depositHash(addr string, at time.Time, n int) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[0:], uint64(at.UnixMilli()))
	binary.BigEndian.PutUint64(b[8:], uint64(n))
	return "0x" + hex.EncodeToString(secp.Keccak256([]byte("deposit"), b[:], []byte(addr)))
}

// infoTransfers answers transfer_history {user, page?, limit?}: the account's deposits,
// transfers and withdrawals, newest first, as a bare array as the SDKs declare it (page and
// limit choose the slice: limit 0 is 100).
func (s *Sim) infoTransfers(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	ts := a.transfers
	pg, err := page(len(ts), p, func(i int) transferJSON {
		t := ts[len(ts)-1-i]
		j := transferJSON{From: t.from, To: t.to, CollateralID: t.coll.rec.ID, Amount: t.amount, TxHash: t.txHash,
			Type: t.kind, Timestamp: isoTime(t.at), Collateral: t.coll.rec.Symbol, Fee: t.fee, ChainID: t.chain, Direction: t.dir}
		if t.kind == xferSeizure {
			j.Proceeds, j.Price = &t.proceeds, &t.price
		}
		return j
	})
	return pg.Data, err
}
