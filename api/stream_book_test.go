package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api"
)

// levelsFrom is count bid levels at prices from, from+1, …, as an orderbook notification's list.
func levelsFrom(from, count int) string {
	var b strings.Builder
	for i := 0; i < count; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"price":%d,"size":1}`, from+i)
	}
	return b.String()
}

func bookNote(kind, instrument string, seq int, bids string) string {
	return `{"jsonrpc":"2.0","method":"subscription","params":{"channel":"book","data":{"update_type":"` + kind +
		`","instrument_name":"` + instrument + `","books":{"bids":[` + bids + `],"asks":[],"sequence_number":` + fmt.Sprint(seq) + `}}}}`
}

// endlessBook is a server whose book updates each add 1000 new bid levels, without end, until
// the client unsubscribes; a second subscribe gets a fresh snapshot and one update.
func endlessBook(t *testing.T, resubscribed chan<- struct{}) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		var stopped atomic.Bool // not a cancelled context: a write cancelled midway closes the connection
		subs := 0
		for {
			_, b, err := c.Read(r.Context())
			if err != nil {
				return
			}
			id := between(string(b), `"id":"`, `"`)
			switch {
			case strings.Contains(string(b), `"unsubscribe"`):
				stopped.Store(true)
				send(r.Context(), c, `{"jsonrpc":"2.0","id":"`+id+`","result":{"status":"unsubscribed","channels":["book"]}}`)
			case strings.Contains(string(b), `"subscribe"`):
				subs++
				send(r.Context(), c, `{"jsonrpc":"2.0","id":"`+id+`","result":{"status":"subscribed","channels":["book"]}}`)
				if subs > 1 {
					resubscribed <- struct{}{}
					send(r.Context(), c, bookNote("snapshot", "BTC-PERP", 100, levelsFrom(1, 3)), bookNote("update", "BTC-PERP", 101, levelsFrom(4, 1)))
					continue
				}
				go func() {
					send(ctx, c, bookNote("snapshot", "BTC-PERP", 1, levelsFrom(1, 1)))
					for seq := 2; ctx.Err() == nil && !stopped.Load(); seq++ {
						send(ctx, c, bookNote("update", "BTC-PERP", seq, levelsFrom(seq*1000, 1000)))
					}
				}()
			}
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	return u
}

// TestStreamBookCapsItsLevels: against a server whose book updates keep adding levels, no update
// that would take a side past api.MaxBookLevels is delivered: it is dropped and named as a bad row
// is ("over the 5000 a side kept"), the book is subscribed again, and the fresh snapshot and its
// update arrive. Guards a book that grows without bound while the status line says "stream".
func TestStreamBookCapsItsLevels(t *testing.T) {
	resubscribed := make(chan struct{}, 4)
	st := api.NewStream(endlessBook(t, resubscribed), api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	most, why := 0, ""
	deadline := time.After(20 * time.Second)
	for {
		select {
		case <-st.Inbox().Ready():
		case <-deadline:
			t.Fatalf("no fresh book after the cap (most held %d, drop %q, status %+v)", most, why, st.Status())
		}
		b := st.Inbox().Drain()
		if b.Dropped > 0 && why == "" {
			why = b.DropReason
		}
		for _, ev := range b.Events {
			u := ev.Data.(*api.BookUpdate)
			if u.Snapshot {
				clear(held)
			}
			for _, l := range u.Bids {
				held[l.Price.String()] = !l.Size.IsZero()
			}
			most = max(most, len(held))
			if u.Sequence == 101 {
				if most > api.MaxBookLevels || !strings.Contains(why, "over the 5000 a side kept") || len(held) != 4 {
					t.Fatalf("most levels delivered %d (cap %d), drop %q, held after the fresh book %d", most, api.MaxBookLevels, why, len(held))
				}
				if len(resubscribed) == 0 {
					t.Fatal("the fresh book came without a second subscribe")
				}
				return
			}
		}
	}
}

// TestStreamDropsAnotherInstrumentsBook: a book notification naming another instrument than the
// subscribed one is left out and named; one naming none is taken as the subscribed one's.
func TestStreamDropsAnotherInstrumentsBook(t *testing.T) {
	u := hostileServer(t, func(ctx context.Context, c *websocket.Conn) {
		send(ctx, c, bookNote("snapshot", "EVIL\\u001b[2J-PERP", 1, levelsFrom(1, 1)), bookNote("snapshot", "", 2, levelsFrom(1, 2)))
	})
	st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	why := ""
	deadline := time.After(10 * time.Second)
	for len(got) == 0 {
		select {
		case <-st.Inbox().Ready():
			b := st.Inbox().Drain()
			if b.Dropped > 0 && why == "" {
				why = b.DropReason
			}
			for _, ev := range b.Events {
				u := ev.Data.(*api.BookUpdate)
				got = append(got, fmt.Sprint(u.Instrument, "#", u.Sequence))
			}
		case <-deadline:
			t.Fatal("no book delivered")
		}
	}
	if strings.Join(got, " ") != "BTC-PERP#2" || !strings.Contains(why, "a book of") || strings.ContainsRune(why, 0x1b) {
		t.Fatalf("delivered %v, drop %q: want only the second, the first named (cleaned)", got, why)
	}
}

// lateBook is a server whose book channel, when unsubscribed, sends 150 more updates before it
// answers (those it had in flight); a second subscribe gets the snapshot at sequence 500.
func lateBook(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx, subs := r.Context(), 0
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			id := between(string(b), `"id":"`, `"`)
			switch {
			case strings.Contains(string(b), `"unsubscribe"`):
				for seq := 2; seq < 152; seq++ {
					send(ctx, c, bookNote("update", "BTC-PERP", seq, levelsFrom(seq, 1)))
				}
				send(ctx, c, `{"jsonrpc":"2.0","id":"`+id+`","result":{"status":"unsubscribed","channels":["book"]}}`)
			case strings.Contains(string(b), `"subscribe"`):
				subs++
				send(ctx, c, `{"jsonrpc":"2.0","id":"`+id+`","result":{"status":"subscribed","channels":["book"]}}`,
					bookNote("snapshot", "BTC-PERP", []int{1, 500}[min(subs, 2)-1], levelsFrom(1, subs)))
			}
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	return u
}

// TestStreamUnsubscribeTakesWhatWasInFlight: the notifications an exchange sent on a channel
// before it read our unsubscribe (150 here, over the 100 unknown ones that end a connection) are
// dropped, not taken for a channel never subscribed: the connection stays up and the book's
// fresh snapshot arrives. Guards TestStreamBookCapsItsLevels failing now and then with "stream
// sent 100 notifications for channels not subscribed" when its flood outran the unsubscribe.
func TestStreamUnsubscribeTakesWhatWasInFlight(t *testing.T) {
	st := api.NewStream(lateBook(t), api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(st.Close)
	if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrderBook, Symbol: "BTC-PERP"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second) // guards a hang only: each step waits for its frame
	waitFor := func(seq uint64) {
		for {
			select {
			case <-st.Inbox().Ready():
			case <-deadline:
				t.Fatalf("no snapshot %d (status %+v)", seq, st.Status())
			}
			for _, ev := range st.Inbox().Drain().Events {
				if ev.Data.(*api.BookUpdate).Sequence == seq {
					return
				}
			}
		}
	}
	waitFor(1)
	st.Resubscribe(api.ChanOrderBook)
	waitFor(500)
	if s := st.Status(); !s.Up || s.Epoch != 1 {
		t.Fatalf("status %+v after the unsubscribe's late notifications: want the first connection still up", s)
	}
}
