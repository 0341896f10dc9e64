package sim

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// The store's rows are JSON documents (decimals as exact text, so money comes back to the
// unit), one per account, order, market, agent and log record.

// The append-only logs an account keeps, each a table of the store.
const (
	logFills = iota
	logFunding
	logTransfers
	logHistory
	nLogs
)

// logTables names each log's table.
var logTables = [nLogs]string{"fills", "funding", "transfers", "history"}

// metaRow is the exchange-wide state: id counters, the nonce floor, the money that came in and
// went out, the last funding time.
type metaRow struct {
	Version  int                                  `json:"version"`
	Saved    time.Time                            `json:"saved"`
	MaxNonce uint64                               `json:"max_nonce"`
	NextOid  api.OrderID                          `json:"next_oid"`
	NextTid  api.TradeID                          `json:"next_tid"`
	NextTx   uint64                               `json:"next_tx"`
	FundedAt time.Time                            `json:"funded_at"`
	In       map[api.CollateralID]decimal.Decimal `json:"in"`
	Out      map[api.CollateralID]decimal.Decimal `json:"out"`
}

// marketRow is a market's prices and its funding's running premium.
type marketRow struct {
	Index, Mark, Last int64
	Funding, PremSum  decimal.Decimal
	PremN             int64
	Paused            bool
	Seq               uint64    // the book's sequence number
	Updated           time.Time // when its prices last moved
}

type snapAgent struct {
	Addr, Account, Name string
	Created, Until      time.Time
}

// accountRow is an account's balances, positions and settings: everything but its logs and
// orders.
type accountRow struct {
	Spot, Deriv map[api.CollateralID]decimal.Decimal
	Pos         []snapPos
	Lev         []snapLev
	Brokers     []snapBroker
	Days        []snapDay
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

type snapBroker struct {
	Broker  string
	MaxFee  decimal.Decimal
	Updated time.Time
}

type snapDay struct {
	Day                int64
	Perp, Spot, Stable decimal.Decimal
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

type snapPoint struct {
	At                 time.Time
	Value, Pnl, Volume decimal.Decimal
}

// orderRow is one order of a user's order history, open or closed.
type orderRow struct {
	Oid                                api.OrderID
	Mkt                                api.InstrumentID
	Buy, Po, Ro, IsMarket, FireAbove   bool
	InBook, AutoBound                  bool
	Price, Size, Rest, Trigger, PxLots int64
	Limit, SpotNotional, SpotFee       decimal.Decimal
	Tif, Cloid, Tpsl, Grouping, State  string
	Reason                             string `json:",omitempty"`
	Created                            time.Time
}

// bracketRow is a bracket by its orders' ids (0: a position bracket's missing entry).
type bracketRow struct {
	Acct            string
	Mkt             api.InstrumentID
	Parent          api.OrderID
	Sent            int64
	Armed, Guarded  bool
	Children, Fired []api.OrderID
}

func (a *account) row() accountRow {
	r := accountRow{Spot: a.spot, Deriv: a.deriv, Volume: a.volume, SpotVol: a.spotVol, Pnl: a.pnl, Peak: a.peak,
		MaxDD: a.maxDD, Created: a.created}
	for id, p := range a.pos {
		r.Pos = append(r.Pos, snapPos{ID: id, Size: p.size, Cost: p.cost, IsoMargin: p.isoMargin, Lev: p.lev, Isolated: p.isolated, Updated: p.updated})
	}
	slices.SortFunc(r.Pos, func(x, y snapPos) int { return int(x.ID - y.ID) })
	for id, l := range a.lev {
		r.Lev = append(r.Lev, snapLev{ID: id, Mode: l.mode, Lev: l.lev, Updated: l.updated})
	}
	slices.SortFunc(r.Lev, func(x, y snapLev) int { return int(x.ID - y.ID) })
	for _, b := range a.brokers {
		r.Brokers = append(r.Brokers, snapBroker{Broker: b.broker, MaxFee: b.maxFee, Updated: b.updated})
	}
	for _, d := range a.days {
		r.Days = append(r.Days, snapDay{Day: d.day, Perp: d.perp, Spot: d.spot, Stable: d.stable})
	}
	return r
}

func rowOfFill(f *fillRec) snapFill {
	return snapFill{Mkt: f.mkt.id, Oid: f.oid, Cloid: f.cloid, Trade: f.trade, Buy: f.buy, Crossed: f.crossed,
		Dir: f.dir, OpenDir: f.openDir, TxHash: f.txHash, Price: f.price, Lots: f.lots, StartSize: f.startSize,
		ClosedPnl: f.closedPnl, Fee: f.fee, StartCost: f.startCost, FillType: f.fillType, At: f.at}
}

func rowOfOrder(o *order) orderRow {
	return orderRow{Oid: o.oid, Mkt: o.mkt.id, Buy: o.buy, Po: o.po, Ro: o.ro, IsMarket: o.isMarket, FireAbove: o.fireAbove,
		InBook: o.inBook, AutoBound: o.autoBound, Price: o.price, Size: o.size, Rest: o.rest, Trigger: o.trigger,
		PxLots: o.pxLots, Limit: o.limit, SpotNotional: o.spotNotional, SpotFee: o.spotFee, Tif: o.tif, Cloid: o.cloid,
		Tpsl: o.tpsl, Grouping: o.grouping, State: o.state, Reason: o.reason, Created: o.created}
}

// logRecords renders an account's log records newer than those the store holds (at most the
// n newest), oldest first.
func (a *account) logRecords(k int, n int) []any {
	var out []any
	switch k {
	case logFills:
		n = min(n, len(a.fills))
		for i := n - 1; i >= 0; i-- {
			out = append(out, rowOfFill(a.fillAt(i)))
		}
	case logFunding:
		for _, f := range a.funding[len(a.funding)-min(n, len(a.funding)):] {
			out = append(out, snapFunding{Mkt: f.mkt.id, Amount: f.amount, Rate: f.rate, Mark: f.mark, Size: f.size, At: f.at})
		}
	case logTransfers:
		for _, t := range a.transfers[len(a.transfers)-min(n, len(a.transfers)):] {
			out = append(out, snapTransfer{Kind: t.kind, Coll: t.coll.rec.ID, Amount: t.amount, Fee: t.fee, Proceeds: t.proceeds,
				Price: t.price, From: t.from, To: t.to, TxHash: t.txHash, Dir: t.dir, Chain: t.chain, At: t.at})
		}
	case logHistory:
		for _, p := range a.hist[len(a.hist)-min(n, len(a.hist)):] {
			out = append(out, snapPoint{At: p.at, Value: p.value, Pnl: p.pnl, Volume: p.volume})
		}
	}
	return out
}

// bracketRows renders the open brackets.
func (e *engine) bracketRows() []bracketRow {
	out := make([]bracketRow, 0, len(e.brackets))
	ids := func(os []*order) []api.OrderID {
		var r []api.OrderID
		for _, o := range os {
			r = append(r, o.oid)
		}
		return r
	}
	for _, b := range e.brackets {
		r := bracketRow{Acct: b.acct.addr, Mkt: b.mkt.id, Sent: b.sent, Armed: b.armed, Guarded: b.guarded,
			Children: ids(b.children), Fired: ids(b.fired)}
		if b.parent != nil {
			r.Parent = b.parent.oid
		}
		out = append(out, r)
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only the simulator's own types: a failure is a bug
	}
	return b
}
