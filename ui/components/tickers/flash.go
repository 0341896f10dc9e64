package tickers

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Price flashes: a mark that moved is highlighted up or down for flashFor.

// flashFor is how long a changed price stays highlighted.
const flashFor = 500 * time.Millisecond

// FlashEndMsg ends the price flashes that started before At.
type FlashEndMsg struct{ At time.Time }

// flash is one symbol's highlight: until when, and which way the mark moved.
type flash struct {
	until time.Time
	up    bool
}

// endFlashes ends the flashes due by at, and waits for the next one due.
func (p *Pane) endFlashes(at time.Time) tea.Cmd {
	p.flashOn = false
	var next time.Time
	for s, f := range p.flashes {
		if !f.until.After(at) {
			delete(p.flashes, s)
		} else if next.IsZero() || f.until.Before(next) {
			next = f.until
		}
	}
	p.tbl.Invalidate()
	if !next.IsZero() {
		p.flashOn = true
		wait := next.Sub(at)
		return common.Tea(p.Feed.After(wait, FlashEndMsg{At: next}))
	}
	return nil
}
