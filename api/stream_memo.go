package api

import (
	"sync"

	"github.com/shopspring/decimal"
)

// decodeMemo keeps, by instrument, the strings and decimals the last streamed ticker and mid
// were decoded into, with the plain text each decimal was made from. A ticker streams once a
// second for every instrument that moved, and most of its fourteen figures (the index, the
// band, the funding, the sizes, the day's figures) are the same as in the last one: each is
// taken from the memo where its coefficient and exponent are the same, so it is the decimal
// decimal.New would make (a decimal is never changed in place, so two tickers may share one),
// and only the figures that moved are allocated (issue #34: at 509 instruments these were a
// quarter of the demo's allocations). It is shared by every stream of the process (a stream's
// records are the same values whichever memo they came from) and holds at most
// MaxMarketRecords instruments of each kind: a new one past that starts it over, so a stream of
// made-up names cannot fill it for good.
type decodeMemo struct {
	mu       sync.Mutex
	tickers  map[string]*tickerMemo
	mids     map[string]*midMemo
	channels map[string]string // a notification's channel id, as its text, so that each frame does not copy it
}

// maxMemoChannels is the most channel ids the memo keeps (a connection holds at most 1,000
// subscriptions; the exchange's limit).
const maxMemoChannels = 2048

// tickerMemo is one instrument's last ticker as decoded: its strings, its key, and each plain
// price's decimal with the number it was made from (has: one was).
type tickerMemo struct {
	sym, typ, key string
	p             [tickerPrices]plainNum
	d             [tickerPrices]decimal.Decimal
}

// midMemo is one instrument's last mid as decoded.
type midMemo struct {
	sym string
	p   plainNum
	d   decimal.Decimal
}

var streamMemo = decodeMemo{tickers: map[string]*tickerMemo{}, mids: map[string]*midMemo{}, channels: map[string]string{}}

// channel is the channel id whose text is b, the memo's copy (past maxMemoChannels it starts
// over).
func (m *decodeMemo) channel(b []byte) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.channels[string(b)]; ok {
		return c
	}
	if len(m.channels) == maxMemoChannels {
		clear(m.channels)
	}
	c := string(b)
	m.channels[c] = c
	return c
}

// ticker finishes x from what fastTicker read (r): its type, its symbol (instrument_name when
// symbol is empty) and its plain prices, each the memo's where it is the same; it returns the
// ticker's key.
func (m *decodeMemo) ticker(x *Ticker, r *tickerRead) string {
	sym := r.sym
	if len(sym) == 0 {
		sym = r.name
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.tickers[string(sym)]
	if e == nil {
		e = &tickerMemo{sym: string(sym)}
		e.key = "ticker:" + e.sym
		if len(m.tickers) == MaxMarketRecords {
			clear(m.tickers)
		}
		m.tickers[e.sym] = e
	}
	if e.typ != string(r.typ) {
		e.typ = string(r.typ)
	}
	x.Symbol, x.Type = e.sym, e.typ
	for i, p := range r.p {
		if !p.set {
			continue
		}
		if e.p[i] != p {
			e.p[i], e.d[i] = p, decimal.New(p.n, p.e)
		}
		*x.priceAt(i) = e.d[i]
	}
	return e.key
}

// mid finishes a mid from what fastMids read: its symbol's text and its plain price (p.set),
// each the memo's where it is the same.
func (m *decodeMemo) mid(x *Mid, sym []byte, p plainNum) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.mids[string(sym)]
	if e == nil {
		e = &midMemo{sym: string(sym)}
		if len(m.mids) == MaxMarketRecords {
			clear(m.mids)
		}
		m.mids[e.sym] = e
	}
	x.Symbol = e.sym
	if !p.set {
		return
	}
	if e.p != p {
		e.p, e.d = p, decimal.New(p.n, p.e)
	}
	x.MidPrice = e.d
}
