// Package record holds what the journal (state/journal) records, without the file: who asked
// for an intent, the intent and its outcome, an entry as read back, the market an order met
// (Arrival), its route from the keystroke (Route), an algorithm's row (Algo, AlgoMarket) and an
// alert's definition (AlertDef), and the pure rules about them (ChildCloid, Path). A package that
// only reads or builds these values imports record, not journal, and so links no SQLite; journal
// names each of them too (its aliases), so its callers read the same.
package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// Who says who asked for an intent.
type Who string

// Who asked.
const (
	WhoForm        Who = "form"         // the console's order form or a dialog
	WhoCommandLine Who = "command line" // the console's command line
	WhoHeadless    Who = "headless"     // a headless command (tradedesk order ...)
	WhoAlgorithm   Who = "algorithm"    // something acting without a keystroke
)

// State is how far an intent got.
type State string

// The states of an intent.
const (
	// StateNew: begun, never signed (no journal.Journal.Sent was committed): it cannot have reached the exchange.
	StateNew State = "new"
	// StateSent: committed as sent before it was signed: it may have reached the exchange.
	StateSent State = "sent"
)

// Intent is one action about to be signed.
type Intent struct {
	// ID names the intent: an order's own client id, or "" for a new one. Children of it take
	// ChildCloid(ID, n).
	ID string
	// Parent is the intent this one is part of ("" for none).
	Parent string
	// Kind is what the action does: "place", "cancel", ...
	Kind string
	// Who asked for it.
	Who Who
	// What is the action in words ("buy 0.1 BTC-PERP @ 50,000").
	What string
	// Cloids are the client ids the action carries: what a lookup finds its orders by.
	Cloids []string
	// Numbers are the child numbers of algorithm Parent its client ids carry (ChildCloid), taken
	// by the intent's first write in its transaction (zero: none).
	Numbers Numbers
}

// Numbers are child numbers From to To of an algorithm. journal.Journal.FreeChild gives the
// first one free; the intent carrying them takes them when it is written, in the same transaction, and is
// refused (ErrUsedID) when the algorithm took any of them before. So a number is never carried by
// two intents, and one whose intent was never written was never signed: it is free again.
type Numbers struct{ From, To int }

// Outcome is what became of an intent.
type Outcome struct {
	// Kind is the outcome in words: placed, filled, partly filled, rejected, not placed, unknown...
	Kind string
	// Settled is false for an outcome that may still change (unknown): the intent stays
	// unresolved.
	Settled bool
	// Oid is the exchange's order id, when there is one.
	Oid uint64
	// Detail says more: a rejection's reason, what filled.
	Detail string
}

// Entry is one intent as the journal holds it.
type Entry struct {
	Seq     int64
	Intent  Intent
	State   State
	Created time.Time
	// Action, Nonce, ExpiresAfter and Request are the signed action, once sent (journal.Journal.Sent).
	Action       string
	Nonce        uint64
	ExpiresAfter uint64
	Request      json.RawMessage
	Sent         time.Time
	// Outcome is nil until one is known.
	Outcome  *Outcome
	Resolved time.Time
}

// Expired reports whether the exchange must no longer act on the entry's request at now: its
// expiresAfter has passed by more than skew (the two clocks may differ). An entry without an
// expiry never expires.
func (e Entry) Expired(now time.Time, skew time.Duration) bool {
	return e.ExpiresAfter > 0 && now.Add(-skew).UnixMilli() > int64(e.ExpiresAfter)
}

// Path is the journal file of one network and account under dir: dir/journal/NETWORK-ACCOUNT.db,
// the network's name (mainnet, testnet, or a custom URL's host) kept to safe characters.
func Path(dir, network, account string) string {
	return filepath.Join(dir, "journal", safeName(network)+"-"+safeName(strings.ToLower(account))+".db")
}

// ProfilePath is Path for a named config profile: its own file, so each profile keeps its own
// journal ("" is Path).
func ProfilePath(dir, network, account, profile string) string {
	if profile == "" {
		return Path(dir, network, account)
	}
	return filepath.Join(dir, "journal", safeName(network)+"-"+safeName(strings.ToLower(account))+"-"+safeName(profile)+".db")
}

// safeName keeps letters, digits, dots and dashes; anything else becomes an underscore.
func safeName(s string) string {
	if s == "" {
		return "none"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// ChildCloid is the client id of child n (from 1) of the intent parent: "parent-n". It fails,
// saying why, when the result is not a client id the exchange takes (api.CheckCloid).
func ChildCloid(parent string, n int) (string, error) {
	if n < 1 {
		return "", fmt.Errorf("child %d of %s: children count from 1", n, text.Quote(parent))
	}
	id := fmt.Sprintf("%s-%d", parent, n)
	if err := api.CheckCloid(id); err != nil {
		return "", fmt.Errorf("child %d of intent %s: %w; give the parent a shorter id", n, text.Quote(parent), err)
	}
	return id, nil
}

// GroupOf is the intent or algorithm a child client id belongs to ("" for none): its children are
// ID-1, ID-2, ... (ChildCloid), so the group is the id before the last dash. A bare UUID, the id
// every order gets by default, is no child although its last group is all digits about one time
// in 280 (a plain order was taken for a rung so); a number with a leading zero is no child number.
func GroupOf(cloid string) string {
	i := strings.LastIndexByte(cloid, '-')
	if i <= 0 || i == len(cloid)-1 || cloid[i+1] == '0' || strings.Trim(cloid[i+1:], "0123456789") != "" || isUUID(cloid) {
		return ""
	}
	return cloid[:i]
}

// isUUID reports whether s is a UUID in its canonical text form (8-4-4-4-12 hex digits).
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'):
			return false
		}
	}
	return true
}

// ErrUsedID is returned by journal.Journal.Begin for an id the journal already holds: a client
// id used twice would make a lookup by it ambiguous.
var ErrUsedID = errors.New("this id was used before: give a new client id")
