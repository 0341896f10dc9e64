package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tradedesk/tradedesk/api/text"
)

// An account's records name their account: an order its user, a fill its account, a position its
// user, the summary its address. A record that names another account is not the trader's, whatever
// route brought it (a streamed notification or an /info answer): a server that routes another
// account's records here (a bug, or a hostile one) would otherwise show a position, orders and
// fills that are not the trader's, and the console would act on them. Such a record is dropped
// and reported as a bad row is (logged, counted, its reason shown). A record that names no
// account is kept: it cannot be judged.

// otherAccount is why a record (what: "order", "fill", …) naming owner is not user's, or nil when
// it is (or names no account).
func otherAccount(what, owner, user string) error {
	if owner == "" || SameAddress(owner, user) {
		return nil
	}
	return fmt.Errorf("another account's %s (%s), not %s's", what, accountName(owner), accountName(user))
}

// accountName is how a message names an account: checksummed when it is an address (addresses
// are public and must be readable), else briefly and cleaned (a server's text).
func accountName(s string) string {
	if a, err := ChecksumAddress(s); err == nil {
		return a
	}
	return text.Quote(s)
}

// Owners of each kind of account record.
func orderOwner(o *OrderRecord) string { return o.User }
func fillOwner(f *Fill) string         { return f.Account }
func positionOwner(p *Position) string { return p.User }

// keepOwn keeps user's records of list: each of another account is reported to drop (with its
// index) and left out. none says every record (at least one) was another account's.
func keepOwn[T any](list []T, user, what string, owner func(*T) string, drop dropFunc) (kept []T, none bool) {
	kept = list[:0:0]
	for i := range list {
		if err := otherAccount(what, owner(&list[i]), user); err != nil {
			if drop != nil {
				drop(i, fmt.Errorf("row %d: %w", i, err))
			}
			continue
		}
		kept = append(kept, list[i])
	}
	return kept, len(list) > 0 && len(kept) == 0
}

// errNoneOwn is the error of an answer whose every record is another account's: an empty list in
// its place would wipe the trader's own (positions, open orders) from the screen.
var errNoneOwn = errors.New("every record is another account's")

// ownRows keeps user's records of an /info answer: another account's are dropped as bad rows are
// (logged, and counted in the context's Drops); an answer with records and none of them user's
// fails (see errNoneOwn), as an answer of bad rows does.
func ownRows[T any](c *Client, ctx context.Context, method, user, what string, list []T, owner func(*T) string) ([]T, error) {
	op := "info " + method
	kept, none := keepOwn(list, user, what, owner, c.rowDropper(ctx, op))
	if none {
		first := otherAccount(what, owner(&list[0]), user)
		return nil, &Error{Kind: KindDecode, Op: op, Message: fmt.Sprintf("all %d records are another account's (the first: %v)", len(list), first), Err: errNoneOwn}
	}
	return kept, nil
}

// decodeAccount decodes an account channel's notification and keeps the subscribed account's
// records: another account's are reported to drop as bad rows are and left out. A positions list
// whose every row is another account's is dropped whole: delivered empty, it would wipe the
// trader's own positions.
func decodeAccount(t Topic, raw []byte, drop dropFunc) ([]StreamEvent, error) {
	if drop == nil {
		drop = func(int, error) {}
	}
	switch t.Channel {
	case ChanOrders:
		evs, err := decodeEach(t, raw, drop, func(*OrderRecord) string { return "" }, fixOrder)
		return keepOwnEvents(evs, t.User, "order", orderOwner, drop), err
	case ChanFills:
		evs, err := decodeEach(t, raw, drop, func(*Fill) string { return "" }, fixFill)
		return keepOwnEvents(evs, t.User, "fill", fillOwner, drop), err
	case ChanPositions:
		var ps []Position
		if err := decodeList(raw, &ps, drop); err != nil {
			return nil, fmt.Errorf("position: %v", err)
		}
		ps, none := keepOwn(ps, t.User, "position", positionOwner, drop)
		if none {
			return nil, nil
		}
		return []StreamEvent{{Topic: t, Key: "positions:" + t.User, Data: ps}}, nil
	}
	var a AccountSummary
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("account_summary: %v", shortErr(err))
	}
	if err := otherAccount("account summary", a.Address, t.User); err != nil {
		drop(0, err)
		return nil, nil
	}
	return []StreamEvent{{Topic: t, Key: "account:" + t.User, Data: &a}}, nil
}

// keepOwnEvents keeps the events of user's records (each event holds one *T).
func keepOwnEvents[T any](evs []StreamEvent, user, what string, owner func(*T) string, drop dropFunc) []StreamEvent {
	kept := evs[:0]
	for i, ev := range evs {
		if err := otherAccount(what, owner(ev.Data.(*T)), user); err != nil {
			drop(i, err)
			continue
		}
		kept = append(kept, ev)
	}
	return kept
}
