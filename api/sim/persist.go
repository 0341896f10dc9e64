package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// A state file (WithStateFile, `tradedesk sim --data DIR`) keeps what an account's money and
// records are: balances, positions, leverage settings, fills, funding and transfer records,
// volume and PnL, agents, the faucet's memory, the money that came in and went out, the house
// accounts, each market's index, mark and last price, the id counters and the highest nonce
// accepted. It is one JSON document (decimals as exact text) written to a temporary file,
// synced, and renamed over the old one before an action is answered and after every market
// step, so a kill at any moment leaves the last whole state. Open orders, order history,
// charts and the trade tape are not kept: a restart starts with no resting order.

// stateVersion is the state file's format.
const stateVersion = 1

type stateDoc struct {
	Version  int                                  `json:"version"`
	Saved    time.Time                            `json:"saved"`
	MaxNonce uint64                               `json:"max_nonce"`
	NextOid  api.OrderID                          `json:"next_oid"`
	NextTid  api.TradeID                          `json:"next_tid"`
	NextTx   uint64                               `json:"next_tx"`
	FundedAt time.Time                            `json:"funded_at"`
	In       map[api.CollateralID]decimal.Decimal `json:"in"`
	Out      map[api.CollateralID]decimal.Decimal `json:"out"`
	Markets  []snapMarket                         `json:"markets"`
	Faucet   []string                             `json:"faucet"`
	Agents   []snapAgent                          `json:"agents"`
	Accounts []snapAccount                        `json:"accounts"`
}

type snapMarket struct {
	ID                api.InstrumentID `json:"id"`
	Index, Mark, Last int64
}

type snapAgent struct {
	Addr, Account, Name string
	Created, Until      time.Time
}

type snapAccount struct {
	Addr        string
	Internal    bool
	Spot, Deriv map[api.CollateralID]decimal.Decimal
	Pos         []snapPos
	Lev         []snapLev
	Fills       []snapFill
	Funding     []snapFunding
	Transfers   []snapTransfer
	Volume      decimal.Decimal
	SpotVol     decimal.Decimal
	Pnl         decimal.Decimal
	Peak, MaxDD decimal.Decimal
	Created     time.Time
}

type snapPos struct {
	ID                   api.InstrumentID
	Size                 int64
	Cost, IsoMargin, Lev decimal.Decimal
	Isolated             bool
	Updated              time.Time
}

type snapLev struct {
	ID      api.InstrumentID
	Mode    string
	Lev     decimal.Decimal
	Updated time.Time
}

type snapFill struct {
	Mkt                       api.InstrumentID
	Oid                       api.OrderID
	Cloid                     string
	Trade                     api.TradeID
	Buy, Crossed              bool
	Dir, OpenDir, TxHash      string
	Price, Lots, StartSize    int64
	ClosedPnl, Fee, StartCost decimal.Decimal
	FillType                  int
	At                        time.Time
}

type snapFunding struct {
	Mkt                      api.InstrumentID
	Amount, Rate, Mark, Size decimal.Decimal
	At                       time.Time
}

type snapTransfer struct {
	Kind                         string
	Coll                         api.CollateralID
	Amount, Fee, Proceeds, Price decimal.Decimal
	From, To, TxHash, Dir        string
	Chain                        int64
	At                           time.Time
}

// WithStateFile keeps the simulator's state in path (the package doc's "State file"): New
// loads it when it exists, and every action and market step writes it before it is answered.
func WithStateFile(path string) Option { return func(c *config) { c.state = path } }

// errStateVersion reports a state file written in another format.
var errStateVersion = errors.New("state file of another version")

// saveState writes the state file, when there is one. Under s.mu.
func (s *Sim) saveState() {
	if s.cfg.state == "" {
		return
	}
	if err := writeAtomic(s.cfg.state, s.eng.snapshot(s.maxNonce)); err != nil && s.stateErr == nil {
		s.stateErr = err
	}
}

// Known reports whether the simulator has an account for addr (funded, or kept in its state
// file).
func (s *Sim) Known(addr string) bool {
	a, err := canonical(addr)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.known(a) != nil
}

// StateError is the first error writing the state file met, or nil.
func (s *Sim) StateError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateErr
}

// writeAtomic writes v as JSON to a temporary file beside path, syncs it, and renames it over
// path, so path always holds a whole state.
func writeAtomic(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// loadState reads the state file into the engine, when it exists.
func (s *Sim) loadState() error {
	b, err := os.ReadFile(s.cfg.state)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var snap stateDoc
	if err := json.Unmarshal(b, &snap); err != nil {
		return fmt.Errorf("state file %s: %w", s.cfg.state, err)
	}
	if snap.Version != stateVersion {
		return fmt.Errorf("state file %s: version %d: %w %d", s.cfg.state, snap.Version, errStateVersion, stateVersion)
	}
	s.maxNonce = snap.MaxNonce
	s.eng.nonceFloor = max(s.eng.nonceFloor, snap.MaxNonce)
	return s.eng.restore(&snap)
}
