package profile

import (
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

// Intervals is the polling cadence of each kind of data. Mids follow Tickers and collateral
// follows Instruments.
type Intervals struct {
	Tickers     time.Duration
	Account     time.Duration
	Positions   time.Duration
	Orders      time.Duration
	Instruments time.Duration
	// Timeout bounds each request.
	Timeout time.Duration
	// MaxBackoff caps the wait after repeated failures.
	MaxBackoff time.Duration
	// The panes' own polls: the fills and history panes' newest page, the account's leverage on
	// the current instrument, broker approvals, the equity curve, funding payments, transfers.
	Fills, History, Leverage, Brokers, Equity, Funding, Transfers time.Duration
}

// DefaultIntervals is the cadence of the design: tickers and mids every second, account,
// positions and orders every 2 s, instruments and collateral every 5 minutes; fills and history
// every 5 s, funding and transfers every 10 s (funding settles hourly, transfers are rare),
// leverage and equity every 30 s (the simulator samples equity once a minute), brokers every
// minute.
func DefaultIntervals() Intervals {
	return Intervals{
		Tickers: time.Second, Account: 2 * time.Second, Positions: 2 * time.Second,
		Orders: 2 * time.Second, Instruments: 5 * time.Minute,
		Timeout: 5 * time.Second, MaxBackoff: 30 * time.Second,
		Fills: 5 * time.Second, History: 5 * time.Second, Leverage: 30 * time.Second, Brokers: time.Minute,
		Equity: 30 * time.Second, Funding: 10 * time.Second, Transfers: 10 * time.Second,
	}
}

// WithDefaults fills every zero field from DefaultIntervals.
func (iv Intervals) WithDefaults() Intervals {
	def := DefaultIntervals()
	for _, f := range []struct{ v, d *time.Duration }{
		{&iv.Tickers, &def.Tickers}, {&iv.Account, &def.Account}, {&iv.Positions, &def.Positions},
		{&iv.Orders, &def.Orders}, {&iv.Instruments, &def.Instruments}, {&iv.Timeout, &def.Timeout},
		{&iv.MaxBackoff, &def.MaxBackoff}, {&iv.Fills, &def.Fills}, {&iv.History, &def.History},
		{&iv.Leverage, &def.Leverage}, {&iv.Brokers, &def.Brokers}, {&iv.Equity, &def.Equity},
		{&iv.Funding, &def.Funding}, {&iv.Transfers, &def.Transfers},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return iv
}

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
