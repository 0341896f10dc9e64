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
	sort.SliceStable(p.rows, func(a, b int) bool {
		ta, tb := &p.tickers[p.rows[a]], &p.tickers[p.rows[b]]
		// Favourites first, then the sort column.
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
	})
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
