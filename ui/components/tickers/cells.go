package tickers

import (
	"slices"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Cells: what each column shows for a ticker, and the Instrument column's width.

// Instrument column widths: at least its title and the sort arrow, at most what a long name may take before it is
// cut with an ellipsis (a hostile server's names included).
const (
	minNameWidth = len("Instrument") + 1
	maxNameWidth = 20
)

// fitNameColumn sizes the Instrument column to the longest name listed, so a narrow pane keeps
// room for the figures (at 120 columns: Mark and 24h %) instead of padding short names.
func (p *Pane) fitNameColumn() {
	w := minNameWidth
	for _, t := range p.tickers {
		w = max(w, common.TextWidth(t.Symbol))
	}
	p.tbl.SetWidths([]int{0, min(w, maxNameWidth)})
	p.fittedTo = len(p.tickers)
}

// spot reports whether sym is a spot market (no funding, no open interest).
func (p *Pane) spot(sym string) bool {
	in, ok := p.Store.Instrument(sym)
	return ok && in.Spot
}

func (p *Pane) priceDecimals(sym string) int32 {
	if d, ok := p.prec[sym]; ok {
		return d
	}
	d := int32(2)
	if in, ok := p.Store.Instrument(sym); ok {
		d = in.PriceDecimals()
	}
	p.prec[sym] = d
	return d
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	t := &p.tickers[p.rows[row]]
	d := p.priceDecimals(t.Symbol)
	st := p.Styles
	switch col {
	case tcFav:
		if p.favs[t.Symbol] {
			return "★", st.Warn
		}
		return " ", common.Paint{}
	case tcName:
		return t.Symbol, st.Bold
	case tcMark:
		s := common.FmtNum(t.MarkPrice, d)
		if f, ok := p.flashes[t.Symbol]; ok {
			if f.up {
				return s + "▲", st.FlashUp
			}
			return s + "▼", st.FlashDown
		}
		return s, st.Text
	case tcLast:
		return common.FmtNum(t.LastPrice, d), st.Text
	case tcChange:
		c := changePct(*t)
		return common.FmtPct(c), common.SignPaint(st, c)
	case tcBid:
		return bookSide(t.BestBidPrice, d, st.Buy, st)
	case tcAsk:
		return bookSide(t.BestAskPrice, d, st.Sell, st)
	case tcMid:
		m := t.MidPrice
		if mid, ok := p.Store.Mid(t.Symbol); ok {
			m = mid
		}
		return common.FmtNum(m, d+1), st.Muted
	case tcFunding:
		if p.spot(t.Symbol) {
			return state.NotApplicable, st.Muted
		}
		return state.FormatFunding(t.FundingRate, state.FundingPeriod), common.SignPaint(st, t.FundingRate)
	case tcOI:
		if p.spot(t.Symbol) {
			return state.NotApplicable, st.Muted
		}
		return state.FormatOpenInterest(t.OpenInterest, t.Symbol), st.Muted
	case tcVolume:
		return common.FmtCompact(t.Volume24h), st.Muted
	}
	return "", common.Paint{}
}

// bookSide is a best bid or ask; an empty side (no orders, e.g. a delisted market) shows a dash,
// not a price of zero a trader could mistake for a quote.
func bookSide(px decimal.Decimal, decimals int32, side common.Paint, st *common.Styles) (string, common.Paint) {
	if !px.IsPositive() {
		return "—", st.Muted
	}
	return common.FmtNum(px, decimals), side
}

// rowKey is everything a row is drawn from that changes with the market: its ticker, the mid
// shown, its flash and its star. Equal keys (same) draw the same row: the decimals of a ticker
// the stream did not change are the same values, so the ticker's are compared as pointers and
// numbers; the mid is compared by value, as the store may work it out anew at each read.
type rowKey struct {
	t     api.Ticker
	mid   decimal.Decimal
	flash int8 // 1 up, -1 down
	fav   bool
}

// same reports whether k and o draw the same row.
func (k *rowKey) same(o *rowKey) bool {
	return k.t == o.t && k.flash == o.flash && k.fav == o.fav && k.mid.Equal(o.mid)
}

// key is row's rowKey now.
func (p *Pane) key(row int) rowKey {
	t := &p.tickers[p.rows[row]]
	k := rowKey{t: *t, fav: p.favs[t.Symbol]}
	if p.midShown { // the store may work a mid out from the book: only when it is drawn
		k.mid = t.MidPrice
		if mid, ok := p.Store.Mid(t.Symbol); ok {
			k.mid = mid
		}
	}
	if f, ok := p.flashes[t.Symbol]; ok {
		k.flash = -1
		if f.up {
			k.flash = 1
		}
	}
	return k
}

// redrawRows has the table draw again the rows on screen whose ticker, mid, flash or star changed
// since they were drawn, and keep the others: a batch of 509 streamed tickers that moved none on
// screen draws no row (issue #34). What changes every row (the instruments, the size, the order
// of a resort) invalidates the whole table.
func (p *Pane) redrawRows() {
	if len(p.drawn) != len(p.rows) {
		p.drawn = slices.Grow(p.drawn[:0], len(p.rows))[:len(p.rows)]
		p.tbl.Invalidate()
	}
	p.midShown = p.visible(tcMid)
	for i := p.tbl.Offset; i < min(p.tbl.Offset+p.tbl.Height, len(p.rows)); i++ {
		if k := p.key(i); !k.same(&p.drawn[i]) {
			p.drawn[i] = k
			p.tbl.InvalidateRow(i)
		}
	}
}
