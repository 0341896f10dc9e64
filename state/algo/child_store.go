package algo

import (
	"context"

	"github.com/tradedesk/tradedesk/state"
)

// BooklessMarket is a Market that can build a child's store without reading the instrument's
// book, for a child whose check never reads it.
type BooklessMarket interface {
	Market
	// StoreWithoutBook is Store without the instrument's order book.
	StoreWithoutBook(ctx context.Context, symbol string) (*state.Store, error)
}

// takesBook reports whether the check of order in reads the book: it walks the book only for an
// order that can take liquidity at once (a market order, or a limit that is not post-only); a
// post-only limit (a chase's child) is checked against the streamed best bid and ask, and a
// trigger (a trailing stop's) against the mark.
func takesBook(in state.OrderIntent) bool {
	return in.Type == state.Market || in.Type == state.Limit && !in.PostOnly
}

// childStore is the store order in is checked against: without the book when its check does
// not read it and the market can leave it out.
func (d *Deps) childStore(ctx context.Context, in state.OrderIntent) (*state.Store, error) {
	if m, ok := d.Market.(BooklessMarket); ok && !takesBook(in) {
		return m.StoreWithoutBook(ctx, in.Instrument)
	}
	return d.Market.Store(ctx, in.Instrument)
}

// instrumentName is instrument (a name or an id) as st names it.
func instrumentName(st *state.Store, instrument string) string {
	if inst, ok := st.FindInstrument(instrument); ok {
		return inst.Name
	}
	return instrument
}
