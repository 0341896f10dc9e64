package state

import "time"

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
