package exec

import (
	"context"
	"errors"

	"github.com/tradedesk/tradedesk/state/journal"
)

// Setup is where an executor's journal lives: the state directory and the network, with the
// account of Config, name the file (journal.Path). Config.Journal is left nil: Open opens it.
type Setup struct {
	// Dir is the state directory ("" is an error: there is nowhere to keep the journal).
	Dir string
	// Network is the network's name (mainnet, testnet, a URL's host, demo).
	Network string
	// Profile is the config profile the executor trades for ("": none): its journal is its own.
	Profile string
	Config
}

// Open opens the journal of the setup's network and account and the executor on it: the one
// construction the console and the headless commands share. Close closes the journal. Call
// Recover (or use OpenRecovered) before sending; Place and the cancels run it first when it has
// not run.
func Open(s Setup) (*Executor, error) {
	if s.Dir == "" {
		return nil, errors.New("no state directory for the journal: set XDG_STATE_HOME or HOME")
	}
	if s.Account == "" {
		return nil, errors.New("no account for the journal: give a key (--keystore FILE or TRADEDESK_PRIVATE_KEY)")
	}
	j, err := journal.Open(journal.ProfilePath(s.Dir, s.Network, s.Account, s.Profile))
	if err != nil {
		return nil, err
	}
	s.Journal = j
	e, err := New(s.Config)
	if err != nil {
		_ = j.Close()
		return nil, err
	}
	e.owned = true
	return e, nil
}

// OpenRecovered is Open, then Recover: what an earlier run left open is settled before anything
// new is sent. It returns what Recover found; on an error nothing stays open.
func OpenRecovered(ctx context.Context, s Setup) (*Executor, []Found, error) {
	e, err := Open(s)
	if err != nil {
		return nil, nil, err
	}
	found, err := e.Recover(ctx)
	if err != nil {
		_ = e.Close()
		return nil, found, err
	}
	return e, found, nil
}

// Journal is the journal the executor writes.
func (e *Executor) Journal() *journal.Journal { return e.cfg.Journal }

// Close closes the journal when Open opened it (a journal given to New is the caller's).
func (e *Executor) Close() error {
	if !e.owned {
		return nil
	}
	return e.cfg.Journal.Close()
}
