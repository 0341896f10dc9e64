package api

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

// /info method names.
const (
	MethodAccountSummary      = "account_summary"
	MethodBrokersCheck        = "brokers_check"
	MethodInstruments         = "instruments"
	MethodChart               = "chart"
	MethodFills               = "fills"
	MethodOrderHistory        = "order_history"
	MethodOpenOrders          = "open_orders"
	MethodInstrumentLeverage  = "instrument_leverage"
	MethodSupportedCollateral = "supported_collateral"
	MethodPositions           = "positions"
	MethodTicker              = "ticker"
	MethodMids                = "mids"
	MethodOrderBook           = "orderbook"
)

// Chart types and resolutions the chart method accepts.
var (
	ChartTypes  = []string{"mark", "index", "ltp"}
	Resolutions = []string{"1", "5", "15", "30", "60", "240", "1D", "1W"}
)

// maxFallbackPages bounds how much order history the open_orders fallback reads.
const maxFallbackPages = 20

type infoRequest struct {
	Method string `json:"method"`
	Params any    `json:"params"`
}

type userParams struct {
	User string `json:"user"`
}

type pagedParams struct {
	User  string `json:"user"`
	Page  int    `json:"page"`
	Limit int    `json:"limit"`
}

type brokersParams struct {
	User   string `json:"user"`
	Broker string `json:"broker,omitempty"`
	Page   int    `json:"page"`
	Limit  int    `json:"limit"`
}

type typeParams struct {
	Type string `json:"type"`
}

type chartParams struct {
	Symbol       string       `json:"symbol"`
	InstrumentID InstrumentID `json:"instrument_id"`
	ChartType    string       `json:"chart_type"`
	Resolution   string       `json:"resolution"`
	From         int64        `json:"from"`
	To           int64        `json:"to"`
}

type symbolParams struct {
	Symbol string `json:"symbol"`
}

type leverageParams struct {
	User   string `json:"user"`
	Symbol string `json:"symbol"`
}

type bookParams struct {
	Symbol string `json:"symbol"`
	Depth  int    `json:"depth,omitempty"`
}

// info runs one /info method with retries and decodes its result into out. The answer is checked
// against the method's limits (CheckAnswer) before it is decoded; an answer over them is a
// KindTooLarge error (too many entries) or a KindDecode one (too deep, a number too long), which
// are not retried.
func (c *Client) info(ctx context.Context, method string, params, out any) error {
	op := "info " + method
	body, err := json.Marshal(infoRequest{Method: method, Params: params})
	if err != nil {
		return &Error{Kind: KindInvalid, Op: op, Err: err}
	}
	limit := limitFor(method, params)
	cl := &call{path: "/info", name: method}
	for attempt := 1; ; attempt++ {
		cl.attempt = attempt
		start := time.Now()
		r, reply, e := c.post(ctx, op, "/info", body, false, limit)
		if e == nil {
			e = c.decodeResult(ctx, op, r, out)
			c.logCall(ctx, cl, start, body, reply, r.status, e)
			if e != nil {
				return e
			}
			return nil
		}
		c.logCall(ctx, cl, start, body, reply, 0, e)
		wait, again := c.backoff(e, attempt)
		if !again || ctx.Err() != nil {
			return e
		}
		if sleepCtx(ctx, wait) != nil {
			return e
		}
	}
}

// decodeResult decodes a 2xx body (checked against the limits as it was read) into out; a
// mismatch is a KindDecode error. A JSON object that fills none of a record's fields (an answer
// to another question) is a mismatch too. A list answer (see rows) drops its bad rows: each is
// logged and counted in the context's Drops.
func (c *Client) decodeResult(ctx context.Context, op string, r *response, out any) *Error {
	into := out
	if rd, ok := out.(rowsDecoder); ok {
		into = rd.target()
		rd.setDrop(c.rowDropper(ctx, op))
	}
	if err := json.Unmarshal(r.body, out); err != nil {
		return &Error{Kind: KindDecode, Op: op, Status: r.status, Message: shortErr(err).Error(), Err: err}
	}
	if b := bytes.TrimSpace(r.body); len(b) > 0 && b[0] == '{' {
		if v := reflect.ValueOf(into).Elem(); v.Kind() == reflect.Struct && v.IsZero() {
			return &Error{Kind: KindDecode, Op: op, Status: r.status,
				Message: "the answer has none of the record's fields: " + bodySnippet(r.body)}
		}
	}
	return nil
}

// rowDropper reports a row of op's answer left out: logged, and counted in the context's Drops.
func (c *Client) rowDropper(ctx context.Context, op string) dropFunc {
	drops, _ := ctx.Value(dropsKey{}).(*Drops)
	return func(_ int, err error) {
		why := text.Clean(truncate(err.Error(), 200))
		if l := c.log(); l != nil {
			l.WarnContext(ctx, "api row dropped", "method", strings.TrimPrefix(op, "info "), "reason", why)
		}
		if drops != nil {
			drops.add(op + ": " + why)
		}
	}
}

// user resolves the user parameter: the given address checksummed, or the client's own account.
func (c *Client) user(method, user string) (string, error) {
	if user == "" {
		user = c.Address()
		if user == "" {
			return "", invalid("info "+method, "no user given and the client has no account (set a key or an address)")
		}
	}
	a, err := ChecksumAddress(user)
	if err != nil {
		return "", invalid("info "+method, "user: %v", err)
	}
	return a, nil
}

func pageArgs(p PageParams) (page, limit int) {
	page, limit = p.Page, p.Limit
	if page < 1 {
		page = 1
	}
	if limit < 1 {
		limit = DefaultPageSize
	}
	return page, limit
}

// AccountSummary fetches balances, margin and positions of user ("" = the client's account).
func (c *Client) AccountSummary(ctx context.Context, user string) (AccountSummary, error) {
	var out AccountSummary
	u, err := c.user(MethodAccountSummary, user)
	if err != nil {
		return out, err
	}
	if err := c.info(ctx, MethodAccountSummary, userParams{u}, &out); err != nil {
		return out, err
	}
	if err := otherAccount("account summary", out.Address, u); err != nil {
		return AccountSummary{}, &Error{Kind: KindDecode, Op: "info " + MethodAccountSummary, Message: err.Error(), Err: err}
	}
	return out, nil
}

// BrokersCheck fetches one page of the brokers user approved, optionally only broker.
func (c *Client) BrokersCheck(ctx context.Context, user, broker string, p PageParams) (Page[BrokerApproval], error) {
	var out Page[BrokerApproval]
	u, err := c.user(MethodBrokersCheck, user)
	if err != nil {
		return out, err
	}
	if broker != "" {
		if broker, err = ChecksumAddress(broker); err != nil {
			return out, invalid("info "+MethodBrokersCheck, "broker: %v", err)
		}
	}
	page, limit := pageArgs(p)
	return out, c.info(ctx, MethodBrokersCheck, brokersParams{u, broker, page, limit}, pageOf(&out))
}

// Instruments fetches contract terms; kind is perps, spot or all ("" = all).
func (c *Client) Instruments(ctx context.Context, kind string) (Instruments, error) {
	var out Instruments
	if kind == "" {
		kind = "all"
	}
	if kind != "perps" && kind != "spot" && kind != "all" {
		return out, invalid("info "+MethodInstruments, "type %q: want perps, spot or all", truncate(kind, 40))
	}
	return out, c.info(ctx, MethodInstruments, typeParams{kind}, &instrumentRows{out: &out})
}

// Chart fetches candles. From and To are Unix seconds (values above 10^11 are taken as
// milliseconds and sent as seconds); the instrument goes out both as symbol (its id as text, as
// the spec says) and instrument_id (as the SDKs send it).
func (c *Client) Chart(ctx context.Context, p ChartParams) ([]Candle, error) {
	op := "info " + MethodChart
	if !slices.Contains(ChartTypes, p.ChartType) {
		return nil, invalid(op, "chart type %q: want one of %s", truncate(p.ChartType, 20), strings.Join(ChartTypes, ", "))
	}
	if !slices.Contains(Resolutions, p.Resolution) {
		return nil, invalid(op, "resolution %q: want one of %s", truncate(p.Resolution, 20), strings.Join(Resolutions, ", "))
	}
	p.From, p.To = unixSeconds(p.From), unixSeconds(p.To)
	if p.From <= 0 || p.To <= p.From {
		return nil, invalid(op, "time range %d..%d: want Unix seconds with from > 0 and to after from", p.From, p.To)
	}
	var out []Candle
	params := chartParams{strconv.FormatInt(int64(p.InstrumentID), 10), p.InstrumentID, p.ChartType, p.Resolution, p.From, p.To}
	return out, c.info(ctx, MethodChart, params, rowsOf(&out))
}

// Fills fetches one page of user's fills (another account's are dropped: see ownRows).
func (c *Client) Fills(ctx context.Context, user string, p PageParams) (Page[Fill], error) {
	return ownPage(c, ctx, MethodFills, user, p, "fill", fillOwner)
}

// OrderHistory fetches one page of user's orders, every state (another account's are dropped:
// see ownRows).
func (c *Client) OrderHistory(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error) {
	return ownPage(c, ctx, MethodOrderHistory, user, p, "order", orderOwner)
}

// ownPage fetches one page of user's records of method, and keeps user's (ownRows).
func ownPage[T any](c *Client, ctx context.Context, method, user string, p PageParams, what string, owner func(*T) string) (Page[T], error) {
	var out Page[T]
	u, err := c.paged(ctx, method, user, p, pageOf(&out))
	if err != nil {
		return out, err
	}
	out.Data, err = ownRows(c, ctx, method, u, what, out.Data, owner)
	return out, err
}

// paged runs a paged method for user; it returns the user asked for (checksummed).
func (c *Client) paged(ctx context.Context, method, user string, p PageParams, out any) (string, error) {
	u, err := c.user(method, user)
	if err != nil {
		return "", err
	}
	page, limit := pageArgs(p)
	return u, c.info(ctx, method, pagedParams{u, page, limit}, out)
}

// OpenOrders fetches one page of user's resting orders. When the server does not know open_orders
// (it is not in the spec), the client remembers that and from then on reads order_history, keeps
// the orders whose state is open (up to 20 history pages) and returns them as one page.
func (c *Client) OpenOrders(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error) {
	if !c.noOpenOrders.Load() {
		out, err := ownPage(c, ctx, MethodOpenOrders, user, p, "order", orderOwner)
		if err == nil || !isUnknownMethod(err) {
			return out, err
		}
		c.noOpenOrders.Store(true)
	}
	return c.openOrdersFromHistory(ctx, user, p)
}

func (c *Client) openOrdersFromHistory(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error) {
	_, limit := pageArgs(p)
	fetch := func(ctx context.Context, pp PageParams) (Page[OrderRecord], error) {
		return c.OrderHistory(ctx, user, pp)
	}
	var open []OrderRecord
	err := walkPages(ctx, fetch, limit, maxFallbackPages, func(pg Page[OrderRecord]) bool {
		for _, o := range pg.Data {
			if o.State == StateOpen {
				open = append(open, o)
			}
		}
		return true
	})
	if err != nil {
		return Page[OrderRecord]{}, err
	}
	if p.Page > 1 {
		open = nil
	}
	return Page[OrderRecord]{Data: open, Page: max(p.Page, 1), Limit: len(open), TotalCount: len(open), TotalPages: 1, HasPrev: p.Page > 1}, nil
}

// isUnknownMethod recognises the server's answer to a method it does not have.
func isUnknownMethod(err error) bool {
	e, ok := AsError(err)
	if !ok || (e.Kind != KindHTTP && e.Kind != KindServer) {
		return false
	}
	if e.Status == 404 || e.Status == 501 {
		return true
	}
	m := strings.ToLower(e.Message)
	for _, s := range []string{"unknown method", "method not found", "unsupported method", "invalid method", "not supported", "no such method", "unknown info method"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// InstrumentLeverage fetches user's leverage setting on one instrument (by name). The exchange
// answers {} (or null) when the account has no setting there: that is the zero record and no
// error (its Leverage is zero: the instrument's default applies).
func (c *Client) InstrumentLeverage(ctx context.Context, user, symbol string) (InstrumentLeverage, error) {
	var out InstrumentLeverage
	u, err := c.user(MethodInstrumentLeverage, user)
	if err != nil {
		return out, err
	}
	if symbol == "" {
		return out, invalid("info "+MethodInstrumentLeverage, "symbol is empty: want an instrument name such as BTC-PERP")
	}
	var raw json.RawMessage
	if err := c.info(ctx, MethodInstrumentLeverage, leverageParams{u, symbol}, &raw); err != nil {
		return out, err
	}
	if noSetting(raw) {
		return out, nil
	}
	op := "info " + MethodInstrumentLeverage
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, &Error{Kind: KindDecode, Op: op, Message: shortErr(err).Error(), Err: err}
	}
	if out.Instrument == "" && out.Address == "" && out.Leverage.IsZero() {
		return out, &Error{Kind: KindDecode, Op: op, Message: "the answer has none of the record's fields: " + bodySnippet(raw)}
	}
	return out, nil
}

// noSetting reports an answer that is an empty object or null: no record.
func noSetting(raw []byte) bool {
	var m map[string]json.RawMessage
	return string(bytes.TrimSpace(raw)) == "null" || (json.Unmarshal(raw, &m) == nil && len(m) == 0)
}

// SupportedCollateral fetches collateral assets; symbol is one collateral symbol or "all" ("" = all).
func (c *Client) SupportedCollateral(ctx context.Context, symbol string) ([]Collateral, error) {
	var out []Collateral
	return out, c.info(ctx, MethodSupportedCollateral, symbolParams{orAll(symbol)}, rowsOf(&out))
}

// Positions fetches user's open positions.
func (c *Client) Positions(ctx context.Context, user string) ([]Position, error) {
	var out []Position
	u, err := c.user(MethodPositions, user)
	if err != nil {
		return out, err
	}
	if err := c.info(ctx, MethodPositions, userParams{u}, rowsOf(&out)); err != nil {
		return out, err
	}
	return ownRows(c, ctx, MethodPositions, u, "position", out, positionOwner)
}

// Ticker fetches market summaries; symbol is an instrument name or "all" ("" = all).
func (c *Client) Ticker(ctx context.Context, symbol string) ([]Ticker, error) {
	var out []Ticker
	return out, c.info(ctx, MethodTicker, symbolParams{orAll(symbol)}, rowsOf(&out))
}

// Mids fetches mid prices; symbol is an instrument name or "all" ("" = all).
func (c *Client) Mids(ctx context.Context, symbol string) ([]Mid, error) {
	var out []Mid
	return out, c.info(ctx, MethodMids, symbolParams{orAll(symbol)}, rowsOf(&out))
}

// OrderBook fetches the book of one instrument (by name); depth 0 means the server's default.
func (c *Client) OrderBook(ctx context.Context, symbol string, depth int) (OrderBook, error) {
	var out OrderBook
	if symbol == "" {
		return out, invalid("info "+MethodOrderBook, "symbol is empty: want an instrument name such as BTC-PERP")
	}
	if depth < 0 {
		return out, invalid("info "+MethodOrderBook, "depth %d: want 0 (default) or more", depth)
	}
	return out, c.info(ctx, MethodOrderBook, bookParams{symbol, depth}, &out)
}

// unixSeconds turns a Unix time in milliseconds (any value above 10^11) into seconds.
func unixSeconds(t int64) int64 {
	if t > 1e11 {
		return t / 1000
	}
	return t
}

func orAll(symbol string) string {
	if symbol == "" {
		return "all"
	}
	return symbol
}
