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

// slowSecondAnswer is a server that accepts a connection once opened is closed, answers the
// first subscribe at once and sends its channel two notifications (the second with a bad row: the
// stream counts it only after it has handed on the first), and answers the second subscribe only
// once release is closed.
func slowSecondAnswer(t *testing.T, opened, release <-chan struct{}) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-opened
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		answer := func(id, channel string) string {
			return `{"jsonrpc":"2.0","id":"` + id + `","result":{"status":"subscribed","channels":["` + channel + `"]}}`
		}
		order := func(id, price string) string {
			return `{"order_id":"` + id + `","instrument":"BTC-PERP","limit_price":"` + price + `","size":"1","state":"open"}`
		}
		rows := func(rs ...string) string {
			return `{"jsonrpc":"2.0","method":"subscription","params":{"channel":"first","data":[` + strings.Join(rs, ",") + `]}}`
		}
		for subs := 0; ; {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			id := between(string(b), `"id":"`, `"`)
			if !strings.Contains(string(b), `"subscribe"`) {
				send(ctx, c, `{"jsonrpc":"2.0","id":"`+id+`","result":"pong"}`)
				continue
			}
			if subs++; subs == 1 {
				send(ctx, c, answer(id, "first"), rows(order("1", "100")), rows(order("2", "101"), order("3", "ninety"), order("4", "102")))
				continue
			}
			go func() { // a write beside the reading loop: websocket.Conn takes concurrent writes
				select {
				case <-release:
					send(ctx, c, answer(id, "second"))
				case <-ctx.Done():
				}
			}()
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	return u
}

// TestStreamRecordsFollowTheirUp: a new connection's records reach the inbox only once its status
// says Up with their epoch, even when they are read while a later subscription's answer is still
// awaited. The reader has handed on the first notification before it counts the second's bad row,
// so the check does not depend on timing: before the fix the first record was in the inbox, the
// status still down, as soon as that row was counted. Guards a consumer seeing records of an epoch
// it was never told of (the headless stream printed a record before "stream up").
func TestStreamRecordsFollowTheirUp(t *testing.T) {
	opened, release := make(chan struct{}), make(chan struct{})
	st := api.NewStream(slowSecondAnswer(t, opened, release), api.WithStreamBackoff(time.Hour, time.Hour))
	t.Cleanup(st.Close)
	for _, user := range []string{"0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002"} {
		if _, err := st.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrders, User: user}); err != nil {
			t.Fatal(err)
		}
	}
	// Both topics wait for the connection, whose subscribeAll sends them one by one.
	close(opened)
	deadline := time.After(10 * time.Second) // guards a hang only
	for st.Dropped() == 0 {
		select {
		case <-deadline:
			t.Fatalf("the bad row was never counted (status %+v)", st.Status())
		case <-time.After(time.Millisecond):
		}
	}
	if b := st.Inbox().Drain(); len(b.Events) > 0 || b.Status.Up || b.Dropped > 0 {
		t.Fatalf("%d records (%d dropped rows) in the inbox while the status is %+v: want none before the up that opens their epoch",
			len(b.Events), b.Dropped, b.Status)
	}
	close(release)
	var got []string
	dropped := 0
	for len(got) < 3 {
		select {
		case <-st.Inbox().Ready():
		case <-deadline:
			t.Fatalf("got %v, status %+v: want the three good records once the connection is up", got, st.Status())
		}
		b := st.Inbox().Drain()
		if (len(b.Events) > 0 || b.Dropped > 0) && (!b.Status.Up || b.Status.Epoch != 1) {
			t.Fatalf("%d records delivered with status %+v: want them after the up of epoch 1", len(b.Events), b.Status)
		}
		for _, ev := range b.Events {
			got = append(got, ev.Data.(*api.OrderRecord).LimitPrice.String())
		}
		dropped += b.Dropped
	}
	if strings.Join(got, " ") != "100 101 102" || dropped != 1 {
		t.Fatalf("delivered %v and %d dropped rows: want 100 101 102 in order and the bad row said once", got, dropped)
	}
}
