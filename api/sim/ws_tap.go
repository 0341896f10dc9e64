package sim

import (
	"cmp"
	"reflect"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// The tap watches the engine for what the stream's subscribers asked for. It runs under the
// engine's lock, after each action and market step (Sim.publish): it compares what it last
// published with the engine's state and returns what changed, as channel messages. It touches the
// engine only by reading, so matching pays nothing for the stream beyond this comparison, and
// nothing at all while nobody subscribes.

// pub is one channel message: the topic it goes to and its data (marshalled once for every
// subscriber).
type pub struct {
	topic string
	data  any
}

// tap is the stream's view of the engine, by topic.
type tap struct {
	markets map[*market]*marketWatch
	users   map[string]*userWatch // by canonical address
	charts  map[chartTopic]*chartWatch
	mids    map[string]int // "all" or a market name -> subscribers
	// tickers holds one collect's tickers, one array for all the markets that moved rather
	// than one each (500 a step at 500 markets).
	tickers []tickerTicks
	// pubs is the last collect's count of messages: the next one's list starts that large.
	pubs int
	// lists are two collects' message, ticker and mid lists, used in turn. A collect's lists are
	// read until its messages are written out (hub.fanOut), and that ends before the collect after
	// next starts: Sim.publish takes the hub's pubMu before it lets the engine's lock go, so the
	// next collect's publish waits for this one's fanOut before it lets a third collect in. They
	// were made anew each collect, 120 KB a step with --markets 500 streamed.
	lists [2]tapLists
	turn  int
}

// tapLists are the lists one collect fills (tap.lists).
type tapLists struct {
	out     []pub
	tickers []tickerTicks
	mids    midsTicks
}

// nextTicker is room for one more ticker of this collect, of n markets at most.
func (t *tap) nextTicker(n int) *tickerTicks {
	if len(t.tickers) == cap(t.tickers) {
		t.tickers = make([]tickerTicks, 0, n) // the tickers so far stay where they are
	}
	t.tickers = t.tickers[:len(t.tickers)+1]
	return &t.tickers[len(t.tickers)-1]
}

func newTap() *tap {
	return &tap{markets: map[*market]*marketWatch{}, users: map[string]*userWatch{}, charts: map[chartTopic]*chartWatch{},
		mids: map[string]int{}}
}

// marketWatch is what the subscribers of one market's channels last received.
type marketWatch struct {
	ticker, bbo, book, trades int // subscribers per channel (ticker counts "all" too)
	top                       [6]int64
	bids, asks                map[int64]int64 // the book as last published
	seq                       uint64
	lastTid                   api.TradeID
	touched                   bool // this flush: the top of the book or a price moved
}

// userWatch is what the subscribers of one account's channels last received.
type userWatch struct {
	orders, fills, positions, summary, balance int
	open                                       map[api.OrderID]orderSnap
	lastOid                                    api.OrderID
	lastTid                                    api.TradeID
	print                                      string
	lastSummary                                api.AccountSummary
	lastPositions                              []api.Position
	primed                                     bool
}

type orderSnap struct {
	o     *order
	rest  int64
	state string
}

type chartTopic struct {
	m    *market
	kind int
	res  int
}

type chartWatch struct {
	subs int
	last api.Candle
}

// maxBookLevels is how deep the orderbook channel goes on each side.
const maxBookLevels = 500

// collect returns the channel messages of what changed since the last call. step says a market
// step ran (marks moved): every watched account is summarised again.
func (t *tap) collect(e *engine, step bool) []pub {
	l := &t.lists[t.turn]
	t.turn ^= 1
	out := l.out[:0]
	if want := t.pubs + t.pubs/8; cap(out) < want {
		out = make([]pub, 0, want)
	}
	t.tickers = l.tickers[:0]
	for m, w := range t.markets {
		out = t.collectMarket(e, m, w, out)
	}
	l.tickers = t.tickers
	if t.midsWatched() {
		out = t.collectMids(e, l, out)
	}
	l.out = out
	for ct, w := range t.charts {
		out = collectChart(e, ct, w, out)
	}
	for addr, w := range t.users {
		a := e.accounts[addr]
		if a == nil {
			continue
		}
		out = collectUser(e, a, w, step, out)
	}
	t.pubs = len(out)
	return out
}

func (t *tap) midsWatched() bool {
	for _, n := range t.mids {
		if n > 0 {
			return true
		}
	}
	return false
}

// topOf is the figures a ticker and bbo follow.
func topOf(m *market) [6]int64 {
	var t [6]int64
	if l := m.book.best(true); l != nil {
		t[0], t[1] = l.price, l.size
	}
	if l := m.book.best(false); l != nil {
		t[2], t[3] = l.price, l.size
	}
	t[4], t[5] = m.mark, m.last
	return t
}

func (t *tap) collectMarket(e *engine, m *market, w *marketWatch, out []pub) []pub {
	top := topOf(m)
	w.touched = top != w.top
	if w.touched {
		w.top = top
		if w.ticker > 0 {
			tk := t.nextTicker(len(e.markets))
			tk.read(e, m)
			out = append(out, pub{m.tickerTopic(), tk}, pub{"ticker:all", tk})
		}
		if w.bbo > 0 {
			out = append(out, pub{"bbo:" + m.name, bboOut(e, m)})
		}
	}
	if w.book > 0 {
		if u, ok := w.bookDelta(e, m); ok {
			out = append(out, pub{"orderbook:" + m.name, u})
		}
	}
	if w.trades > 0 {
		for _, tr := range m.trades {
			if tr.id > w.lastTid {
				out = append(out, pub{"trades:" + m.name, tradeOut(m, tr)})
				w.lastTid = tr.id
			}
		}
	}
	return out
}

func (t *tap) collectMids(e *engine, l *tapLists, out []pub) []pub {
	all := l.mids[:0]
	if t.mids["all"] > 0 && cap(all) < len(t.markets) {
		all = make(midsTicks, 0, len(t.markets)) // one allocation, not a doubling list's ten
	}
	for _, m := range e.markets {
		w := t.markets[m]
		if w == nil || !w.touched {
			continue
		}
		all = append(all, midOfTicks(m))
		if t.mids[m.name] > 0 {
			out = append(out, pub{"mids:" + m.name, midsJSON{{Symbol: m.name, MidPrice: m.mid()}}})
		}
	}
	l.mids = all
	if len(all) > 0 && t.mids["all"] > 0 {
		out = append(out, pub{"mids:all", &l.mids}) // a pointer: the list in an interface is one more allocation
	}
	return out
}

// levels reads a side of the book as price -> size.
func levels(m *market, buy bool) map[int64]int64 {
	d := m.book.depth(buy, maxBookLevels)
	out := make(map[int64]int64, len(d))
	for _, l := range d {
		out[l[0]] = l[1]
	}
	return out
}

// bookDelta compares the book with what was last published and returns the update, if any.
func (w *marketWatch) bookDelta(e *engine, m *market) (bookJSON, bool) {
	bids, asks := levels(m, true), levels(m, false)
	db, da := diffLevels(m, w.bids, bids), diffLevels(m, w.asks, asks)
	if len(db) == 0 && len(da) == 0 {
		return bookJSON{}, false
	}
	w.bids, w.asks = bids, asks
	w.seq++
	return bookJSON{UpdateType: "update", Instrument: m.name, Books: booksJSON{Bids: db, Asks: da, Seq: w.seq,
		Time: e.now().UnixMilli()}}, true
}

// snapshot is the book as last published, at its sequence number.
func (w *marketWatch) snapshot(e *engine, m *market) bookJSON {
	return bookJSON{UpdateType: "snapshot", Instrument: m.name, Books: booksJSON{Bids: sideOut(m, w.bids, true),
		Asks: sideOut(m, w.asks, false), Seq: w.seq, Time: e.now().UnixMilli()}}
}

func diffLevels(m *market, old, cur map[int64]int64) []levelJSON {
	var out []levelJSON
	for p, sz := range cur {
		if old[p] != sz {
			out = append(out, levelJSON{nm(m.px(p)), nm(m.qty(sz))})
		}
	}
	for p := range old {
		if _, ok := cur[p]; !ok {
			out = append(out, levelJSON{nm(m.px(p)), nm(decimal.Zero)})
		}
	}
	return out
}

func sideOut(m *market, side map[int64]int64, buy bool) []levelJSON {
	ps := make([]int64, 0, len(side))
	for p := range side {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	if buy {
		slices.Reverse(ps)
	}
	out := make([]levelJSON, len(ps))
	for i, p := range ps {
		out[i] = levelJSON{nm(m.px(p)), nm(m.qty(side[p]))}
	}
	return out
}

func collectChart(e *engine, ct chartTopic, w *chartWatch, out []pub) []pub {
	bars := ct.m.charts.series(ct.kind, ct.res).bars
	if len(bars) == 0 {
		return out
	}
	c := ct.m.charts.candle(ct.m, ct.kind, bars[len(bars)-1])
	if reflect.DeepEqual(c, w.last) {
		return out
	}
	w.last = c
	return append(out, pub{ct.key(), candleOut(c)})
}

func (ct chartTopic) key() string {
	return "chart:" + ct.m.name + ":" + chartNames[ct.kind] + ":" + resolutions[ct.res].name
}

var chartNames = [chartTypes]string{"mark", "index", "ltp"}

// collectUser publishes an account's changed orders and new fills, then its positions and
// summary when anything of the account moved (or a market step ran).
func collectUser(e *engine, a *account, w *userWatch, step bool, out []pub) []pub {
	if !w.primed {
		w.prime(a)
	}
	orders := w.changedOrders(a)
	fills := w.newFills(a)
	if w.orders > 0 {
		for _, o := range orders {
			out = append(out, pub{"orders:" + a.addr, streamOrderOut(o)})
		}
	}
	if w.fills > 0 {
		for _, f := range fills {
			out = append(out, pub{"fills:" + a.addr, streamFillOut(f.record(a.addr))})
		}
	}
	print := fingerprint(a)
	if !step && len(orders) == 0 && len(fills) == 0 && print == w.print {
		return out
	}
	w.print = print
	if w.positions > 0 {
		ps := e.positions(a)
		if !reflect.DeepEqual(ps, w.lastPositions) {
			w.lastPositions = ps
			out = append(out, pub{"position:" + a.addr, positionsOut(ps)})
		}
	}
	if w.summary > 0 || w.balance > 0 {
		s := e.summary(a)
		if !reflect.DeepEqual(s, w.lastSummary) {
			w.lastSummary = s
			if w.summary > 0 {
				out = append(out, pub{"account_summary:" + a.addr, summaryOut(s)})
			}
			if w.balance > 0 {
				out = append(out, pub{"balance:" + a.addr, balanceOut(a.addr, s, e.now())})
			}
		}
	}
	return out
}

// prime takes the account as it stands: only what changes from now on is published.
func (w *userWatch) prime(a *account) {
	w.primed = true
	w.open = map[api.OrderID]orderSnap{}
	for id, o := range a.open {
		w.open[id] = orderSnap{o, o.rest, o.state}
		w.lastOid = max(w.lastOid, id)
	}
	if n := len(a.history); n > 0 {
		w.lastOid = max(w.lastOid, a.history[n-1].oid)
	}
	if len(a.fills) > 0 {
		w.lastTid = a.fillAt(0).trade
	}
	w.print = fingerprint(a)
}

// changedOrders returns the account's orders that were placed, filled, cancelled or triggered
// since the last call, oldest first.
func (w *userWatch) changedOrders(a *account) []*order {
	var out []*order
	next := make(map[api.OrderID]orderSnap, len(a.open))
	for id, o := range a.open {
		s, ok := w.open[id]
		if !ok || s.rest != o.rest || s.state != o.state {
			out = append(out, o)
		}
		next[id] = orderSnap{o, o.rest, o.state}
	}
	for id, s := range w.open {
		if _, ok := next[id]; !ok {
			out = append(out, s.o)
		}
	}
	for i := len(a.history) - 1; i >= 0 && a.history[i].oid > w.lastOid; i-- {
		o := a.history[i]
		if _, open := next[o.oid]; !open {
			out = append(out, o) // placed and closed since the last call
		}
	}
	if n := len(a.history); n > 0 {
		w.lastOid = max(w.lastOid, a.history[n-1].oid)
	}
	w.open = next
	slices.SortFunc(out, func(x, y *order) int { return cmp.Compare(x.oid, y.oid) })
	return slices.Compact(out)
}

// newFills returns the fills added since the last call, oldest first.
func (w *userWatch) newFills(a *account) []*fillRec {
	var out []*fillRec
	for i := 0; i < len(a.fills); i++ {
		f := a.fillAt(i)
		if f.trade <= w.lastTid {
			break
		}
		out = append(out, f)
	}
	if len(out) > 0 {
		w.lastTid = out[0].trade
	}
	slices.Reverse(out)
	return out
}

// fingerprint is a cheap summary of an account's balances and positions: when it is unchanged
// and no order or fill moved, neither did the summary (until the marks move).
func fingerprint(a *account) string {
	b := make([]byte, 0, 128)
	for _, m := range []map[api.CollateralID]decimal.Decimal{a.spot, a.deriv} {
		ids := make([]api.CollateralID, 0, len(m))
		for id := range m {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			b = append(b, byte(id))
			b = append(b, m[id].String()...)
		}
		b = append(b, '|')
	}
	ids := make([]api.InstrumentID, 0, len(a.pos))
	for id := range a.pos {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		p := a.pos[id]
		b = append(b, byte(id))
		b = append(b, p.cost.String()...)
		b = append(b, byte(p.size), byte(p.size>>8), byte(p.size>>16))
	}
	return string(b)
}
