package ui

import (
	"context"
	"encoding/csv"
	"github.com/tradedesk/tradedesk/ui/components/fills"
	"github.com/tradedesk/tradedesk/ui/components/history"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// activityGroup finds the Activity group's fills and history panes.
func activityGroup(t *testing.T, m *Model) (*common.Group, *fills.Pane, *history.Pane) {
	t.Helper()
	for _, s := range m.slots {
		if g, ok := s.pane.(*common.Group); ok && g.Name() == "Activity" {
			return g, g.Panes()[0].(*fills.Pane), g.Panes()[1].(*history.Pane)
		}
	}
	t.Fatal("no Activity group")
	return nil, nil, nil
}

// trade sends n market buys of a small size straight through the client, in batches.
func trade(t *testing.T, c *simConsole, n int) {
	t.Helper()
	var wires []api.OrderWire
	for range n {
		co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: api.SideBuy, Type: state.Market,
			Size: "0.001"}, state.DefaultGuard())
		if len(errs) > 0 {
			t.Fatalf("order check: %v", errs)
		}
		wires = append(wires, co.Wire)
	}
	for len(wires) > 0 {
		k := min(len(wires), api.MaxBatch)
		if _, err := c.m.ex.PlaceOrders(context.Background(), wires[:k]); err != nil {
			t.Fatal(err)
		}
		wires = wires[k:]
	}
}

// TestFillsAndHistoryAgainstSimulator trades 130 times on the simulator, then reads the fills and
// the order history through the console: new fills ring and show a notice, scrolling past the
// first page loads the second, and the export writes every page. It sets the process's export
// directory, so it runs in its own process (ownProcess).
func TestFillsAndHistoryAgainstSimulator(t *testing.T) {
	if !ownProcess(t) {
		return
	}
	dir := t.TempDir()
	old := pagedlist.ExportDir
	pagedlist.ExportDir = dir
	t.Cleanup(func() { pagedlist.ExportDir = old })

	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	g, fills, history := activityGroup(t, c.m)
	rings := 0
	fills.Ring = func() { rings++ }
	fills.Bell = true
	if len(fills.Fills()) != 0 || !c.m.store.Freshness(state.KindFills).Loaded() {
		t.Fatalf("a new account has %d fills (loaded %v)", len(fills.Fills()), c.m.store.Freshness(state.KindFills).Loaded())
	}

	trade(t, c, 130)
	pump(t, c.m, teaCmd(fills.Task().Poll()))
	pump(t, c.m, teaCmd(history.Task().Poll()))
	total, err := c.m.ex.Fills(context.Background(), c.m.ex.Address(), api.PageParams{Limit: 1})
	if err != nil || total.TotalCount < 130 {
		t.Fatalf("the simulator has %d fills: %v", total.TotalCount, err)
	}
	if len(fills.Fills()) != 100 || rings != 1 || !strings.HasPrefix(c.m.shownNotice(), "filled: buy 0.0010 BTC-PERP @ 9") {
		t.Fatalf("after trading: %d fills shown, %d rings, notice %q", len(fills.Fills()), rings, c.m.shownNotice())
	}

	c.key(t, "7") // Activity
	if g.Active() != fills {
		t.Fatal("the Activity group does not show the fills")
	}
	c.key(t, "end")
	c.key(t, "end")
	if len(fills.Fills()) != total.TotalCount {
		t.Fatalf("after scrolling to the end: %d of %d fills loaded", len(fills.Fills()), total.TotalCount)
	}
	if !strings.Contains(c.m.View(), "Fills ("+strconv.Itoa(total.TotalCount)+")") {
		t.Errorf("the title does not count the fills loaded")
	}

	c.key(t, "e")
	recs := readCSV(t, filepath.Join(dir, "tradedesk-fills-"+c.clock.Now().UTC().Format("20060102-150405")+".csv"))
	if len(recs) != total.TotalCount+1 {
		t.Fatalf("export has %d rows, want %d and a header", len(recs)-1, total.TotalCount)
	}
	for i, f := range fills.Fills() {
		if r := recs[i+1]; r[14] != strconv.Itoa(int(f.TradeID)) || r[5] != f.Price.String() || r[6] != f.Size.String() {
			t.Fatalf("export row %d %v, fill %+v", i, r, f)
		}
	}

	c.key(t, "]") // order history: 130 filled market orders, the newest first
	if g.Active() != history || len(history.Records()) != 100 {
		t.Fatalf("history shows %d orders", len(history.Records()))
	}
	c.key(t, "end")
	if len(history.Records()) != 130 || history.Records()[0].State != api.StateFilled {
		t.Fatalf("history after paging: %d orders, first %+v", len(history.Records()), history.Records()[0])
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
