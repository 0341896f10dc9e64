package headless

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/report"
)

// TestReportMeasuresAnAlgorithmAgainstTheMarket (issue #41): after `twap` works its slices,
// `report --json` gives the algorithm's card with the market's VWAP over its interval, the
// market's volume (its own fills among them), its participation (its size over that volume, at
// most 1) and its slippage against the VWAP; the CSV carries the same columns as its header. Guards:
// the algorithm's card without the market, the participation over 1, the CSV's market columns out
// of step.
func TestReportMeasuresAnAlgorithmAgainstTheMarket(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	if code, _, errs := h.run("twap", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.004", "--duration", "300ms", "--slices", "3", "--json"); code != 0 {
		t.Fatalf("twap: exit %d %s", code, errs)
	}
	var rows []reportRow
	if err := json.Unmarshal([]byte(h.ok("report", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	var algo *reportRow
	for i := range rows {
		if rows[i].Kind == "twap" {
			algo = &rows[i]
		}
	}
	if algo == nil || algo.Market == nil {
		t.Fatalf("no twap card with its market: %+v", rows)
	}
	m := algo.Market
	if !algo.Size.Equal(decimal.RequireFromString("0.004")) || !m.VWAP.IsPositive() || m.Volume.LessThan(algo.Size) || m.Trades < 1 ||
		!m.VsVWAP.Known || (m.Covered && (!m.Participation.IsPositive() || m.Participation.GreaterThan(decimal.NewFromInt(1)))) {
		t.Fatalf("algorithm %+v market %+v", algo.Card, m)
	}
	recs, err := csv.NewReader(strings.NewReader(h.ok("report", "--csv"))).ReadAll()
	if err != nil || len(recs) < 2 || len(recs[1]) != len(reportColumns) {
		t.Fatalf("csv %v %v", recs, err)
	}
	col := map[string]int{}
	for i, c := range reportColumns {
		col[c] = i
	}
	if got := recs[1][col["market_vwap"]]; recs[1][0] != "twap" || got != m.VWAP.String() {
		t.Errorf("csv market_vwap %q of %q, json %s", got, recs[1][0], m.VWAP)
	}
	if out := h.ok("report"); !strings.Contains(out, "VS VWAP") || !strings.Contains(out, "twap") {
		t.Errorf("report table:\n%s", out)
	}
}

// TestReportOnAFreshJournal (issue #41): `report` and `trades` on a machine whose journal never
// saw the orders (a fresh state directory) still give every order's card from the exchange's
// fills (average, fees), saying the arrival is not known rather than failing or inventing one,
// and the round trips. Guards: the report needing the journal, an arrival of zero taken as a
// price (a huge slippage).
func TestReportOnAFreshJournal(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newStillHarness(t)
	res := h.orderJSON("--instrument", "ETH-PERP", "--side", "buy", "--size", "0.5", "--market", "--yes")
	tr := h.truthOf(res.Oid)
	h.stateDir = t.TempDir() // another machine: a journal that holds nothing
	var rows []reportRow
	if err := json.Unmarshal([]byte(h.ok("report", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].OrderID != res.Oid || !rows[0].AvgPrice.Equal(tr.fill.AvgPrice) || !rows[0].Fee.Equal(tr.fill.Fee) ||
		rows[0].VsArrival.Known || rows[0].VsPreview.Known || rows[0].Latency != nil {
		t.Fatalf("fresh journal: %+v; the exchange's fills %+v", rows, tr.fill)
	}
	if out := h.ok("trades"); !strings.Contains(out, "ETH-PERP") || !strings.Contains(out, "open") {
		t.Errorf("trades on a fresh journal:\n%s", out)
	}
}

// TestBatchAndBracketSayTheirCost (issue #41): a batch's filled market orders and a bracket's
// filled market entry say their slippage against the preview and their fee on their result lines
// (the table's status, the JSON's cost; the bracket's order line), as a single order does.
// Guards: a batch's or bracket's orders without their arrival, the phrase left to single orders.
func TestBatchAndBracketSayTheirCost(t *testing.T) {
	t.Parallel()
	h := newStillHarness(t)
	f := h.batchFile("--instrument ETH-PERP --side buy --size 0.2 --market", "--instrument BTC-PERP --side buy --size 0.002 --market")
	code, out, errs := h.run("batch", "--file", f, "--yes")
	if code != 0 || strings.Count(out, "bp vs preview, fee ") != 2 {
		t.Fatalf("batch: exit %d %q\n%s", code, errs, out)
	}
	var res batchJSON
	if err := json.Unmarshal([]byte(h.ok("batch", "--file", f, "--yes", "--json")), &res); err != nil || len(res.Orders) != 2 ||
		!strings.Contains(res.Orders[0].Cost, "vs preview") {
		t.Fatalf("batch json %+v %v", res, err)
	}
	out = h.ok("order", "--instrument", "ETH-PERP", "--side", "buy", "--size", "0.2", "--market", "--tp", "5%", "--sl", "5%", "--yes")
	if !strings.Contains(out, "bp vs preview, fee ") {
		t.Errorf("bracket:\n%s", out)
	}
}

// TestReportGivesTheConsolesLatency (issue #41): an order whose route the console kept in the
// journal (keystroke, signed, answered, streamed, shown) has its four legs and its whole in
// `report --json` and `--csv`, the legs adding up to the whole. Guards: the route not read from
// the journal, a leg's column out of step with its header.
func TestReportGivesTheConsolesLatency(t *testing.T) {
	t.Parallel()
	h := newStillHarness(t)
	res := h.orderJSON("--instrument", "ETH-PERP", "--side", "buy", "--size", "0.2", "--market", "--yes")
	files, _ := filepath.Glob(filepath.Join(h.stateDir, "journal", "*.db"))
	if len(files) != 1 {
		t.Fatalf("journals %v", files)
	}
	j, err := journal.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	ms := func(n float64) time.Time { return t0.Add(time.Duration(n * float64(time.Millisecond))) }
	err = j.SetRoute(context.Background(), journal.Route{ID: res.Order.Cloid, Keystroke: t0, Signed: ms(2.5), Answered: ms(31), Streamed: ms(30.4), Shown: ms(36)})
	_ = j.Close()
	if err != nil {
		t.Fatal(err)
	}
	var rows []reportRow
	if err := json.Unmarshal([]byte(h.ok("report", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	l := rows[0].Latency
	if len(rows) != 1 || l == nil || l.Whole != 36*time.Millisecond || l.Legs[report.LegStream] != -600*time.Microsecond ||
		l.Legs[0]+l.Legs[1]+l.Legs[2]+l.Legs[3] != l.Whole {
		t.Fatalf("latency %+v of %+v", l, rows)
	}
	recs, err := csv.NewReader(strings.NewReader(h.ok("report", "--csv"))).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatal(recs, err)
	}
	got := map[string]string{}
	for i, c := range reportColumns {
		got[c] = recs[1][i]
	}
	if got["latency_sign_ms"] != "2.5" || got["latency_stream_ms"] != "-0.6" || got["latency_ms"] != "36" {
		t.Errorf("csv latency %v", got)
	}
}
