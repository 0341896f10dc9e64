// Package export writes every page of the account's fills or order history to CSV or JSON. The
// console's export key and the headless `tradedesk export` command share it.
//
// CSV has a header row and the exact decimal strings the exchange sent; JSON is an array of the
// records in the exchange's own field names. Rows are newest first, as the exchange pages them;
// a record that moves to the next page while the export runs (new fills arrive) is written once.
package export

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// Format is an output format.
type Format int

// Output formats.
const (
	CSV Format = iota
	JSON
)

// String returns "csv" or "json".
func (f Format) String() string {
	if f == JSON {
		return "json"
	}
	return "csv"
}

// ParseFormat reads "csv" or "json" (case-insensitive).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "csv":
		return CSV, nil
	case "json":
		return JSON, nil
	}
	return CSV, fmt.Errorf("unknown export format %s: use csv or json", text.Quote(s))
}

// What is the data an export writes.
type What int

// The exportable lists.
const (
	Fills What = iota
	History
)

// String returns "fills" or "history".
func (w What) String() string {
	if w == History {
		return "history"
	}
	return "fills"
}

// ParseWhat reads "fills" or "history" ("order_history" and "orders" are accepted too).
func ParseWhat(s string) (What, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "fills":
		return Fills, nil
	case "history", "order_history", "orders":
		return History, nil
	}
	return Fills, fmt.Errorf("unknown export %s: use fills or history", text.Quote(s))
}

// Progress is called after each page with the records fetched so far and the server's total.
type Progress func(done, total int)

// Column is one CSV column: its header and how to write a record's value.
type Column[T any] struct {
	Name  string
	Value func(*T) string
}

// Run fetches every page of what for user through info and writes it to w in format f. It
// returns the number of records written.
func Run(ctx context.Context, info api.Info, user string, what What, f Format, w io.Writer, progress Progress) (int, error) {
	switch what {
	case History:
		fetch := func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
			return info.OrderHistory(ctx, user, p)
		}
		return Pages(ctx, fetch, OrderKey, OrderColumns(), f, w, progress)
	default:
		fetch := func(ctx context.Context, p api.PageParams) (api.Page[api.Fill], error) {
			return info.Fills(ctx, user, p)
		}
		return Pages(ctx, fetch, FillKey, FillColumns(), f, w, progress)
	}
}

// Pages fetches every page through fetch, drops records whose key was already seen, and writes
// the rest in format f. Nothing is written unless every page was fetched.
func Pages[T any, K comparable](ctx context.Context, fetch func(context.Context, api.PageParams) (api.Page[T], error),
	key func(*T) K, cols []Column[T], f Format, w io.Writer, progress Progress) (int, error) {
	rows, err := api.AllPages(ctx, fetch, api.DefaultPageSize, progress)
	if err != nil {
		return 0, fmt.Errorf("export stopped: %w", err)
	}
	rows = dedupe(rows, key)
	if f == JSON {
		return len(rows), WriteJSON(w, rows)
	}
	return len(rows), WriteCSV(w, cols, rows)
}

func dedupe[T any, K comparable](rows []T, key func(*T) K) []T {
	seen := make(map[K]struct{}, len(rows))
	out := rows[:0]
	for i := range rows {
		k := key(&rows[i])
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		out = append(out, rows[i])
	}
	return out
}

// SafeCell keeps a spreadsheet from running a cell as a formula (OWASP's advice on CSV
// injection): a cell that begins with =, +, - or @, a tab or a carriage return is written as
// text, with a ' before it, unless it is a plain number (-12.5 stays a number). Cloids and names
// come from other programs and servers: "=HYPERLINK(...)" would otherwise run on opening.
func SafeCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) || plainNumber.MatchString(s) {
		return s
	}
	return "'" + s
}

// plainNumber is a signed decimal, which a spreadsheet reads as a number, not a formula.
var plainNumber = regexp.MustCompile(`^[+-]?[0-9]+(\.[0-9]+)?$`)

// WriteCSV writes a header row and one row per record, each cell through SafeCell.
func WriteCSV[T any](w io.Writer, cols []Column[T], rows []T) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = c.Name
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i := range rows {
		for j, c := range cols {
			rec[j] = SafeCell(c.Value(&rows[i]))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the records as a JSON array, one record per line.
func WriteJSON[T any](w io.Writer, rows []T) error {
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	for i := range rows {
		b, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == 0 {
			sep = "\n"
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n]\n")
	return err
}

// FillKey identifies a fill: a self-trade has two fills with one trade id, one per order.
func FillKey(f *api.Fill) [2]uint64 { return [2]uint64{uint64(f.TradeID), uint64(f.OrderID)} }

// OrderKey identifies an order.
func OrderKey(o *api.OrderRecord) api.OrderID { return o.OrderID }

// Liquidity is "taker" for a fill that crossed the book, else "maker".
func Liquidity(crossed bool) string {
	if crossed {
		return "taker"
	}
	return "maker"
}

// FillColumns are the CSV columns of fills.
func FillColumns() []Column[api.Fill] {
	return []Column[api.Fill]{
		{"time", func(f *api.Fill) string { return state.TimeText(f.BlockTime.Time, state.TimeExport) }},
		{"instrument", func(f *api.Fill) string { return f.Instrument }},
		{"instrument_id", func(f *api.Fill) string { return strconv.FormatInt(int64(f.InstrumentID), 10) }},
		{"side", func(f *api.Fill) string { return sideWord(f.Side) }},
		{"direction", func(f *api.Fill) string { return f.Direction }},
		{"price", func(f *api.Fill) string { return f.Price.String() }},
		{"size", func(f *api.Fill) string { return f.Size.String() }},
		{"notional", func(f *api.Fill) string { return f.NotionalValue.String() }},
		{"fee", func(f *api.Fill) string { return f.Fee.String() }},
		{"broker_fee", func(f *api.Fill) string { return f.BrokerFee.String() }},
		{"closed_pnl", func(f *api.Fill) string { return f.ClosedPnl.String() }},
		{"liquidity", func(f *api.Fill) string { return Liquidity(f.Crossed) }},
		{"order_id", func(f *api.Fill) string { return strconv.FormatUint(uint64(f.OrderID), 10) }},
		{"cloid", func(f *api.Fill) string { return f.Cloid }},
		{"trade_id", func(f *api.Fill) string { return strconv.FormatUint(uint64(f.TradeID), 10) }},
		{"tx_hash", func(f *api.Fill) string { return f.TxHash }},
	}
}

// OrderColumns are the CSV columns of order history.
func OrderColumns() []Column[api.OrderRecord] {
	return []Column[api.OrderRecord]{
		{"time", func(o *api.OrderRecord) string { return state.TimeText(o.Timestamp.Time, state.TimeExport) }},
		{"instrument", func(o *api.OrderRecord) string { return o.Instrument }},
		{"instrument_id", func(o *api.OrderRecord) string { return strconv.FormatInt(int64(o.InstrumentID), 10) }},
		{"order_id", func(o *api.OrderRecord) string { return strconv.FormatUint(uint64(o.OrderID), 10) }},
		{"side", func(o *api.OrderRecord) string { return sideWord(o.Side) }},
		{"type", func(o *api.OrderRecord) string { return state.OrderTypeText(o.Tpsl, o.IsMarket) }},
		{"tif", func(o *api.OrderRecord) string { return o.Tif }},
		{"post_only", func(o *api.OrderRecord) string { return strconv.FormatBool(o.PostOnly) }},
		{"reduce_only", func(o *api.OrderRecord) string { return strconv.FormatBool(o.ReduceOnly) }},
		{"limit_price", func(o *api.OrderRecord) string { return o.LimitPrice.String() }},
		{"trigger_px", func(o *api.OrderRecord) string {
			if !o.TriggerPx.Valid {
				return ""
			}
			return o.TriggerPx.Decimal.String()
		}},
		{"size", func(o *api.OrderRecord) string { return o.Size.String() }},
		{"unfilled", func(o *api.OrderRecord) string { return o.Unfilled.String() }},
		{"state", func(o *api.OrderRecord) string { return o.State }},
		{"cloid", func(o *api.OrderRecord) string { return o.Cloid }},
	}
}

// FileName is a default output file name: tradedesk-fills-20260302-091500.csv.
func FileName(what What, f Format, at time.Time) string {
	return fmt.Sprintf("tradedesk-%s-%s.%s", what, at.UTC().Format("20060102-150405"), f)
}

// sideWord is a side as a spreadsheet reads it ("buy", "sell", not the wire's "b"); a side the
// exchange may add later is kept as sent.
func sideWord(side string) string {
	if w := state.SideText(side); w != "?" {
		return w
	}
	return side
}
