package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

func txWithData(data string) TxResponse { return TxResponse{Data: json.RawMessage(data)} }

func TestOrderStatusShapes(t *testing.T) {
	cases := []struct {
		data string
		want []OrderStatus
	}{
		{`{"status":{"oid":12345}}`, []OrderStatus{{Oid: 12345}}},
		{`{"status":{"oid":"12345"}}`, []OrderStatus{{Oid: 12345}}},
		{`{"status":[{"oid":1},{"oid":2}]}`, []OrderStatus{{Oid: 1}, {Oid: 2}}},
		{`{"status":[{"resting":{"oid":7}},{"filled":{"oid":8,"totalSz":"0.1","avgPx":"50000.5"}},{"error":"post only would cross"}]}`,
			[]OrderStatus{{Oid: 7, Resting: true}, {Oid: 8, Filled: true, TotalSize: OptDecimal{dec("0.1"), true}, AvgPrice: OptDecimal{dec("50000.5"), true}}, {Error: "post only would cross"}}},
		{`{"statuses":["insufficient margin"]}`, []OrderStatus{{Error: "insufficient margin"}}},
		// The public bot's array: snake_case fill figures, an oid-less fill, a nested error.
		{`{"status":[{"resting":{"oid":3}},{"filled":{"total_size":"0.5","average_price":"3414.2","oid":4}},{"filled":{"total_size":"1","average_price":"10"}},{"error":{"error":"FOK not fillable"}}]}`,
			[]OrderStatus{{Oid: 3, Resting: true}, {Oid: 4, Filled: true, TotalSize: OptDecimal{dec("0.5"), true}, AvgPrice: OptDecimal{dec("3414.2"), true}},
				{Filled: true, TotalSize: OptDecimal{dec("1"), true}, AvgPrice: OptDecimal{dec("10"), true}}, {Error: "FOK not fillable"}}},
		// The simulator's: the state says whether the remainder rests.
		{`{"status":{"oid":9,"state":"open","totalSz":"0.2","avgPx":"100"}}`,
			[]OrderStatus{{Oid: 9, Resting: true, TotalSize: OptDecimal{dec("0.2"), true}, AvgPrice: OptDecimal{dec("100"), true}, State: "open"}}},
		{`{"status":{"oid":10,"state":"cancelled"}}`, []OrderStatus{{Oid: 10, State: "cancelled"}}},
	}
	for _, c := range cases {
		got, err := txWithData(c.data).OrderStatuses()
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s:\n got %+v %v\nwant %+v", c.data, got, err, c.want)
		}
	}
	ids, err := txWithData(cases[3].data).OrderIDs()
	if err != nil || len(ids) != 2 || ids[0] != 7 || ids[1] != 8 {
		t.Fatalf("OrderIDs %v %v", ids, err)
	}
	for _, bad := range []string{``, `null`, `[]`, `{}`, `{"status":null}`, `{"status":[{}]}`, `{"status":[{"oid":"x"}]}`, `{"status":"[}`,
		`{"status":[{"placed":{"oid":1}}]}`, `{"status":{"filled":{"total_size":"0"}}}`, `{"status":{"oid":1,"totalSz":"-1"}}`, `{"status":[""]}`} {
		if _, err := txWithData(bad).OrderStatuses(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := txWithData(``).OrderIDs(); !errors.Is(err, errNoData) {
		t.Errorf("empty data: %v", err)
	}
}

func TestCancelShapes(t *testing.T) {
	for data, want := range map[string]int{
		`{"status":[{"success":{"success":"cancelled"}},{"success":"ok"},"success",{"error":"not found"}]}`: 3,
		`{"success":"ok","orders_cancelled":4}`:   4,
		`{"success":"ok","orders_cancelled":"5"}`: 5,
		`{"status":{"success":true}}`:             1,
		`{"status":[{"success":false}]}`:          0,
	} {
		n, err := txWithData(data).CancelCount()
		if err != nil || n != want {
			t.Errorf("%s: %d %v, want %d", data, n, err, want)
		}
	}
	for _, bad := range []string{`{}`, `{"orders_cancelled":"many"}`, `7`} {
		if _, err := txWithData(bad).CancelCount(); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	sts, _ := txWithData(`{"status":["gone",{"x":1},[1]]}`).CancelStatuses()
	if len(sts) != 3 || sts[0].Error != "gone" || sts[1].OK || sts[2].OK || sts[2].Error == "" {
		t.Fatalf("%+v", sts)
	}
}

func TestWithdrawalNonce(t *testing.T) {
	for data, want := range map[string]uint64{`{"nonce":"1769690420567"}`: 1769690420567, `{"nonce":42}`: 42} {
		if n, err := txWithData(data).WithdrawalNonce(); err != nil || n != want {
			t.Errorf("%s: %d %v", data, n, err)
		}
	}
	for _, bad := range []string{`{}`, `{"nonce":"-1"}`, `{"nonce":true}`, ``} {
		if _, err := txWithData(bad).WithdrawalNonce(); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestAllPages(t *testing.T) {
	const total = 23
	fetch := func(_ context.Context, p PageParams) (Page[int], error) {
		pages := (total + p.Limit - 1) / p.Limit
		var data []int
		for i := (p.Page - 1) * p.Limit; i < min(p.Page*p.Limit, total); i++ {
			data = append(data, i)
		}
		return Page[int]{Data: data, Page: p.Page, Limit: p.Limit, TotalCount: total, TotalPages: pages, HasNext: p.Page < pages, HasPrev: p.Page > 1}, nil
	}
	var seen []string
	got, err := AllPages(context.Background(), fetch, 10, func(done, all int) { seen = append(seen, fmt.Sprintf("%d/%d", done, all)) })
	if err != nil || len(got) != total || got[22] != 22 {
		t.Fatalf("%v %v", got, err)
	}
	if strings.Join(seen, " ") != "10/23 20/23 23/23" {
		t.Fatalf("progress %v", seen)
	}
	// A server that ignores page and keeps answering page 1 is caught.
	stuck := func(_ context.Context, p PageParams) (Page[int], error) {
		return Page[int]{Data: []int{1}, Page: 1, HasNext: true, TotalPages: 9}, nil
	}
	if _, err := AllPages(context.Background(), stuck, 0, nil); err == nil {
		t.Fatal("stuck server accepted")
	}
	// An endless server stops at MaxPages.
	endless := func(_ context.Context, p PageParams) (Page[int], error) {
		return Page[int]{Data: []int{p.Page}, HasNext: true}, nil
	}
	if err := walkPages(context.Background(), endless, 1, 50, func(Page[int]) bool { return true }); err == nil {
		t.Fatal("endless server accepted")
	}
	// Polled and held, it stops at the records the console holds at most (#16).
	if got, err := AllPagesUpTo(context.Background(), endless, 1, 30); !IsKind(err, KindTooLarge) || got != nil {
		t.Fatalf("endless server, up to 30 records: %d records, %v", len(got), err)
	}
	boom := errors.New("boom")
	failing := func(context.Context, PageParams) (Page[int], error) { return Page[int]{}, boom }
	if _, err := AllPages(context.Background(), failing, 0, nil); !errors.Is(err, boom) {
		t.Fatalf("error lost: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AllPages(ctx, fetch, 10, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled: %v", err)
	}
}

func TestAllPagesAgainstServer(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, body []byte) {
		var req struct {
			Params pagedParams `json:"params"`
		}
		_ = json.Unmarshal(body, &req)
		p := req.Params.Page
		fmt.Fprintf(w, `{"data":[{"order_id":%d,"state":"filled","limit_price":"1","size":"1","unfilled":"0"}],"page":%d,"limit":1,"total_count":3,"total_pages":3,"has_next":%v,"has_prev":%v}`, p, p, p < 3, p > 1)
	})
	c := newTestClient(t, rec.srv.URL)
	got, err := AllPages(context.Background(), func(ctx context.Context, p PageParams) (Page[OrderRecord], error) {
		return c.OrderHistory(ctx, "", p)
	}, 1, nil)
	if err != nil || len(got) != 3 || got[2].OrderID != 3 || rec.count() != 3 {
		t.Fatalf("%+v %v after %d requests", got, err, rec.count())
	}
}

func TestOpenOrdersFallsBackToHistory(t *testing.T) {
	var openAsked atomic.Int32
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, body []byte) {
		var req struct {
			Method string      `json:"method"`
			Params pagedParams `json:"params"`
		}
		_ = json.Unmarshal(body, &req)
		if req.Method == MethodOpenOrders {
			openAsked.Add(1)
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":"Unknown method: open_orders"}`))
			return
		}
		p := req.Params.Page
		fmt.Fprintf(w, `{"data":[{"order_id":%d,"state":"open","limit_price":"1","size":"1","unfilled":"1"},{"order_id":%d,"state":"cancelled","limit_price":"1","size":"1","unfilled":"1"}],"page":%d,"limit":2,"total_count":4,"total_pages":2,"has_next":%v}`, p*10, p*10+1, p, p < 2)
	})
	c := newTestClient(t, rec.srv.URL)
	for range 2 {
		pg, err := c.OpenOrders(context.Background(), "", PageParams{})
		if err != nil || len(pg.Data) != 2 || pg.Data[0].OrderID != 10 || pg.Data[1].OrderID != 20 || pg.TotalCount != 2 {
			t.Fatalf("%+v %v", pg, err)
		}
	}
	if openAsked.Load() != 1 {
		t.Fatalf("open_orders asked %d times, want once", openAsked.Load())
	}
	// Other errors are not mistaken for an unknown method.
	rec2 := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { w.WriteHeader(500) })
	c2 := newTestClient(t, rec2.srv.URL)
	if _, err := c2.OpenOrders(context.Background(), "", PageParams{}); err == nil || rec2.count() != 1 {
		t.Fatalf("500 on open_orders: %v after %d", err, rec2.count())
	}
}

// FuzzOrderStatuses: whatever the answer, every order status read is either an id, a rejection or
// a positive fill, and never a negative figure; anything else is an error ("outcome unknown").
func FuzzOrderStatuses(f *testing.F) {
	for _, s := range []string{`{"status":{"oid":1}}`, `{"status":[{"resting":{"oid":3}},{"filled":{"total_size":"0.5","average_price":"3414.2"}},{"error":{"error":"x"}}]}`,
		`{"status":{"oid":9,"state":"open","totalSz":"0.2","avgPx":"100"}}`, `{"statuses":["no"]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		sts, err := txWithData(data).OrderStatuses()
		if err != nil {
			return
		}
		for _, s := range sts {
			fill := s.Filled && s.TotalSize.Valid && s.TotalSize.Decimal.IsPositive()
			if s.Oid == 0 && s.Error == "" && !fill {
				t.Fatalf("%q: status %+v says nothing", data, s)
			}
			if s.TotalSize.Decimal.IsNegative() || s.AvgPrice.Decimal.IsNegative() {
				t.Fatalf("%q: negative %+v", data, s)
			}
		}
	})
}
