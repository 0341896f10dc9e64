package algo

import (
	"errors"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Started is the first progress the console and the guard report of algorithm id of kind, just
// started on instrument: running, nothing filled. A trailing stop gives side "" and a zero
// target: it takes its side and size from the position as it runs.
func Started(id, kind, instrument, side string, target decimal.Decimal) Progress {
	return Progress{ID: id, Kind: kind, Instrument: instrument, Side: side, Target: target, State: journal.AlgoRunning}
}

// EndOf is the progress the console and the guard report once an algorithm's Run has returned p
// and err: err's words as its detail when it has none, and still running when a child's outcome
// is unknown (ErrUnresolved), since the journal keeps it running for the next start to resolve.
func EndOf(p Progress, err error) Progress {
	if err != nil && p.Detail == "" {
		p.Detail = err.Error()
	}
	if errors.Is(err, ErrUnresolved) {
		p.State = journal.AlgoRunning
	}
	return p
}
