package tickers

import (
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The watchlist: favourites, and a word for entries that name no instrument.

// Watchlist is the current favourites, sorted.
func (p *Pane) Watchlist() []string {
	var out []string
	for s, ok := range p.favs {
		if ok {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// checkWatchlist says, once the instruments are known, which watchlist entries name none (a typo,
// a market of another exchange): they were dropped without a word.
func (p *Pane) checkWatchlist() tea.Cmd {
	if len(p.Store.Instruments()) == 0 {
		return nil
	}
	p.watchChecked = true
	var unknown []string
	for _, s := range p.Watchlist() {
		if _, ok := p.Store.Instrument(s); !ok {
			unknown = append(unknown, s)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return common.Notice(common.LevelWarn, "watchlist: no instrument named "+strings.Join(unknown, ", ")+" on this exchange (check the config file's watchlist)")
}
