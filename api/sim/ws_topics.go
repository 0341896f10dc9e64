package sim

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
)

// Subscriptions: a subscribe's params read into a topic the tap watches, with the topic's current
// state to send first, and an unsubscribe's topic forgotten.

// wsParams is the union of both SDK generations' subscribe params.
type wsParams struct {
	Channel      string     `json:"channel"`
	Symbol       flexString `json:"symbol"`
	InstrumentID flexString `json:"instrument_id"`
	InstrumentId flexString `json:"instrumentId"` //nolint:revive // beta.13's name
	User         string     `json:"user"`
	Address      string     `json:"address"`
	ChartType    string     `json:"chart_type"`
	Resolution   flexString `json:"resolution"`
}

// channel names of beta.13 and their newer names.
var channelAliases = map[string]string{"trade": "trades", "order": "orders"}

// tapAdd registers a subscription with the tap (under Sim.mu) and returns its channel id and the
// topic's current state to send first.
func (s *Sim) tapAdd(p wsParams) (string, []any, error) {
	if s.ws.tap == nil {
		s.ws.tap = newTap()
	}
	ch := strings.ToLower(strings.TrimSpace(p.Channel))
	if a, ok := channelAliases[ch]; ok {
		ch = a
	}
	switch ch {
	case "ticker", "mids", "bbo", "orderbook", "trades":
		return s.tapMarket(ch, p)
	case "chart":
		return s.tapChart(p)
	case "mirror":
		return s.tapMirror()
	case "orders", "fills", "position", "account_summary", "balance":
		return s.tapUser(ch, p)
	case "":
		return "", nil, fmt.Errorf("params.channel is missing: use ticker, mids, bbo, orderbook, trades, chart, orders, fills, position, account_summary")
	}
	return "", nil, fmt.Errorf("unknown channel %q: use ticker, mids, bbo, orderbook, trades, chart, orders, fills, position, account_summary (beta.13: trade, order, balance)", trunc(p.Channel, 40))
}

// tapUser registers an account channel: params.user (or beta.13's address).
func (s *Sim) tapUser(ch string, p wsParams) (string, []any, error) {
	t, e := s.ws.tap, s.eng
	user := p.User
	if user == "" {
		user = p.Address
	}
	addr, err := canonical(user)
	if err != nil {
		return "", nil, fmt.Errorf("%s: params.user: %v", ch, err)
	}
	w := t.users[addr]
	if w == nil {
		w = &userWatch{}
		t.users[addr] = w
	}
	var first []any
	a := e.accounts[addr]
	switch ch {
	case "orders":
		w.orders++
	case "fills":
		w.fills++
	case "position":
		w.positions++
		if a != nil {
			first = append(first, positionsOut(e.positions(a)))
		}
	case "account_summary":
		w.summary++
		first = append(first, summaryOut(e.summary(e.view(addr))))
	case "balance":
		w.balance++
		first = append(first, balanceOut(addr, e.summary(e.view(addr)), e.now()))
	}
	if !w.primed {
		if a != nil {
			w.prime(a)
		} else {
			w.primed, w.open = true, map[api.OrderID]orderSnap{} // a new account: everything it does is news
		}
	}
	return ch + ":" + addr, first, nil
}

// tapMarket registers a market channel.
func (s *Sim) tapMarket(ch string, p wsParams) (string, []any, error) {
	t, e := s.ws.tap, s.eng
	sym := strings.TrimSpace(string(p.Symbol))
	if sym == "" {
		sym = strings.TrimSpace(string(p.InstrumentId))
	}
	if sym == "" {
		sym = strings.TrimSpace(string(p.InstrumentID))
	}
	if sym == "" {
		return "", nil, fmt.Errorf("%s: params.symbol is missing: send an instrument name such as BTC-PERP", ch)
	}
	if strings.EqualFold(sym, "all") && (ch == "ticker" || ch == "mids") {
		return ch + ":all", s.tapAll(ch), nil
	}
	m, err := e.marketByName(sym)
	if err != nil {
		return "", nil, fmt.Errorf("%s: params.symbol: %v", ch, err)
	}
	w := t.watch(m)
	var first []any
	switch ch {
	case "ticker":
		w.ticker++
		first = append(first, tickerOut(e, m))
	case "mids":
		t.mids[m.name]++
		first = append(first, midsOut([]*market{m}))
	case "bbo":
		w.bbo++
		first = append(first, bboOut(e, m))
	case "orderbook":
		if w.book == 0 {
			w.bids, w.asks = levels(m, true), levels(m, false)
			w.seq++
		}
		w.book++
		first = append(first, w.snapshot(e, m))
	case "trades":
		if w.trades == 0 && len(m.trades) > 0 {
			w.lastTid = m.trades[len(m.trades)-1].id
		}
		w.trades++
	}
	return ch + ":" + m.name, first, nil
}

// tapAll registers the ticker or mids channel ch of every market, and returns its first messages.
func (s *Sim) tapAll(ch string) []any {
	t, e := s.ws.tap, s.eng
	for _, m := range e.markets {
		t.watch(m).ticker += boolInt(ch == "ticker")
	}
	var first []any
	if ch == "ticker" {
		for _, m := range e.markets {
			first = append(first, tickerOut(e, m))
		}
	} else {
		t.mids["all"]++
		first = append(first, midsOut(e.markets))
	}
	return first
}

// tapChart registers a chart channel: instrument_id (or beta.13's symbol), chart_type, resolution.
func (s *Sim) tapChart(p wsParams) (string, []any, error) {
	e := s.eng
	sym := p.InstrumentID
	if sym == "" {
		sym = p.Symbol
	}
	if sym == "" {
		return "", nil, fmt.Errorf("chart: params.instrument_id is missing: send the instrument id")
	}
	m, err := e.marketByName(string(sym))
	if err != nil {
		return "", nil, fmt.Errorf("chart: params.instrument_id: %v", err)
	}
	ct := strings.ToLower(p.ChartType)
	if ct == "" {
		ct = "ltp"
	}
	kind, ok := chartTypeNames[ct]
	if !ok {
		return "", nil, fmt.Errorf("chart: params.chart_type %q: want mark, index or ltp", trunc(p.ChartType, 20))
	}
	res, err := resolutionIndex(string(p.Resolution))
	if err != nil {
		return "", nil, fmt.Errorf("chart: params.%v", err)
	}
	key := chartTopic{m, kind, res}
	w := s.ws.tap.charts[key]
	if w == nil {
		w = &chartWatch{}
		s.ws.tap.charts[key] = w
	}
	w.subs++
	var first []any
	if bars := m.charts.series(kind, res).bars; len(bars) > 0 {
		w.last = m.charts.candle(m, kind, bars[len(bars)-1])
		first = append(first, candleOut(w.last))
	}
	return key.key(), first, nil
}

func (t *tap) watch(m *market) *marketWatch {
	w := t.markets[m]
	if w == nil {
		w = &marketWatch{top: topOf(m)}
		t.markets[m] = w
	}
	return w
}

func midsOut(ms []*market) []api.Mid {
	out := make([]api.Mid, 0, len(ms))
	for _, m := range ms {
		out = append(out, api.Mid{Symbol: m.name, MidPrice: m.mid()})
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tapRemove forgets one subscription of a topic (under Sim.mu).
func (s *Sim) tapRemove(topic string) {
	t := s.ws.tap
	if t == nil {
		return
	}
	ch, rest, _ := strings.Cut(topic, ":")
	switch ch {
	case "ticker", "mids", "bbo", "orderbook", "trades":
		s.untapMarket(ch, rest)
	case "chart":
		t.untapChart(topic)
	default:
		t.untapUser(ch, rest)
	}
}

// untapMarket forgets one subscription of market channel ch for instrument name (or "all").
func (s *Sim) untapMarket(ch, name string) {
	t, e := s.ws.tap, s.eng
	if name == "all" {
		if ch == "mids" {
			t.mids["all"]--
			return
		}
		for _, m := range e.markets {
			t.markets[m].ticker--
		}
		return
	}
	m, err := e.marketByName(name)
	if err != nil || t.markets[m] == nil {
		return
	}
	w := t.markets[m]
	switch ch {
	case "ticker":
		w.ticker--
	case "mids":
		t.mids[m.name]--
	case "bbo":
		w.bbo--
	case "orderbook":
		w.book--
	case "trades":
		w.trades--
	}
}

// untapChart forgets one subscription of a chart topic, and the topic with its last.
func (t *tap) untapChart(topic string) {
	for k, w := range t.charts {
		if k.key() == topic {
			if w.subs--; w.subs <= 0 {
				delete(t.charts, k)
			}
		}
	}
}

// untapUser forgets one subscription of account channel ch for address addr, and the account's
// watch with its last.
func (t *tap) untapUser(ch, addr string) {
	w := t.users[addr]
	if w == nil {
		return
	}
	switch ch {
	case "orders":
		w.orders--
	case "fills":
		w.fills--
	case "position":
		w.positions--
	case "account_summary":
		w.summary--
	case "balance":
		w.balance--
	}
	if w.orders+w.fills+w.positions+w.summary+w.balance <= 0 {
		delete(t.users, addr)
	}
}
