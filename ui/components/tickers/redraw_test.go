package tickers

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// streamTo streams one changed ticker to the pane's store, as the stream's batch does, and has
// the pane take it.
func streamTo(p *Pane, at int, t api.Ticker) {
	p.Store.Apply(state.TickerUpdateMsg{At: t0.Add(time.Duration(at) * time.Millisecond), Ticker: t})
	p.Update(common.DataMsg{Kind: state.KindTickers})
}

// TestAnOffScreenTickerDrawsNoRow: with 509 instruments sorted by name, a streamed ticker of an
// instrument below the rows on screen draws no row and the pane's view is the same; one on
// screen draws that row only, and a mid that moved on screen its row (issue #34: the pane sorted
// all 509 rows and drew every row on screen again for each batch). Guards: the rows resorted
// (and the table invalidated) at every change, a changed row not drawn again.
func TestAnOffScreenTickerDrawsNoRow(t *testing.T) {
	p, ts, _ := streamRig(t)
	p.SetSize(300, 20) // every column, the Mid one too
	p.SetFocused(true)
	before, drawn := p.View(), p.tbl.Rendered
	off := ts[400]
	off.MarkPrice = off.MarkPrice.Add(decimal.NewFromInt(3))
	streamTo(p, 1, off)
	if got := p.View(); got != before || p.tbl.Rendered != drawn {
		t.Fatalf("a ticker off screen drew %d rows; the view changed: %v", p.tbl.Rendered-drawn, got != before)
	}
	on := ts[2]
	on.MarkPrice = decimal.RequireFromString("777.5")
	streamTo(p, 2, on)
	if got := p.View(); !strings.Contains(got, "777.50▲") || p.tbl.Rendered != drawn+1 {
		t.Fatalf("S002-PERP's move drew %d rows, want 1; shown:\n%s", p.tbl.Rendered-drawn, got)
	}
	p.Store.Apply(state.MidsUpdateMsg{At: t0.Add(3 * time.Millisecond), Mids: []api.Mid{{Symbol: "S003-PERP", MidPrice: decimal.RequireFromString("654.321")}}})
	p.Update(common.DataMsg{Kind: state.KindMids})
	if got := p.View(); !strings.Contains(got, "654.321") || p.tbl.Rendered != drawn+2 {
		t.Fatalf("S003-PERP's mid drew %d rows, want 1 more; shown:\n%s", p.tbl.Rendered-drawn-1, got)
	}
	p.Update(FlashEndMsg{At: t0.Add(time.Hour)})
	if got := p.View(); strings.Contains(got, "777.50▲") || p.tbl.Rendered != drawn+3 {
		t.Fatalf("the flash's end drew %d rows, want 1 more; shown:\n%s", p.tbl.Rendered-drawn-2, got)
	}
}

// TestStreamedFiguresKeepTheSortOrder: sorted by a figure (favourites first, up and down), the
// rows the pane fixes up after each batch of moved figures are in the order a pane sorting them
// all shows, and the cursor stays on its instrument. Guards: the fix-up (insertion of the rows
// that moved) wrong, or the order kept when a sort figure moved.
func TestStreamedFiguresKeepTheSortOrder(t *testing.T) {
	p, ts, _ := streamRig(t)
	ts = slices.Clone(ts) // the store's poll list is ts itself
	rng := rand.New(rand.NewPCG(34, 1))
	for _, fav := range []string{"S100-PERP", "S007-PERP", "S300-PERP"} {
		p.favs[fav] = true
	}
	p.SetFocused(true)
	press(p, "o") // by Mark
	press(p, "down", "down", "down")
	at := 0
	for round := range 40 {
		if round == 20 {
			press(p, "O") // the other way
		}
		cur := p.Selected()
		for range 1 + rng.IntN(30) {
			i := rng.IntN(len(ts))
			ts[i].MarkPrice = decimal.New(int64(rng.IntN(700)), -int32(rng.IntN(3)))
			at++
			p.Store.Apply(state.TickerUpdateMsg{At: t0.Add(time.Duration(at) * time.Millisecond), Ticker: ts[i]})
		}
		p.Update(common.DataMsg{Kind: state.KindTickers})
		fresh := New(commontest.NewCommon(t, p.Store, p.Clock), []string{"S100-PERP", "S007-PERP", "S300-PERP"})
		fresh.SetSize(120, 40)
		fresh.sortCol, fresh.desc = p.sortCol, p.desc
		fresh.Update(common.DataMsg{Kind: state.KindTickers})
		if got, want := p.Shown(), fresh.Shown(); !slices.Equal(got, want) {
			t.Fatalf("round %d: the order is not the sorted one:\n got %v\nwant %v", round, got[:20], want[:20])
		}
		if p.Selected() != cur {
			t.Fatalf("round %d: the cursor moved from %s to %s", round, cur, p.Selected())
		}
		if view := p.View(); !strings.Contains(view, fmt.Sprintf("▶  %s", cur)) {
			t.Fatalf("round %d: the cursor's row is not %s:\n%s", round, cur, view)
		}
	}
}
