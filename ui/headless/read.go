package headless

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

func pageFlags(fs *flagSet, o *opts) {
	fs.IntVar(&o.page, "page", 1, "page to show, 1 = newest (export walks every page)")
	fs.IntVar(&o.limit, "limit", api.DefaultPageSize, "records per page")
}

func init() {
	register(&command{name: "account", usage: "[--user ADDR] [--json]", summary: "Show the account's equity, margin and collateral balances.", groups: gRead, run: runAccount})
	register(&command{name: "positions", usage: "[--user ADDR] [--json]", summary: "Show open positions with PnL, ROE and liquidation distance.", groups: gRead, run: runPositions})
	register(&command{name: "orders", usage: "[--user ADDR] [--json]", summary: "Show every open order.", groups: gRead, run: runOrders})
	register(&command{name: "fills", usage: "[--user ADDR] [--page N] [--limit N] [--json]", summary: "Show one page of fills, newest first.", groups: gRead, flags: pageFlags, run: runFills})
	register(&command{name: "history", usage: "[--user ADDR] [--page N] [--limit N] [--json]", summary: "Show one page of order history, newest first.", groups: gRead, flags: pageFlags, run: runHistory})
	register(&command{name: "tickers", usage: "[--json]", summary: "Show every instrument's market summary.", groups: gMarket, run: runTickers})
	register(&command{name: "instruments", usage: "[--json]", summary: "Show every instrument's terms: tick, lot, minimum notional, leverage.", groups: gMarket, run: runInstruments})
	register(&command{name: "collateral", usage: "[--user ADDR] [--json]", summary: "Show supported collateral, its withdrawal chains, and the account's balances when an account is known.", groups: gRead, run: runCollateral})
}

// market loads instruments (for precision) into a fresh store.
func (r *runner) market(ctx context.Context) (*state.Store, error) {
	st := state.New(r.env.Now)
	ins, err := r.client.Instruments(ctx, "all")
	if err != nil {
		return nil, err
	}
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	return st, nil
}

// priceText writes a price at the instrument's precision (or the value's own when unknown).
func priceText(st *state.Store, symbol string, v decimal.Decimal) string {
	if in, ok := st.Instrument(symbol); ok {
		return state.FormatPrice(v, in.PriceDecimals())
	}
	return state.FormatPrice(v, state.StepDecimals(v))
}

// orderPriceText is an order's price as the console's panes show it: "market" for a market order
// (its limit price is only the worst-price bound it was sent with, not a price it traded at).
func orderPriceText(st *state.Store, o api.OrderRecord) string {
	if o.IsMarket {
		return "market"
	}
	return priceText(st, o.Instrument, o.LimitPrice)
}

// instrumentOf is symbol's terms, or none (a zero Instrument, whose texts keep the value's own
// decimals) when it is not listed.
func instrumentOf(st *state.Store, symbol string) state.Instrument {
	in, _ := st.Instrument(symbol)
	return in
}

// sizeText writes a size at the instrument's precision (or the value's own when unknown).
func sizeText(st *state.Store, symbol string, v decimal.Decimal) string {
	if in, ok := st.Instrument(symbol); ok {
		return state.FormatSize(v, in.SizeDecimals())
	}
	return state.FormatSize(v, state.StepDecimals(v))
}

func usd(v decimal.Decimal) string    { return state.FormatPrice(v, 2) }
func signed(v decimal.Decimal) string { return state.FormatSigned(v, 2) }

func runAccount(ctx context.Context, r *runner) error {
	user, err := r.account()
	if err != nil {
		return err
	}
	a, err := r.client.AccountSummary(ctx, user)
	if err != nil {
		return err
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, a)
	}
	k := newKV(true)
	k.add("Account", user)
	k.add("Margin mode", a.MarginMode)
	k.add("Total equity", usd(a.TotalAccountEquity))
	k.add("Margin balance", usd(a.MarginBalance))
	k.add("Available", usd(a.AvailableBalance))
	k.add("Unrealized PnL", signed(a.Upnl))
	k.add("Realized PnL", signed(a.TotalPnl))
	k.add("Total PnL", signed(state.TotalPnL(a.TotalPnl, a.Upnl)))
	k.add("Initial margin", usd(a.InitialMargin))
	k.add("Maintenance margin", usd(a.MaintenanceMargin))
	k.add("Initial margin used", state.FormatPercent(state.MarginUtilizationAfter(a, decimal.Zero), 2))
	k.add("Maintenance margin used", state.FormatPercent(state.MaintenanceUtilization(a), 2))
	if err := k.write(r.env.Stdout); err != nil {
		return err
	}
	fmt.Fprintln(r.env.Stdout)
	return balancesTable(a).write(r.env.Stdout)
}

// balancesTable lists the spot and derivative collateral balances, sorted by symbol.
func balancesTable(a api.AccountSummary) *table {
	t := newTable("SIDE", "COLLATERAL", "BALANCE>", "WITHDRAWABLE>")
	add := func(side string, m map[string]api.CollateralBalance) {
		for _, s := range slices.Sorted(maps.Keys(m)) {
			b := m[s]
			t.add(side, s, state.FormatBalance(b.Balance, s, 0), state.FormatBalance(b.WithdrawableBalance, s, 0))
		}
	}
	add("derivative", a.Collateral)
	add("spot", a.SpotCollateral)
	return t
}

func runPositions(ctx context.Context, r *runner) error {
	user, err := r.account()
	if err != nil {
		return err
	}
	pos, err := r.client.Positions(ctx, user)
	if err != nil {
		return err
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, pos)
	}
	st, err := r.market(ctx)
	if err != nil {
		return err
	}
	if err := r.loadInto(ctx, st, user, loadTickers, loadAccount); err != nil {
		return err
	}
	st.Apply(state.PositionsMsg{Positions: pos})
	t := newTable("INSTRUMENT", "SIDE", "SIZE>", "ENTRY>", "MARK>", "NOTIONAL>", "UPNL>", "ROE>", "LEV>", "MODE", "LIQ>", "LIQ DIST>")
	for _, p := range st.PositionViews() {
		liq, dist := "-", "-"
		if p.Liquidation.IsPositive() {
			liq, dist = priceText(st, p.Instrument, p.Liquidation), state.FormatPercent(p.LiqDistance, 2)
		}
		t.add(p.Instrument, p.Side, sizeText(st, p.Instrument, p.Size), priceText(st, p.Instrument, p.Entry),
			priceText(st, p.Instrument, p.Mark), usd(p.Notional), signed(p.UPnL), state.FormatSignedPercent(p.ROE, 2),
			p.Leverage.String()+"x", p.MarginMode, liq, dist)
	}
	return t.write(r.env.Stdout)
}

func runOrders(ctx context.Context, r *runner) error {
	user, err := r.account()
	if err != nil {
		return err
	}
	orders, err := api.AllPagesUpTo(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.client.OpenOrders(ctx, user, p)
	}, 0, api.MaxOpenOrders)
	if err != nil {
		return err
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, nonNil(orders))
	}
	st, err := r.market(ctx)
	if err != nil {
		return err
	}
	t := newTable("INSTRUMENT", "OID>", "SIDE", "TYPE", "PRICE>", "SIZE>", "FILLED>", "TIF", "FLAGS", "PLACED", "CLOID")
	for _, o := range orders {
		t.add(o.Instrument, strconv.FormatUint(uint64(o.OrderID), 10), state.SideText(o.Side), state.RecordTypeText(&o, instrumentOf(st, o.Instrument)),
			orderPriceText(st, o), sizeText(st, o.Instrument, o.Size),
			sizeText(st, o.Instrument, o.Size.Sub(o.Unfilled)), o.Tif, orderFlags(o), state.TimeText(o.Timestamp.Time, state.TimeFull), o.Cloid)
	}
	return t.write(r.env.Stdout)
}

func orderFlags(o api.OrderRecord) string {
	return strings.Join(state.FlagTexts(o.ReduceOnly, o.PostOnly), ",")
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (r *runner) pageParams() (api.PageParams, error) {
	if r.o.page < 1 {
		return api.PageParams{}, usagef("--page %d: pages start at 1", r.o.page)
	}
	if r.o.limit < 1 || r.o.limit > 1000 {
		return api.PageParams{}, usagef("--limit %d: want 1 to 1000", r.o.limit)
	}
	return api.PageParams{Page: r.o.page, Limit: r.o.limit}, nil
}

func runFills(ctx context.Context, r *runner) error {
	return runPage(ctx, r, r.client.Fills,
		[]string{"TIME", "INSTRUMENT", "SIDE", "DIRECTION", "PRICE>", "SIZE>", "FEE>", "CLOSED PNL>", "TRADE>", "OID>"},
		func(st *state.Store, f api.Fill) []string {
			return []string{state.TimeText(f.BlockTime.Time, state.TimeFull), f.Instrument, state.SideText(f.Side), state.DirectionText(f.Direction), priceText(st, f.Instrument, f.Price),
				sizeText(st, f.Instrument, f.Size), state.FormatUSDFee(f.Fee), signed(f.ClosedPnl),
				strconv.FormatUint(uint64(f.TradeID), 10), strconv.FormatUint(uint64(f.OrderID), 10)}
		})
}

func runHistory(ctx context.Context, r *runner) error {
	return runPage(ctx, r, r.client.OrderHistory,
		[]string{"TIME", "INSTRUMENT", "OID>", "SIDE", "TYPE", "PRICE>", "SIZE>", "UNFILLED>", "STATE", "CLOID"},
		func(st *state.Store, o api.OrderRecord) []string {
			return []string{state.TimeText(o.Timestamp.Time, state.TimeFull), o.Instrument, strconv.FormatUint(uint64(o.OrderID), 10), state.SideText(o.Side), state.RecordTypeText(&o, instrumentOf(st, o.Instrument)),
				orderPriceText(st, o), sizeText(st, o.Instrument, o.Size), sizeText(st, o.Instrument, o.Unfilled),
				state.RecordStateText(&o, instrumentOf(st, o.Instrument)), o.Cloid}
		})
}

// runPage prints the page of the account's records that --page and --limit select: as JSON, or
// as a table (header and one row per record, at the instruments' precision) with a page footer.
func runPage[T any](ctx context.Context, r *runner, read func(context.Context, string, api.PageParams) (api.Page[T], error),
	header []string, row func(*state.Store, T) []string) error {
	user, err := r.account()
	if err != nil {
		return err
	}
	pp, err := r.pageParams()
	if err != nil {
		return err
	}
	page, err := read(ctx, user, pp)
	if err != nil {
		return err
	}
	if r.o.json {
		page.Data = nonNil(page.Data)
		return writeJSON(r.env.Stdout, page)
	}
	st, err := r.market(ctx)
	if err != nil {
		return err
	}
	t := newTable(header...)
	for _, rec := range page.Data {
		t.add(row(st, rec)...)
	}
	if err := t.write(r.env.Stdout); err != nil {
		return err
	}
	return r.pageFooter(page.Page, page.TotalPages, page.TotalCount)
}

func (r *runner) pageFooter(page, pages, total int) error {
	_, err := fmt.Fprintf(r.env.Stdout, "page %d of %d (%d records)\n", page, max(pages, page), total)
	return err
}

func runTickers(ctx context.Context, r *runner) error {
	ts, err := r.client.Ticker(ctx, "all")
	if err != nil {
		return err
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, nonNil(ts))
	}
	st, err := r.market(ctx)
	if err != nil {
		return err
	}
	t := newTable("INSTRUMENT", "MARK>", "LAST>", "24H>", "BID>", "ASK>", "FUNDING>", "OPEN INT>", "VOLUME 24H>")
	quote := func(sym string, v decimal.Decimal) string {
		if !v.IsPositive() {
			return state.NotApplicable
		}
		return priceText(st, sym, v)
	}
	for _, x := range ts {
		funding, oi := state.NotApplicable, state.NotApplicable
		if in, ok := st.Instrument(x.Symbol); !ok || !in.Spot {
			funding, oi = state.FormatFunding(x.FundingRate, state.FundingPeriod), state.FormatOpenInterest(x.OpenInterest, x.Symbol)
		}
		t.add(x.Symbol, quote(x.Symbol, x.MarkPrice), quote(x.Symbol, x.LastPrice),
			state.FormatSignedPercent(x.Change24h, 2), quote(x.Symbol, x.BestBidPrice), quote(x.Symbol, x.BestAskPrice),
			funding, oi, usd(x.Volume24h))
	}
	return t.write(r.env.Stdout)
}

func runInstruments(ctx context.Context, r *runner) error {
	ins, err := r.client.Instruments(ctx, "all")
	if err != nil {
		return err
	}
	if r.o.json {
		ins.Perps, ins.Spot = nonNil(ins.Perps), nonNil(ins.Spot)
		return writeJSON(r.env.Stdout, ins)
	}
	st := state.New(r.env.Now)
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	t := newTable("ID>", "NAME", "KIND", "TICK>", "LOT>", "MIN NOTIONAL>", "MAX LEV>", "FLAGS")
	for _, in := range st.Instruments() {
		var flags []string
		if in.Delisted {
			flags = append(flags, "delisted")
		}
		if in.OnlyIsolated {
			flags = append(flags, "isolated-only")
		}
		lev := in.MaxLeverage.String() + "x"
		if in.Spot {
			lev = "-"
		}
		t.add(strconv.FormatInt(int64(in.ID), 10), in.Name, in.Kind(), in.TickSize.String(), in.LotSize.String(),
			in.MinNotional.String(), lev, strings.Join(flags, ","))
	}
	return t.write(r.env.Stdout)
}

func runCollateral(ctx context.Context, r *runner) error {
	cs, err := r.client.SupportedCollateral(ctx, "all")
	if err != nil {
		return err
	}
	var acct *api.AccountSummary
	if user, uerr := r.account(); uerr == nil {
		a, err := r.client.AccountSummary(ctx, user)
		if err != nil {
			return err
		}
		acct = &a
	} else if r.o.user != "" {
		return uerr
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, collateralJSON{Collateral: nonNil(cs), Account: acct})
	}
	t := newTable("ID>", "SYMBOL", "NAME", "DECIMALS>", "WITHDRAW FEE>", "CHAINS")
	for _, c := range cs {
		var chains []string
		for _, b := range c.BridgeByChain {
			if b.Enabled {
				chains = append(chains, strconv.FormatInt(int64(b.BridgeChainID), 10))
			}
		}
		t.add(strconv.FormatInt(int64(c.ID), 10), c.Symbol, c.Name, strconv.FormatInt(int64(c.Decimals), 10),
			c.WithdrawalFee.String(), strings.Join(chains, ","))
	}
	if err := t.write(r.env.Stdout); err != nil || acct == nil {
		return err
	}
	fmt.Fprintln(r.env.Stdout)
	return balancesTable(*acct).write(r.env.Stdout)
}

// collateralJSON is the collateral command's JSON: the supported list and, when an account is
// known, its summary (which holds the balances).
type collateralJSON struct {
	Collateral []api.Collateral    `json:"collateral"`
	Account    *api.AccountSummary `json:"account,omitempty"`
}

// loader fetches one kind of data into st.
type loader func(ctx context.Context, r *runner, st *state.Store, user string) error

func loadTickers(ctx context.Context, r *runner, st *state.Store, _ string) error {
	ts, err := r.client.Ticker(ctx, "all")
	if err == nil {
		st.Apply(state.TickersMsg{Tickers: ts})
	}
	return err
}

func loadMids(ctx context.Context, r *runner, st *state.Store, _ string) error {
	ms, err := r.client.Mids(ctx, "all")
	if err == nil {
		st.Apply(state.MidsMsg{Mids: ms})
	}
	return err
}

func loadAccount(ctx context.Context, r *runner, st *state.Store, user string) error {
	a, err := r.client.AccountSummary(ctx, user)
	if err == nil {
		st.Apply(state.AccountMsg{Summary: a})
	}
	return err
}

func loadPositions(ctx context.Context, r *runner, st *state.Store, user string) error {
	p, err := r.client.Positions(ctx, user)
	if err == nil {
		st.Apply(state.PositionsMsg{Positions: p})
	}
	return err
}

func loadCollateral(ctx context.Context, r *runner, st *state.Store, _ string) error {
	c, err := r.client.SupportedCollateral(ctx, "all")
	if err == nil {
		st.Apply(state.CollateralMsg{Collateral: c})
	}
	return err
}

// loadInto runs loaders one after the other, stopping at the first failure.
func (r *runner) loadInto(ctx context.Context, st *state.Store, user string, ls ...loader) error {
	for _, l := range ls {
		if err := l(ctx, r, st, user); err != nil {
			return err
		}
	}
	return nil
}
