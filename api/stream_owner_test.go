package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api"
)

const (
	mine   = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	theirs = "0x9908658A316D743159F001026F1ef08aa8F0b55B"
)

// TestStreamDropsAnotherAccountsRecords: a server that routes another account's orders, fills,
// positions and summary to the subscribed account's channels (or names the account with escape
// codes after it) gets them dropped, each counted and named as a bad row is, while the
// account's own records arrive. A positions list of only another account's rows is dropped whole,
// not delivered empty. Guards: a record compared with nothing (the 50 BTC long that is not the
// trader's), or a foreign row dropped without a word.
func TestStreamDropsAnotherAccountsRecords(t *testing.T) {
	poisoned := mine + `\u001b]0;PWNED\u0007` // as JSON text
	order := func(id, user string) string {
		return `{"order_id":"` + id + `","instrument":"BTC-PERP","limit_price":"100","size":"1","state":"open","account":"` + user + `"}`
	}
	fill := func(id, account string) string {
		return `{"order_id":"` + id + `","trade_id":"` + id + `","instrument":"BTC-PERP","price":"100","size":"1","account":"` + account + `"}`
	}
	pos := func(size, user string) string {
		return `{"instrument":"BTC-PERP","size":"` + size + `","entry_price":"100","user":"` + user + `"}`
	}
	summary := func(equity, addr string) string {
		return `{"address":"` + addr + `","total_account_equity":` + equity + `}`
	}
	cases := []struct {
		channel string
		frames  []string // the last is the account's own: it arrives
		dropped int
		kept    func(ev api.StreamEvent) string
		want    []string
	}{
		{api.ChanOrders, []string{order("1", theirs), `[` + order("2", mine) + `,` + order("3", poisoned) + `]`, order("4", strings.ToLower(mine))}, 2,
			func(ev api.StreamEvent) string { return string(rune('0' + ev.Data.(*api.OrderRecord).OrderID)) }, []string{"2", "4"}},
		{api.ChanFills, []string{fill("1", theirs), fill("2", "")}, 1,
			func(ev api.StreamEvent) string { return string(rune('0' + ev.Data.(*api.Fill).OrderID)) }, []string{"2"}},
		{api.ChanPositions, []string{`[` + pos("50", theirs) + `]`, `[` + pos("2", mine) + `,` + pos("-7", theirs) + `]`}, 2,
			func(ev api.StreamEvent) string {
				return ev.Data.([]api.Position)[0].Size.String() + "/" + string(rune('0'+len(ev.Data.([]api.Position))))
			}, []string{"2/1"}},
		{api.ChanAccount, []string{summary("17720", theirs), summary("1000", mine)}, 1,
			func(ev api.StreamEvent) string { return ev.Data.(*api.AccountSummary).TotalAccountEquity.String() }, []string{"1000"}},
	}
	for _, tc := range cases {
		t.Run(tc.channel, func(t *testing.T) {
			u := hostileServer(t, func(ctx context.Context, c *websocket.Conn) {
				for _, f := range tc.frames {
					send(ctx, c, note(f))
				}
			})
			st := api.NewStream(u, api.WithStreamBackoff(time.Hour, time.Hour))
			t.Cleanup(st.Close)
			if _, err := st.Subscribe(context.Background(), api.Topic{Channel: tc.channel, User: mine}); err != nil {
				t.Fatal(err)
			}
			var got, why []string
			deadline := time.After(10 * time.Second)
			for len(got) < len(tc.want) {
				select {
				case <-st.Inbox().Ready():
					b := st.Inbox().Drain()
					for _, ev := range b.Events {
						got = append(got, tc.kept(ev))
					}
					if b.Dropped > 0 {
						why = append(why, b.DropReason)
					}
				case <-deadline:
					t.Fatalf("kept %v: want %v", got, tc.want)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") || st.Dropped() != int64(tc.dropped) {
				t.Fatalf("kept %v, dropped %d: want %v and %d", got, st.Dropped(), tc.want, tc.dropped)
			}
			if len(why) == 0 || !strings.Contains(why[0], "another account's") || !strings.Contains(why[0], theirs) {
				t.Fatalf("drop reasons %q: want the other account named", why)
			}
			for _, w := range why {
				if strings.ContainsAny(w, "\x1b\a") {
					t.Fatalf("drop reason %q holds a control character", w)
				}
			}
		})
	}
}

// TestInfoDropsAnotherAccountsRecords: the same rule for /info: an answer of positions, open
// orders, history or fills keeps the account's own records, drops another account's (counted in
// the request's Drops, named in the first reason); one whose every record is another account's,
// and an account summary of another address, fail with the reason rather than show an empty list
// or someone else's equity. Guards: the poll route left open beside the stream's.
func TestInfoDropsAnotherAccountsRecords(t *testing.T) {
	mixed := map[string]string{
		api.MethodPositions:    `[{"instrument":"BTC-PERP","size":"50","user":"` + theirs + `"},{"instrument":"ETH-PERP","size":"1","user":"` + mine + `"}]`,
		api.MethodOpenOrders:   page(`{"order_id":1,"user":"` + theirs + `","state":"open"},{"order_id":2,"user":"` + mine + `","state":"open"}`),
		api.MethodOrderHistory: page(`{"order_id":1,"user":"` + theirs + `","state":"filled"},{"order_id":2,"user":"` + mine + `","state":"filled"}`),
		api.MethodFills:        page(`{"order_id":1,"account":"` + theirs + `","size":"1"},{"order_id":2,"account":"` + mine + `","size":"1"}`),
	}
	calls := map[string]func(ctx context.Context, c *api.Client) (int, error){
		api.MethodPositions: func(ctx context.Context, c *api.Client) (int, error) {
			ps, err := c.Positions(ctx, "")
			return len(ps), err
		},
		api.MethodOpenOrders: func(ctx context.Context, c *api.Client) (int, error) {
			p, err := c.OpenOrders(ctx, "", api.PageParams{})
			return len(p.Data), err
		},
		api.MethodOrderHistory: func(ctx context.Context, c *api.Client) (int, error) {
			p, err := c.OrderHistory(ctx, "", api.PageParams{})
			return len(p.Data), err
		},
		api.MethodFills: func(ctx context.Context, c *api.Client) (int, error) {
			p, err := c.Fills(ctx, "", api.PageParams{})
			return len(p.Data), err
		},
	}
	for method, body := range mixed {
		t.Run(method, func(t *testing.T) {
			c := api.New(answering(t, body), api.WithAddress(mine), api.WithRetry(api.RetryPolicy{Attempts: 1}))
			var drops api.Drops
			n, err := calls[method](api.WithDrops(context.Background(), &drops), c)
			if err != nil || n != 1 || drops.Count() != 1 || !strings.Contains(drops.First(), "another account's") || !strings.Contains(drops.First(), theirs) {
				t.Fatalf("%d kept, err %v, %d dropped (%q): want the account's one record and the other's dropped by name", n, err, drops.Count(), drops.First())
			}
			only := strings.Replace(body, mine, theirs, 1)
			c = api.New(answering(t, only), api.WithAddress(mine), api.WithRetry(api.RetryPolicy{Attempts: 1}))
			if n, err := calls[method](context.Background(), c); err == nil || !strings.Contains(err.Error(), "another account's") {
				t.Fatalf("an answer of only another account's records: %d kept, err %v", n, err)
			}
		})
	}
	c := api.New(answering(t, `{"address":"`+theirs+`","total_account_equity":17720}`), api.WithAddress(mine), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	if a, err := c.AccountSummary(context.Background(), ""); err == nil || !strings.Contains(err.Error(), theirs) || !a.TotalAccountEquity.IsZero() {
		t.Fatalf("another account's summary: %+v, %v", a, err)
	}
}

func page(rows string) string {
	return `{"data":[` + rows + `],"page":1,"limit":50,"total_count":2,"total_pages":1}`
}

// answering is a server that answers every /info request with body.
func answering(t *testing.T, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
