package algo

import (
	"context"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// storeCalls is a market that says which store a child's check was given.
type storeCalls struct {
	Market
	withBook, without int
}

func (m *storeCalls) Store(context.Context, string) (*state.Store, error) {
	m.withBook++
	return state.New(nil), nil
}

func (m *storeCalls) StoreWithoutBook(context.Context, string) (*state.Store, error) {
	m.without++
	return state.New(nil), nil
}

// TestOnlyAChildThatCanTakeReadsTheBook: a post-only limit (a chase's child) and a trigger (a
// trailing stop's) are checked against a store without the book, which their check never walks;
// a limit that can cross (a TWAP's IOC slice) and a market order get the book their check walks,
// also through the process's shared market.
func TestOnlyAChildThatCanTakeReadsTheBook(t *testing.T) {
	for _, c := range []struct {
		name string
		in   state.OrderIntent
		book bool
	}{
		{"post-only limit", state.OrderIntent{Type: state.Limit, PostOnly: true, Tif: api.TifGTC}, false},
		{"reduce-only trigger", state.OrderIntent{Type: state.Trigger, ReduceOnly: true}, false},
		{"IOC limit", state.OrderIntent{Type: state.Limit, Tif: api.TifIOC}, true},
		{"GTC limit", state.OrderIntent{Type: state.Limit, Tif: api.TifGTC}, true},
		{"market", state.OrderIntent{Type: state.Market}, true},
	} {
		m := &storeCalls{}
		d := &Deps{Market: sharedMarket{Market: m, l: &Limits{}}}
		if _, err := d.childStore(context.Background(), c.in); err != nil {
			t.Fatal(err)
		}
		if got := m.withBook == 1 && m.without == 0; got != c.book || m.withBook+m.without != 1 {
			t.Errorf("%s: store with the book %d, without %d; want the book: %v", c.name, m.withBook, m.without, c.book)
		}
	}
}
