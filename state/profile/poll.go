package profile

import (
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// Intervals is the polling cadence of each kind of data (state.Intervals, where the panes read it
// without the engine this package configures).
type Intervals = state.Intervals

// DefaultIntervals is the cadence of the design (state.DefaultIntervals).
func DefaultIntervals() Intervals { return state.DefaultIntervals() }

// Poll is the [poll] table: durations such as "1s" or "500ms", one per field of Intervals.
type Poll struct {
	Tickers, Account, Positions, Orders, Instruments, Timeout     string
	Fills, History, Leverage, Brokers, Equity, Funding, Transfers string
}

// maxCadence bounds every [poll] setting: slower than this a pane shows day-old data.
const maxCadence = time.Hour

// Intervals is DefaultIntervals with the table's settings; a value that is no duration, or
// outside its kind's range, is an error naming the setting and the range.
func (p Poll) Intervals() (Intervals, error) {
	iv := DefaultIntervals()
	for _, f := range []struct {
		name, val string
		dst       *time.Duration
		min       time.Duration
	}{
		{"tickers", p.Tickers, &iv.Tickers, 200 * time.Millisecond},
		{"account", p.Account, &iv.Account, 500 * time.Millisecond},
		{"positions", p.Positions, &iv.Positions, 500 * time.Millisecond},
		{"orders", p.Orders, &iv.Orders, 500 * time.Millisecond},
		{"instruments", p.Instruments, &iv.Instruments, 10 * time.Second},
		{"timeout", p.Timeout, &iv.Timeout, 500 * time.Millisecond},
		{"fills", p.Fills, &iv.Fills, time.Second},
		{"history", p.History, &iv.History, time.Second},
		{"leverage", p.Leverage, &iv.Leverage, 5 * time.Second},
		{"brokers", p.Brokers, &iv.Brokers, 10 * time.Second},
		{"equity", p.Equity, &iv.Equity, 5 * time.Second},
		{"funding", p.Funding, &iv.Funding, 5 * time.Second},
		{"transfers", p.Transfers, &iv.Transfers, 5 * time.Second},
	} {
		if f.val == "" {
			continue
		}
		d, err := time.ParseDuration(f.val)
		if err != nil {
			return iv, fmt.Errorf("config [poll] %s = %s: want a duration such as \"2s\" or \"500ms\"", f.name, text.Quote(f.val))
		}
		if d < f.min {
			return iv, fmt.Errorf("config [poll] %s = %s is too fast: at least %s (from %s to %s)", f.name, d, f.min, f.min, maxCadence)
		}
		if d > maxCadence {
			return iv, fmt.Errorf("config [poll] %s = %s is too slow: at most %s (from %s to %s)", f.name, d, maxCadence, f.min, maxCadence)
		}
		*f.dst = d
	}
	return iv, nil
}
