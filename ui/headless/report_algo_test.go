package headless

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestReportMeasuresAnAlgorithmAgainstTheMarket (issue #41): after `twap` works its slices,
// `report --json` gives the algorithm's card with the market's VWAP over its interval, the
// market's volume (its own fills among them), its participation (its size over that volume, at
// most 1) and its slippage against the VWAP; the CSV carries the same columns as its header. Guards:
// the algorithm's card without the market, the participation over 1, the CSV's market columns out
// of step.
func TestReportMeasuresAnAlgorithmAgainstTheMarket(t *testing.T) {
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
