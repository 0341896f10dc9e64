package tickers

import (
	"time"

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
			delete(p.flashes, s)
			p.tbl.Invalidate()
		} else if next.IsZero() || f.until.Before(next) {
			next = f.until
		}
	}
	if next.IsZero() {
		return nil
	}
	return common.Tea(p.Feed.AfterFor(p, next.Add(flashLinger).Sub(at), FlashEndMsg{At: next.Add(flashLinger)}))
}
