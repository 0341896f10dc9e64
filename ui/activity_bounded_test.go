package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// inventor stands in for an exchange that keeps inventing rows: every page 1 of fills and of
// order history is a full page of rows never seen before, ending with the previous answer's
// newest row (so each page reaches the rows held and is merged on top), and says more pages
// follow. Its rows are the simulator's own first row with new ids.
type inventor struct {
	next http.Handler
	page int // rows an answer brings (page-1 of them new)
	mu   sync.Mutex
	top  map[string]int // the newest id answered, per method
	hits map[string]int
}

func (v *inventor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(req))
	var q struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(req, &q)
	if r.URL.Path != "/info" || (q.Method != "fills" && q.Method != "order_history") {
		v.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	v.next.ServeHTTP(rec, r)
	var env map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	data, _ := env["data"].([]any)
	if len(data) == 0 {
		_, _ = w.Write(rec.Body.Bytes()) // nothing to copy yet
		return
	}
	tmpl := data[0].(map[string]any)
	v.mu.Lock()
	prev := v.top[q.Method]
	if prev == 0 {
		prev = 1_000_000
	}
	page := v.page
	top := prev + page - 1
	v.top[q.Method] = top
	v.hits[q.Method]++
	v.mu.Unlock()
	rows := make([]any, page)
	for i := range rows {
		row := make(map[string]any, len(tmpl))
		for k, x := range tmpl {
			row[k] = x
		}
		row["order_id"] = top - i
		row["trade_id"] = top - i
		row["cloid"] = ""
		rows[i] = row
	}
	env["data"], env["page"], env["total_count"], env["total_pages"], env["has_next"] = rows, 1, 1<<30, 1<<23, true
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(env)
}

// TestInventedRowsBounded (issue #16): against a loopback exchange whose every page 1 of fills
// and order history brings 149 rows never seen before on top of the previous answer, the
// console polls both lists past their bound: each list holds exactly state.MaxPagedRows (the
// newest), the console keeps running, the pane's footer says the oldest were let go, and the
// live heap stays under the bound. Guards the bound of state's paged lists (dropped:
// both lists grow by 149 rows every poll without end). It runs in its own process (ownProcess).
func TestInventedRowsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("many polls")
	}
	if !ownProcess(t) { // it measures the process's live heap
		return
	}
	oldLog := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { slog.SetDefault(oldLog) })
	start := liveHeap()
	// A page brings the most a page of 100 may (api.PageLimit: 149 new), one page each brings
	// the lists to a poll short of the bound (prefill), and it polls 3 times past the bound: 5
	// polls and a page, each list still evicting hundreds. It polled 121 times, 99 rows a time,
	// under -race as well until it was a fifth of the package's CPU there (each poll's work grows
	// with the rows held), and in the plain run until it was a fifth of the package's CPU there
	// too (2.7 s of 14): the 116 polls it dropped only grew the lists, as prefill's page does.
	page, past := api.PageLimit(common.PageSize), 3
	inv := &inventor{page: page, top: map[string]int{}, hits: map[string]int{}}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { inv.next = h; return inv })
	pump(t, c.m, c.m.Init())
	trade(t, c, 1) // a real fill and order for the inventor to copy
	g, fills, history := activityGroup(t, c.m)
	polls := prefill(t, c, inv, fills.Task(), history.Task()) + past
	for range polls {
		pump(t, c.m, tea.Batch(teaCmd(fills.Task().Poll()), teaCmd(history.Task().Poll())))
	}
	if inv.hits["fills"] < polls || inv.hits["order_history"] < polls {
		t.Fatalf("the inventor answered %v, want %d each", inv.hits, polls)
	}
	nf, nh := len(c.m.store.Fills()), len(c.m.store.History())
	t.Logf("after %d polls of %d new rows each: %d fills and %d orders held (bound %d), %d and %d evicted",
		polls, page-1, nf, nh, state.MaxPagedRows, c.m.store.FillsEvicted(), c.m.store.HistoryEvicted())
	if nf != state.MaxPagedRows || nh != state.MaxPagedRows {
		t.Fatalf("held %d fills and %d orders, bound %d", nf, nh, state.MaxPagedRows)
	}
	if top := int(c.m.store.Fills()[0].TradeID); top != inv.top["fills"] {
		t.Errorf("the newest fill held is %d, the newest answered %d", top, inv.top["fills"])
	}
	if _, more := c.m.store.NextFillsPage(); more {
		t.Error("an older page is still asked for after evictions")
	}
	c.key(t, "7")
	if g.Active() != fills {
		t.Fatal("Activity does not show the fills")
	}
	if v := c.m.View(); !strings.Contains(v, "older let go (bound)") || !strings.Contains(v, "Fills (10000)") {
		t.Errorf("the fills pane does not say it keeps only the newest:\n%s", v)
	}
	h := liveHeap()
	t.Logf("live heap above the process's before: %.1f MB (bound %d MB)", float64(h-min(start, h))/(1<<20), heapBound>>20)
	if h-min(start, h) > heapBound {
		t.Errorf("live heap %.1f MB over the %d MB bound", float64(h-min(start, h))/(1<<20), heapBound>>20)
	}
}

// prefill polls both lists once, then brings each to a poll short of the bound with one page
// of the inventor's rows (ending with the newest held, merged on top as its answers are), sent
// through the lists' own tasks: the polls it stands for only grow the lists. It returns the polls
// left to reach the bound: one.
func prefill(t *testing.T, c *simConsole, inv *inventor, fills, history *feed.Task) int {
	t.Helper()
	pump(t, c.m, tea.Batch(teaCmd(fills.Poll()), teaCmd(history.Poll())))
	fs, hs := c.m.store.Fills(), c.m.store.History()
	n := state.MaxPagedRows - (inv.page - 1) - len(fs) + 1 // the rows of the page, one held
	ids := func(method string) []int {
		inv.mu.Lock()
		defer inv.mu.Unlock()
		prev := inv.top[method]
		inv.top[method] = prev + n - 1
		out := make([]int, n)
		for i := range out {
			out[i] = prev + n - 1 - i
		}
		return out
	}
	var fp api.Page[api.Fill]
	for _, id := range ids("fills") {
		f := fs[0]
		f.TradeID, f.OrderID, f.Cloid = api.TradeID(id), api.OrderID(id), ""
		fp.Data = append(fp.Data, f)
	}
	var hp api.Page[api.OrderRecord]
	for _, id := range ids("order_history") {
		o := hs[0]
		o.OrderID, o.Cloid = api.OrderID(id), ""
		hp.Data = append(hp.Data, o)
	}
	fp.Page, fp.TotalCount, fp.TotalPages, fp.HasNext = 1, 1<<30, 1<<23, true
	hp.Page, hp.TotalCount, hp.TotalPages, hp.HasNext = 1, 1<<30, 1<<23, true
	pump(t, c.m, tea.Batch(
		teaCmd(fills.Send(func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
			return state.FillsMsg{Gen: gen, At: at, Page: fp}, nil
		})),
		teaCmd(history.Send(func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
			return state.HistoryMsg{Gen: gen, At: at, Page: hp}, nil
		}))))
	if nf, nh := len(c.m.store.Fills()), len(c.m.store.History()); nf != state.MaxPagedRows-(inv.page-1) || nh != nf {
		t.Fatalf("prefilled %d fills and %d orders, want %d each", nf, nh, state.MaxPagedRows-(inv.page-1))
	}
	return 1
}
