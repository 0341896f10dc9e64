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

// infoParams is the union of every /info method's params (infoMethod.readParams reads them).
type infoParams struct {
	User           string
	Broker         string
	Type           string
	Symbol         flexString
	InstrumentID   flexString // chart's instrument
	FilterID       flexString // order_history's and fills' instrument filter
	Instrument     string     // positions' instrument filter (a name)
	ChartType      string
	Resolution     flexString
	From           api.Int
	To             api.Int
	Page           api.Int
	Limit          api.Int
	Depth          api.Int
	Vault          string
	CollateralID   flexString
	IncludeHistory bool
}

type infoHandler func(s *Sim, p *infoParams) (any, error)

// info answers one /info query: {method, params}, the method by either of its names.
func (s *Sim) info(body []byte) (int, any) {
	root, err := parseJSON(body)
	if err != nil {
		return fail(badRequest("%v", err)) // not JSON, a key twice, or too deep
	}
	if root.kind != 'o' {
		return fail(badRequest("body is not a JSON object {method, params}: it is %s", root.kindName()))
	}
	for _, k := range root.keys {
		if k != "method" && k != "params" {
			return fail(badRequest("body has the key %q: send only {method, params}", trunc(k, 40)))
		}
	}
	mv := root.get("method")
	if mv == nil || mv.kind != 's' {
		return fail(badRequest("body.method is missing or not a string: send one of %s", methodList()))
	}
	m := infoByName[mv.text]
	if m == nil {
		return http.StatusNotFound, errorBody{fmt.Sprintf("unknown method %q: use one of %s", trunc(mv.text, 40), methodList())}
	}
	var p infoParams
	if err := m.readParams(root.get("params"), &p); err != nil {
		return fail(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out, err := m.h(s, &p)
	if err != nil {
		return fail(err)
	}
	return http.StatusOK, out
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
	var only *market
	if p.Instrument != "" {
		if only, err = s.eng.marketByName(p.Instrument); err != nil {
			return nil, badRequest("params.instrument: %v", err)
		}
	}
	out := []positionJSON{}
	for _, x := range s.eng.positions(a) {
		if only == nil || x.InstrumentID == only.id {
			out = append(out, positionJSON{x, unixSec(x.UpdatedAt.Time)})
		}
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
		sym = "all" // the SDKs send no symbol (their params are {}): every collateral
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

// filterMarket resolves the instrument filter of order_history and fills (nil: every instrument).
func (s *Sim) filterMarket(p *infoParams) (*market, error) {
	if p.FilterID == "" {
		return nil, nil
	}
	m, err := s.eng.marketByName(string(p.FilterID))
	if err != nil {
		return nil, badRequest("params.instrumentId: %v", err)
	}
	return m, nil
}

func (s *Sim) infoFills(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	m, err := s.filterMarket(p)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return page(len(a.fills), p, func(i int) fillJSON { return a.fillAt(i).out(a.addr) })
	}
	var fs []*fillRec
	for i := range a.fills {
		if f := a.fillAt(i); f.mkt == m {
			fs = append(fs, f)
		}
	}
	return page(len(fs), p, func(i int) fillJSON { return fs[i].out(a.addr) })
}

func (s *Sim) infoHistory(p *infoParams) (any, error) {
	a, err := s.user(p)
	if err != nil {
		return nil, err
	}
	m, err := s.filterMarket(p)
	if err != nil {
		return nil, err
	}
	h := a.history
	if m != nil {
		h = nil
		for _, o := range a.history {
			if o.mkt == m {
				h = append(h, o)
			}
		}
	}
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
