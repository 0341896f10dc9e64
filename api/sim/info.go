package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/tradedesk/tradedesk/api"
)

// flexString accepts a JSON string or number as text.
type flexString string

// UnmarshalJSON implements json.Unmarshaler.
func (f *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexString(s)
		return nil
	}
	if string(b) == "null" {
		*f = ""
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want a string or a number")
	}
	*f = flexString(n.String())
	return nil
}

// infoParams is the union of every /info method's params.
type infoParams struct {
	User         string     `json:"user"`
	Broker       string     `json:"broker"`
	Type         string     `json:"type"`
	Symbol       flexString `json:"symbol"`
	InstrumentID flexString `json:"instrument_id"`
	ChartType    string     `json:"chart_type"`
	Resolution   flexString `json:"resolution"`
	From         api.Int    `json:"from"`
	To           api.Int    `json:"to"`
	Page         api.Int    `json:"page"`
	Limit        api.Int    `json:"limit"`
	Depth        api.Int    `json:"depth"`
}

type infoRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type infoHandler func(s *Sim, p *infoParams) (any, error)

var infoMethods map[string]infoHandler

func init() {
	infoMethods = map[string]infoHandler{
		"account_summary":      (*Sim).infoSummary,
		"brokers_check":        (*Sim).infoBrokers,
		"instruments":          (*Sim).infoInstruments,
		"chart":                (*Sim).infoChart,
		"fills":                (*Sim).infoFills,
		"order_history":        (*Sim).infoHistory,
		"open_orders":          (*Sim).infoOpenOrders,
		"instrument_leverage":  (*Sim).infoLeverage,
		"supported_collateral": (*Sim).infoCollateral,
		"positions":            (*Sim).infoPositions,
		"ticker":               (*Sim).infoTicker,
		"mids":                 (*Sim).infoMids,
		"orderbook":            (*Sim).infoBook,
		"trades":               (*Sim).infoTrades,
		"bbo":                  (*Sim).infoBBO,
		"transfer_history":     (*Sim).infoTransfers,
		"funding_history":      (*Sim).infoFunding,
		"all_agents":           (*Sim).infoAgents, // control.go
		"allAgents":            (*Sim).infoAgents,
	}
}

// info answers one /info query.
func (s *Sim) info(body []byte) (int, any) {
	if _, err := parseJSON(body); err != nil && json.Valid(body) {
		return fail(badRequest("%v", err)) // a key twice, or too deep
	}
	var req infoRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return fail(badRequest("body is not a JSON object {method, params}: %v", err))
	}
	h := infoMethods[req.Method]
	if h == nil {
		return http.StatusNotFound, errorBody{fmt.Sprintf("unknown method %q: use one of %s", trunc(req.Method, 40), methodList())}
	}
	var p infoParams
	if len(bytes.TrimSpace(req.Params)) > 0 && string(req.Params) != "null" {
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return fail(badRequest("%s params: %v", req.Method, err))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out, err := h(s, &p)
	if err != nil {
		return fail(err)
	}
	return http.StatusOK, out
}

func methodList() string {
	return "account_summary, brokers_check, instruments, chart, fills, order_history, open_orders, " +
		"instrument_leverage, supported_collateral, positions, ticker, mids, orderbook, trades, bbo, funding_history, allAgents"
}

// user resolves the user param to an account.
func (s *Sim) user(p *infoParams) (*account, error) {
	if p.User == "" {
		return nil, badRequest("params.user is missing: send the account's 0x address")
	}
	addr, err := canonical(p.User)
	if err != nil {
		return nil, badRequest("params.user: %v", err)
	}
	return s.eng.view(addr), nil
}

func (s *Sim) infoSummary(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	return summaryOut(s.eng.summary(a)), nil
}

func (s *Sim) infoPositions(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	ps := s.eng.positions(a)
	out := make([]positionJSON, len(ps))
	for i, x := range ps {
		out[i] = positionJSON{x, unixSec(x.UpdatedAt.Time)}
	}
	return out, nil
}

func (s *Sim) infoLeverage(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	if p.Symbol == "" {
		return nil, badRequest("params.symbol is missing: send an instrument name such as BTC-PERP")
	}
	m, err := s.eng.marketByName(string(p.Symbol))
	if err != nil {
		return nil, badRequest("%v", err)
	}
	if m.spot {
		return nil, badRequest("%s is a spot pair: it has no leverage", m.name)
	}
	r := s.eng.leverageRecord(a, m)
	return leverageJSON{r, unixSec(r.UpdatedAt.Time)}, nil
}

func (s *Sim) infoInstruments(p *infoParams) (any, error) {
	kind := strings.ToLower(p.Type)
	if kind != "" && kind != "perps" && kind != "spot" && kind != "all" {
		return nil, badRequest("params.type %q: want perps, spot or all", trunc(p.Type, 20))
	}
	out := instrumentsJSON{Perps: []perpJSON{}, Spot: []spotJSON{}}
	for _, m := range s.eng.markets {
		switch {
		case m.spot && kind != "perps":
			out.Spot = append(out.Spot, spotOut(m.spotRecord()))
		case !m.spot && kind != "spot":
			out.Perps = append(out.Perps, perpOut(m.perpRecord()))
		}
	}
	return out, nil
}

func (s *Sim) infoCollateral(p *infoParams) (any, error) {
	sym := strings.TrimSpace(string(p.Symbol))
	if sym == "" {
		return nil, badRequest("params.symbol is missing: send a collateral symbol such as USDC, or all")
	}
	out := []collateralJSON{}
	for _, c := range s.eng.colls {
		if strings.EqualFold(sym, "all") || strings.EqualFold(sym, c.rec.Symbol) {
			out = append(out, collateralOut(c.rec))
		}
	}
	if len(out) == 0 {
		return nil, badRequest("unknown collateral %q: use USDC, USDT, WETH, WBTC or all", trunc(sym, 20))
	}
	return out, nil
}

// marketsFor resolves a ticker or mids symbol: all (or empty) or one instrument.
func (s *Sim) marketsFor(sym flexString) ([]*market, error) {
	if sym == "" || strings.EqualFold(string(sym), "all") {
		return s.eng.markets, nil
	}
	m, err := s.eng.marketByName(string(sym))
	if err != nil {
		return nil, badRequest("%v", err)
	}
	return []*market{m}, nil
}

func (s *Sim) infoTicker(p *infoParams) (any, error) {
	ms, err := s.marketsFor(p.Symbol)
	if err != nil {
		return nil, err
	}
	out := make([]api.Ticker, 0, len(ms))
	for _, m := range ms {
		out = append(out, s.eng.ticker(m))
	}
	return out, nil
}

func (s *Sim) infoMids(p *infoParams) (any, error) {
	ms, err := s.marketsFor(p.Symbol)
	if err != nil {
		return nil, err
	}
	out := make([]api.Mid, 0, len(ms))
	for _, m := range ms {
		out = append(out, api.Mid{Symbol: m.name, MidPrice: m.mid()})
	}
	return out, nil
}

func (s *Sim) infoBook(p *infoParams) (any, error) {
	if p.Symbol == "" {
		return nil, badRequest("params.symbol is missing: send an instrument name such as BTC-PERP")
	}
	m, err := s.eng.marketByName(string(p.Symbol))
	if err != nil {
		return nil, badRequest("%v", err)
	}
	depth := int(p.Depth)
	if depth < 0 || depth > 500 {
		return nil, badRequest("params.depth %d: want 1 to 500 (0 for the default of 20)", depth)
	}
	if depth == 0 {
		depth = 20
	}
	return s.eng.orderBook(m, depth), nil
}

func (s *Sim) infoChart(p *infoParams) (any, error) {
	e := s.eng
	sym := p.Symbol
	if sym == "" {
		sym = p.InstrumentID
	}
	if sym == "" {
		return nil, badRequest("params.symbol or params.instrument_id is missing: send the instrument id")
	}
	m, err := e.marketByName(string(sym))
	if err != nil {
		return nil, badRequest("%v", err)
	}
	kind, ok := chartTypeNames[strings.ToLower(p.ChartType)]
	if !ok {
		return nil, badRequest("params.chart_type %q: want mark, index or ltp", trunc(p.ChartType, 20))
	}
	res, err := resolutionIndex(string(p.Resolution))
	if err != nil {
		return nil, badRequest("params.%v", err)
	}
	for _, v := range []struct {
		name string
		n    api.Int
	}{{"from", p.From}, {"to", p.To}} {
		if v.n < 0 || v.n > maxChartTime {
			return nil, badRequest("params.%s %d: want Unix seconds or milliseconds, 0 to %d", v.name, v.n, int64(maxChartTime))
		}
	}
	from, to := toMillis(int64(p.From)), toMillis(int64(p.To))
	if to == 0 {
		to = e.now().UnixMilli()
	}
	if from < 0 || to < from {
		return nil, badRequest("params.from %d and to %d: want Unix seconds or milliseconds with from <= to", p.From, p.To)
	}
	cs := m.charts.candles(m, kind, res, from, to)
	out := make([]candleJSON, len(cs))
	for i, c := range cs {
		out[i] = candleOut(c)
	}
	return out, nil
}

// maxChartTime bounds chart times before they are scaled (10^14 ms is the year 5138), so that
// seconds × 1000 cannot wrap.
const maxChartTime = 1e14

// toMillis reads a time in Unix seconds or milliseconds (values above 10^11 are milliseconds).
func toMillis(n int64) int64 {
	if n > 1e11 {
		return n
	}
	return n * 1000
}

// maxPage bounds params.page, so that page × limit stays far from any integer limit.
const maxPage = 1_000_000

// page cuts one page out of n records (newest first) and fills the envelope.
func page[T any](n int, p *infoParams, get func(i int) T) (api.Page[T], error) {
	pg, limit := int(p.Page), int(p.Limit)
	if pg == 0 {
		pg = 1
	}
	if limit == 0 {
		limit = 100
	}
	if pg < 1 {
		return api.Page[T]{}, badRequest("params.page %d: pages start at 1", pg)
	}
	if limit < 1 || limit > 1000 {
		return api.Page[T]{}, badRequest("params.limit %d: want 1 to 1000", limit)
	}
	if pg > maxPage {
		return api.Page[T]{}, badRequest("params.page %d: want 1 to %d (no account keeps that many records)", pg, maxPage)
	}
	out := api.Page[T]{Data: []T{}, Page: pg, Limit: limit, TotalCount: n, TotalPages: (n + limit - 1) / limit}
	for i := (pg - 1) * limit; i < n && i < pg*limit; i++ {
		out.Data = append(out.Data, get(i))
	}
	out.HasNext = pg < out.TotalPages
	out.HasPrev = pg > 1
	return out, nil
}

func (s *Sim) infoFills(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	return page(len(a.fills), p, func(i int) fillJSON { return fillOut(a.fillAt(i).record(a.addr)) })
}

func (s *Sim) infoHistory(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	h := a.history
	return page(len(h), p, func(i int) orderJSON { return orderOut(h[len(h)-1-i]) })
}

func (s *Sim) infoOpenOrders(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	open := a.openOrders()
	return page(len(open), p, func(i int) orderJSON { return orderOut(open[i]) })
}

func (s *Sim) infoBrokers(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	list := a.brokers
	if p.Broker != "" {
		b, err := canonical(p.Broker)
		if err != nil {
			return nil, badRequest("params.broker: %v", err)
		}
		list = nil
		for _, x := range a.brokers {
			if x.broker == b {
				list = append(list, x)
			}
		}
	}
	return page(len(list), p, func(i int) brokerJSON {
		x := list[i]
		r := api.BrokerApproval{Account: a.addr, Broker: x.broker, MaxFeeRate: x.maxFee, UpdatedAt: api.Time{Time: x.updated}}
		return brokerJSON{r, unixSec(x.updated)}
	})
}
