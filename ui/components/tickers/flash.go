package tickers

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Price flashes: a mark that moved is highlighted up or down for flashFor at least. The highlight
// ends with the first change of the tickers after that, drawn in the frame that change draws
// anyway, or flashLinger later when the market is quiet: an idle console whose market moves once
// a second draws one frame a second, not a second one for the flash's end (issue #34).

// flashFor is how long a changed price stays highlighted at least.
const flashFor = 500 * time.Millisecond

// flashLinger is how long after flashFor a highlight waits for the tickers' next change.
const flashLinger = time.Second

// FlashEndMsg ends the price flashes due by At.
type FlashEndMsg struct{ At time.Time }

// flash is one symbol's highlight: until when, and which way the mark moved.
type flash struct {
	until time.Time
	up    bool
}

// endFlashes ends the flashes due by at and sets the timer for the others: flashLinger after the
// next one is due, superseding the one set before.
func (p *Pane) endFlashes(at time.Time) tea.Cmd {
	var next time.Time
	for s, f := range p.flashes {
		if !f.until.After(at) {
			delete(p.flashes, s) // its row is drawn again (redrawRows)
		} else if next.IsZero() || f.until.Before(next) {
			next = f.until
		}
	}
	if next.IsZero() {
		return nil
	}
	return common.Tea(p.Feed.AfterFor(p, next.Add(flashLinger).Sub(at), FlashEndMsg{At: next.Add(flashLinger)}))
}

// startFlashes starts a flash for every mark that moved since before, the tickers last taken,
// and reports whether any did. The store hands out a list that names the instruments in the
// same order from one change to the next, so each ticker is compared with the one at its index
// in before; only when the order changed are before's marks looked up by name.
func (p *Pane) startFlashes(before []api.Ticker) bool {
	now, started := p.Clock(), false
	var byName map[string]decimal.Decimal
	for i := range p.tickers {
		t := &p.tickers[i]
		var old decimal.Decimal
		seen := i < len(before) && before[i].Symbol == t.Symbol
		if seen {
			old = before[i].MarkPrice
		} else {
			if byName == nil {
				byName = make(map[string]decimal.Decimal, len(before))
				for _, b := range before {
					byName[b.Symbol] = b.MarkPrice
				}
			}
			old, seen = byName[t.Symbol]
		}
		if seen && !old.Equal(t.MarkPrice) {
			p.flashes[t.Symbol] = flash{until: now.Add(flashFor), up: t.MarkPrice.GreaterThan(old)}
			started = true
		}
	}
	return started
}
