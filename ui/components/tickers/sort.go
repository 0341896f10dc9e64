package tickers

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Sorting and filtering: the display order of the tickers.

// nextSortCol is the column o sorts on next: the next one shown (a hidden column's order would
// show no arrow), skipping the favourites star, back to Instrument after the last.
func (p *Pane) nextSortCol() int {
	for c := (p.sortCol + 1) % tcCount; c != p.sortCol; c = (c + 1) % tcCount {
		if c != tcFav && p.visible(c) {
			return c
		}
	}
	return tcName
}

// setSortTitles marks the sort column's title with the sort's direction.
func (p *Pane) setSortTitles() {
	names := []string{"★", "Instrument", "Mark", "Last", "24h %", "Bid", "Ask", "Mid", "Funding", "Open int.", "Vol 24h"}
	for i, n := range names {
		if i == p.sortCol {
			if p.desc {
				n += "▼"
			} else {
				n += "▲"
			}
		}
		p.tbl.SetTitle(i, n)
	}
}

// resort rebuilds the display order from the filter, favourites and sort column, keeping the
// cursor on the same instrument.
func (p *Pane) resort() {
	cur := p.Selected()
	f := strings.ToUpper(strings.TrimSpace(p.filter.Value()))
	p.rows = p.rows[:0]
	for i, t := range p.tickers {
		if p.favOnly && !p.favs[t.Symbol] {
			continue
		}
		if f != "" && !strings.Contains(strings.ToUpper(t.Symbol), f) {
			continue
		}
		p.rows = append(p.rows, i)
	}
	sort.SliceStable(p.rows, func(a, b int) bool { return p.less(p.rows[a], p.rows[b]) })
	p.tbl.SetRows(len(p.rows))
	if cur != "" {
		for i, r := range p.rows {
			if p.tickers[r].Symbol == cur {
				p.tbl.MoveTo(i)
				break
			}
		}
	}
}

// less orders the tickers at indexes a and b as the list shows them: favourites first, then by
// the sort column, then by name (every two rows are ordered: any sort gives the same order).
func (p *Pane) less(a, b int) bool {
	ta, tb := &p.tickers[a], &p.tickers[b]
	if fa, fb := p.favs[ta.Symbol], p.favs[tb.Symbol]; fa != fb {
		return fa
	}
	c := compareTickers(ta, tb, p.sortCol)
	if c == 0 {
		c = strings.Compare(ta.Symbol, tb.Symbol)
	}
	if p.desc {
		return c > 0
	}
	return c < 0
}

// reorder puts the rows in order after the tickers changed (before: the list taken last). A
// list that names the same instruments in the same order keeps the filter's and favourites'
// rows, and their order moves only where a row's sort figure did: by name not at all, by a
// figure an insertion fix-up of the rows that moved. A stream of 509 instruments changes a few
// figures a batch; sorting every row each time was most of the pane's work (issue #34).
func (p *Pane) reorder(before []api.Ticker) {
	if !sameSymbols(before, p.tickers) {
		p.resort()
		return
	}
	if p.sortCol == tcName || !p.sortMoved(before) {
		return
	}
	cur := p.Selected()
	p.fixOrder()
	for i, r := range p.rows {
		if p.tickers[r].Symbol == cur {
			p.tbl.MoveTo(i)
			break
		}
	}
}

// sameSymbols reports whether two lists name the same instruments in the same order.
func sameSymbols(a, b []api.Ticker) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Symbol != b[i].Symbol {
			return false
		}
	}
	return true
}

// sortMoved reports whether a ticker's sort figure changed since before (the same instruments
// in the same order).
func (p *Pane) sortMoved(before []api.Ticker) bool {
	for i := range p.tickers {
		if compareTickers(&before[i], &p.tickers[i], p.sortCol) != 0 {
			return true
		}
	}
	return false
}

// fixOrder sorts rows that were in order before some figures moved, by insertion: each row moves
// past the rows it now sorts before, so a few moved rows cost a pass. A list turned round (more
// than a few moves a row) is sorted instead.
func (p *Pane) fixOrder() {
	rows, moves := p.rows, 0
	for i := 1; i < len(rows); i++ {
		r, j := rows[i], i
		for ; j > 0 && p.less(r, rows[j-1]); j-- {
			rows[j] = rows[j-1]
		}
		rows[j] = r
		if moves += i - j; moves > 4*len(rows) {
			sort.SliceStable(rows, func(a, b int) bool { return p.less(rows[a], rows[b]) })
			return
		}
	}
}

// compareTickers orders a and b by column col's figure.
func compareTickers(a, b *api.Ticker, col int) int {
	switch col {
	case tcMark:
		return a.MarkPrice.Cmp(b.MarkPrice)
	case tcLast:
		return a.LastPrice.Cmp(b.LastPrice)
	case tcChange:
		return changePct(*a).Cmp(changePct(*b))
	case tcBid:
		return a.BestBidPrice.Cmp(b.BestBidPrice)
	case tcAsk:
		return a.BestAskPrice.Cmp(b.BestAskPrice)
	case tcMid:
		return a.MidPrice.Cmp(b.MidPrice)
	case tcFunding:
		return a.FundingRate.Cmp(b.FundingRate)
	case tcOI:
		return a.OpenInterest.Cmp(b.OpenInterest)
	case tcVolume:
		return a.Volume24h.Cmp(b.Volume24h)
	}
	return strings.Compare(a.Symbol, b.Symbol)
}

// changePct is the 24 h change in percent.
func changePct(t api.Ticker) decimal.Decimal {
	return t.Change24h
}
