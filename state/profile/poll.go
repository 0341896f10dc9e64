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
}

// DefaultIntervals is the cadence of the design: tickers and mids every second, account,
// positions and orders every 2 s, instruments and collateral every 5 minutes.
func DefaultIntervals() Intervals {
	return Intervals{
		Tickers: time.Second, Account: 2 * time.Second, Positions: 2 * time.Second,
		Orders: 2 * time.Second, Instruments: 5 * time.Minute,
		Timeout: 5 * time.Second, MaxBackoff: 30 * time.Second,
	}
}

// WithDefaults fills every zero field from DefaultIntervals.
func (iv Intervals) WithDefaults() Intervals {
	def := DefaultIntervals()
	for _, f := range []struct{ v, d *time.Duration }{
		{&iv.Tickers, &def.Tickers}, {&iv.Account, &def.Account}, {&iv.Positions, &def.Positions},
		{&iv.Orders, &def.Orders}, {&iv.Instruments, &def.Instruments}, {&iv.Timeout, &def.Timeout},
		{&iv.MaxBackoff, &def.MaxBackoff},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return iv
}

// Poll is the [poll] table: durations such as "1s" or "500ms".
type Poll struct {
	Tickers, Account, Positions, Orders, Instruments, Timeout string
}

// Intervals is DefaultIntervals with the table's settings; a value that is no duration, or
// faster than its kind allows, is an error naming the setting and its bound.
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
	} {
		if f.val == "" {
			continue
		}
		d, err := time.ParseDuration(f.val)
		if err != nil {
			return iv, fmt.Errorf("config [poll] %s = %s: want a duration such as \"2s\" or \"500ms\"", f.name, text.Quote(f.val))
		}
		if d < f.min {
			return iv, fmt.Errorf("config [poll] %s = %s is too fast: at least %s", f.name, d, f.min)
		}
		*f.dst = d
	}
	return iv, nil
}
