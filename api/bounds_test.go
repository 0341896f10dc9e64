package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// boundedAlloc is the most one call may allocate (client and loopback server together) while a
// hostile server answers it: far below the 16 MiB body cap, so a client that reads a 14 MB answer
// to the end (or decodes it) is over it (issue #16).
const boundedAlloc = 8 << 20

// hostileAnswer is one way a broken or hostile exchange answers a 2xx /info request, and the
// words its error must say. The server writes it piece by piece and holds none of it.
type hostileAnswer struct {
	name  string
	say   string
	write func(w io.Writer) error
}

// listOf writes a list of n small ticker records (380,000 make about 14 MB, under the client's
// 16 MiB body cap: the answer of issue #16); n < 0 writes one without end.
func listOf(w io.Writer, n int) error {
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	var b []byte
	for i := 0; n < 0 || i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"symbol":"X%d","mark_price":"%d"}`, i, i)
		if len(b) > 32<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	_, err := w.Write(append(b, ']'))
	return err
}

// repeatTo writes s n times.
func repeatTo(w io.Writer, s string, n int) error {
	chunk := []byte(strings.Repeat(s, 4096))
	for i := 0; i < n; i += 4096 {
		if _, err := w.Write(chunk); err != nil {
			return err
		}
	}
	return nil
}

// hostileAnswers: an oversized list, a 1 MB deep nesting, mistyped fields, a number bomb and an
// endless body.
func hostileAnswers() []hostileAnswer {
	fixed := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	return []hostileAnswer{
		{"oversized", "entries in one list", func(w io.Writer) error { return listOf(w, 380000) }},
		{"deep", "nested more than 32 deep", func(w io.Writer) error {
			if err := repeatTo(w, "[", 1<<20); err != nil {
				return err
			}
			return repeatTo(w, "]", 1<<20)
		}},
		{"mistyped", "bad response", fixed(`{"data":{"a":[true]},"perps":7,"bids":"x","mark_price":{},"symbol":[1],"total_account_equity":[]}`)},
		{"number bomb", "exponent beyond", fixed(`[{"symbol":"X","mark_price":"1e999999999","size":1e999999999}]`)},
		{"endless", "entries in one list", func(w io.Writer) error { return listOf(w, -1) }},
	}
}

// polledCalls are the /info methods the console polls, each called with the parameters the
// console uses (a page of 100, the pane's limits).
func polledCalls() map[string]func(context.Context, *Client) error {
	const user = "0x1111111111111111111111111111111111111111"
	page := PageParams{Page: 1, Limit: 100}
	ignore := func(_ any, err error) error { return err }
	return map[string]func(context.Context, *Client) error{
		MethodAccountHistory:      func(ctx context.Context, c *Client) error { return ignore(c.AccountHistory(ctx, user, 200)) },
		MethodAccountSummary:      func(ctx context.Context, c *Client) error { return ignore(c.AccountSummary(ctx, user)) },
		MethodBrokersCheck:        func(ctx context.Context, c *Client) error { return ignore(c.BrokersCheck(ctx, user, "", page)) },
		MethodFills:               func(ctx context.Context, c *Client) error { return ignore(c.Fills(ctx, user, page)) },
		MethodFundingHistory:      func(ctx context.Context, c *Client) error { return ignore(c.FundingHistory(ctx, user, page)) },
		MethodInstrumentLeverage:  func(ctx context.Context, c *Client) error { return ignore(c.InstrumentLeverage(ctx, user, "BTC-PERP")) },
		MethodInstruments:         func(ctx context.Context, c *Client) error { return ignore(c.Instruments(ctx, "")) },
		MethodMids:                func(ctx context.Context, c *Client) error { return ignore(c.Mids(ctx, "")) },
		MethodOpenOrders:          func(ctx context.Context, c *Client) error { return ignore(c.OpenOrders(ctx, user, page)) },
		MethodOrderHistory:        func(ctx context.Context, c *Client) error { return ignore(c.OrderHistory(ctx, user, page)) },
		MethodOrderBook:           func(ctx context.Context, c *Client) error { return ignore(c.OrderBook(ctx, "BTC-PERP", 20)) },
		MethodPositions:           func(ctx context.Context, c *Client) error { return ignore(c.Positions(ctx, user)) },
		MethodSupportedCollateral: func(ctx context.Context, c *Client) error { return ignore(c.SupportedCollateral(ctx, "")) },
		MethodTicker:              func(ctx context.Context, c *Client) error { return ignore(c.Ticker(ctx, "")) },
		MethodTrades:              func(ctx context.Context, c *Client) error { return ignore(c.Trades(ctx, "BTC-PERP", 50)) },
		MethodTransferHistory:     func(ctx context.Context, c *Client) error { return ignore(c.TransferHistory(ctx, user, 200)) },
		MethodUserFees:            func(ctx context.Context, c *Client) error { return ignore(c.UserFees(ctx, user)) },
		MethodChart: func(ctx context.Context, c *Client) error {
			return ignore(c.Chart(ctx, ChartParams{InstrumentID: 1, ChartType: "mark", Resolution: "1", From: 1, To: 2}))
		},
	}
}

// allocated is what f allocates, the whole process counted (the test runs alone: no test of this
// package runs in parallel with a sequential one).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileAnswersBounded (issue #16): every /info method the console polls, answered with an
// oversized list (380,000 tickers, 14 MB), a 1 MB deep nesting, mistyped fields, a number bomb
// and an endless body, gives an error that names the method and the problem, takes nothing as
// data, and allocates under 8 MB on the way (the body is refused as it is read, not read to the
// cap). Guards the limits (CheckAnswer or the reading scan dropped: the 14 MB answer is read and
// decoded) and limitFor's cases for each method. The console's side (the status line, the stale
// mark, the heap) is TestHostileExchangeConsole's.
func TestHostileAnswersBounded(t *testing.T) {
	var most uint64
	for _, b := range hostileAnswers() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = b.write(w) // until it ends or the client hangs up
		}))
		c := New(srv.URL, WithAddress(destAddr), WithRetry(RetryPolicy{Attempts: 1}))
		for method, call := range polledCalls() {
			var err error
			n := allocated(func() { err = call(context.Background(), c) })
			if _, ok := AsError(err); !ok || !strings.Contains(err.Error(), "info "+method) || !strings.Contains(err.Error(), b.say) {
				t.Errorf("%s answered %s: %v, want an error naming info %s and saying %q", method, b.name, err, method, b.say)
			}
			most = max(most, n)
			if n > boundedAlloc {
				t.Errorf("%s answered %s: the call allocated %.1f MB, over the %d MB bound", method, b.name, float64(n)/(1<<20), boundedAlloc>>20)
			}
		}
		srv.Close()
	}
	t.Logf("the most one call allocated: %.2f MB (bound %d MB)", float64(most)/(1<<20), boundedAlloc>>20)
}
