package api

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

const (
	testKey  = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	testAddr = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	destAddr = "0x9908658A316D743159F001026F1ef08aa8F0b55B"
	vecNonce = 1769690420567
)

// recorder is an httptest server that records each request and answers with handle.
type recorder struct {
	srv    *httptest.Server
	mu     sync.Mutex
	paths  []string
	bodies []string
	handle func(w http.ResponseWriter, r *http.Request, body []byte)
}

func newRecorder(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, body []byte)) *recorder {
	t.Helper()
	rec := &recorder{handle: handle}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %s with content type %q", r.Method, r.Header.Get("Content-Type"))
		}
		rec.mu.Lock()
		rec.paths = append(rec.paths, r.URL.Path)
		rec.bodies = append(rec.bodies, string(body))
		rec.mu.Unlock()
		rec.handle(w, r, body)
	}))
	t.Cleanup(rec.srv.Close)
	ForgetBudgetAfter(t, rec.srv)
	return rec
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.bodies)
}

func (r *recorder) last() (path, body string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bodies) == 0 {
		return "", ""
	}
	return r.paths[len(r.paths)-1], r.bodies[len(r.bodies)-1]
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fixedClock() time.Time { return time.UnixMilli(vecNonce) }

func newTestClient(t testing.TB, url string, opts ...Option) *Client {
	t.Helper()
	s, err := SignerFromHex(testKey)
	if err != nil {
		t.Fatal(err)
	}
	base := []Option{WithSigner(s), WithClock(fixedClock), WithRetry(RetryPolicy{Attempts: 1})}
	c := New(url, append(base, opts...)...)
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
	return c
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestInfoRoundTrips(t *testing.T) {
	var answer []byte
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { _, _ = w.Write(answer) })
	c := newTestClient(t, rec.srv.URL+"/")
	ctx := context.Background()
	for _, tc := range infoCases() {
		t.Run(tc.name, func(t *testing.T) {
			answer = readTestdata(t, "info/"+tc.file)
			got, err := tc.call(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			path, body := rec.last()
			if path != "/info" {
				t.Fatalf("path %q", path)
			}
			if body != tc.want {
				t.Fatalf("request body\n got %s\nwant %s", body, tc.want)
			}
			tc.check(t, got)
		})
	}
}

type infoCase struct {
	name, file, want string
	call             func(context.Context, *Client) (any, error)
	check            func(*testing.T, any)
}

func infoCases() []infoCase {
	lower := "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"
	return []infoCase{
		{"account_summary", "account_summary.json", `{"method":"account_summary","params":{"user":"` + testAddr + `"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.AccountSummary(ctx, "") },
			func(t *testing.T, v any) {
				a := v.(AccountSummary)
				p := a.PerpPositions["BTC-PERP"]
				if !a.Collateral["USDC"].Balance.Equal(dec("10250.5")) || len(p.Legs) != 1 || !p.Legs[0].Leverage.Value.Equal(dec("10")) ||
					!a.TotalPnl.Equal(dec("-120.5")) || !a.VaultBalances[destAddr].TotalShares.Equal(dec("12.5")) || p.PositionType != "oneWay" {
					t.Fatalf("decoded %+v", a)
				}
			}},
		{"brokers_check", "brokers_check.json", `{"method":"brokers_check","params":{"user":"` + testAddr + `","broker":"` + destAddr + `","page":2,"limit":50}}`,
			func(ctx context.Context, c *Client) (any, error) {
				return c.BrokersCheck(ctx, lower, "0x9908658a316d743159f001026f1ef08aa8f0b55b", PageParams{Page: 2, Limit: 50})
			},
			func(t *testing.T, v any) {
				p := v.(Page[BrokerApproval])
				if p.Page != 2 || p.TotalPages != 2 || !p.HasPrev || len(p.Data) != 1 || !p.Data[0].MaxFeeRate.Equal(dec("0.001")) ||
					p.Data[0].UpdatedAt.Unix() != 1769690420 {
					t.Fatalf("decoded %+v", p)
				}
			}},
		{"instruments", "instruments.json", `{"method":"instruments","params":{"type":"perps"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.Instruments(ctx, "perps") },
			func(t *testing.T, v any) {
				in := v.(Instruments)
				if len(in.Perps) != 1 || !in.Perps[0].TickSize.Equal(dec("0.5")) || len(in.Perps[0].MarginTiers) != 2 ||
					!in.Perps[0].MarginTiers[1].NotionalUSDThreshold.Equal(dec("1000000")) || in.Perps[0].ListedAt.UnixMilli() != 1735689600000 ||
					len(in.Spot) != 1 || in.Spot[0].QuoteAsset != 1 || !in.Spot[0].TickSize.Equal(dec("0.0001")) {
					t.Fatalf("decoded %+v", in)
				}
			}},
		{"chart", "chart.json", `{"method":"chart","params":{"symbol":"1","instrument_id":1,"chart_type":"mark","resolution":"60","from":1769600000,"to":1769700000}}`,
			func(ctx context.Context, c *Client) (any, error) {
				return c.Chart(ctx, ChartParams{InstrumentID: 1, ChartType: "mark", Resolution: "60", From: 1769600000, To: 1769700000999})
			},
			func(t *testing.T, v any) {
				cs := v.([]Candle)
				if len(cs) != 2 || cs[0].Time.UnixMilli() != 1769688000000 || !cs[0].Close.Equal(dec("50050.25")) || !cs[1].Volume.Equal(dec("3.2")) {
					t.Fatalf("decoded %+v", cs)
				}
			}},
		{"fills", "fills.json", `{"method":"fills","params":{"user":"` + testAddr + `","page":1,"limit":100}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.Fills(ctx, "", PageParams{}) },
			func(t *testing.T, v any) {
				p := v.(Page[Fill])
				f := p.Data[0]
				if len(p.Data) != 1 || f.TradeID != 184467440737095516 || !f.Fee.Equal(dec("-0.15")) || f.Direction != DirOpenLong ||
					!f.Crossed || f.BlockTime.UnixMilli() != 1769690421123 {
					t.Fatalf("decoded %+v", p)
				}
			}},
		{"order_history", "order_history.json", `{"method":"order_history","params":{"user":"` + testAddr + `","page":3,"limit":10}}`,
			func(ctx context.Context, c *Client) (any, error) {
				return c.OrderHistory(ctx, testAddr, PageParams{Page: 3, Limit: 10})
			},
			func(t *testing.T, v any) {
				p := v.(Page[OrderRecord])
				a, b := p.Data[0], p.Data[1]
				if p.TotalCount != 2 || p.Page != 1 || a.TriggerPx.Valid || !a.Unfilled.Equal(dec("0.04")) || a.Timestamp.UnixMilli() != 1769690420567 ||
					b.OrderID != 12346 || b.InstrumentID != 2 || !b.LimitPrice.Equal(dec("3000")) || !b.TriggerPx.Decimal.Equal(dec("2900")) || b.State != StateFilled {
					t.Fatalf("decoded %+v", p)
				}
			}},
		{"open_orders", "open_orders.json", `{"method":"open_orders","params":{"user":"` + testAddr + `","page":1,"limit":100}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.OpenOrders(ctx, "", PageParams{}) },
			func(t *testing.T, v any) {
				p := v.(Page[OrderRecord])
				if len(p.Data) != 1 || p.Data[0].OrderID != 12345 || p.Data[0].State != StateOpen {
					t.Fatalf("decoded %+v", p)
				}
			}},
		{"instrument_leverage", "instrument_leverage.json", `{"method":"instrument_leverage","params":{"user":"` + testAddr + `","symbol":"BTC-PERP"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.InstrumentLeverage(ctx, "", "BTC-PERP") },
			func(t *testing.T, v any) {
				l := v.(InstrumentLeverage)
				if l.MarginType != MarginCross || !l.Leverage.Equal(dec("10")) || l.UpdatedAt.Unix() != 1769690420 {
					t.Fatalf("decoded %+v", l)
				}
			}},
		{"supported_collateral", "supported_collateral.json", `{"method":"supported_collateral","params":{"symbol":"all"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.SupportedCollateral(ctx, "") },
			func(t *testing.T, v any) {
				cs := v.([]Collateral)
				if len(cs) != 1 || cs[0].Decimals != 6 || cs[0].BridgeByChain[0].BridgeChainID != 42161 ||
					!cs[0].CollRisk.WeightTiers[1].Weight.Equal(dec("0.95")) || !cs[0].WithdrawalFee.Equal(dec("1")) {
					t.Fatalf("decoded %+v", cs)
				}
			}},
		{"positions", "positions.json", `{"method":"positions","params":{"user":"` + testAddr + `"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.Positions(ctx, testAddr) },
			func(t *testing.T, v any) {
				ps := v.([]Position)
				if len(ps) != 1 || !ps[0].Size.Equal(dec("-1.5")) || ps[0].MarginMode != MarginIsolated || ps[0].UpdatedAt.Unix() != 1769690420 {
					t.Fatalf("decoded %+v", ps)
				}
			}},
		{"ticker", "ticker.json", `{"method":"ticker","params":{"symbol":"BTC-PERP"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.Ticker(ctx, "BTC-PERP") },
			func(t *testing.T, v any) {
				ts := v.([]Ticker)
				if len(ts) != 1 || !ts[0].FundingRate.Equal(dec("0.0000125")) || ts[0].LastUpdated.UnixMilli() != 1769690420567 {
					t.Fatalf("decoded %+v", ts)
				}
			}},
		{"mids", "mids.json", `{"method":"mids","params":{"symbol":"all"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.Mids(ctx, "") },
			func(t *testing.T, v any) {
				ms := v.([]Mid)
				if len(ms) != 2 || ms[1].Symbol != "ETH-PERP" || !ms[1].MidPrice.Equal(dec("3001.25")) {
					t.Fatalf("decoded %+v", ms)
				}
			}},
		{"orderbook", "orderbook.json", `{"method":"orderbook","params":{"symbol":"BTC-PERP","depth":10}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.OrderBook(ctx, "BTC-PERP", 10) },
			func(t *testing.T, v any) {
				b := v.(OrderBook)
				if len(b.Bids) != 2 || len(b.Asks) != 2 || !b.Asks[0].Price.Equal(dec("50010.5")) || !b.Bids[1].Size.Equal(dec("3")) {
					t.Fatalf("decoded %+v", b)
				}
			}},
	}
}

func TestInfoRejectsBadArgumentsBeforeSending(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { _, _ = w.Write([]byte(`{}`)) })
	c := newTestClient(t, rec.srv.URL)
	ro := New(rec.srv.URL) // no account at all
	ctx := context.Background()
	calls := map[string]func() error{
		"bad user":        func() error { _, err := c.Positions(ctx, "0x1234"); return err },
		"bad checksum":    func() error { _, err := c.Positions(ctx, "0x2C7536E3605D9C16a7a3D7b1898e529396a65c23"); return err },
		"no account":      func() error { _, err := ro.Fills(ctx, "", PageParams{}); return err },
		"bad broker":      func() error { _, err := c.BrokersCheck(ctx, "", "nope", PageParams{}); return err },
		"instrument kind": func() error { _, err := c.Instruments(ctx, "futures"); return err },
		"chart type": func() error {
			_, err := c.Chart(ctx, ChartParams{ChartType: "last", Resolution: "1", From: 1, To: 2})
			return err
		},
		"resolution": func() error {
			_, err := c.Chart(ctx, ChartParams{ChartType: "ltp", Resolution: "2", From: 1, To: 2})
			return err
		},
		"chart range": func() error {
			_, err := c.Chart(ctx, ChartParams{ChartType: "ltp", Resolution: "1", From: 5, To: 2})
			return err
		},
		"leverage symbol": func() error { _, err := c.InstrumentLeverage(ctx, "", ""); return err },
		"book symbol":     func() error { _, err := c.OrderBook(ctx, "", 0); return err },
		"book depth":      func() error { _, err := c.OrderBook(ctx, "BTC-PERP", -1); return err },
	}
	for name, call := range calls {
		e, ok := AsError(call())
		if !ok || e.Kind != KindInvalid || e.Message == "" {
			t.Errorf("%s: %v, want a KindInvalid *Error", name, e)
		}
	}
	if rec.count() != 0 {
		t.Fatalf("%d requests sent", rec.count())
	}
}

func TestNewConfiguration(t *testing.T) {
	c := New("", WithNetwork(Testnet))
	if c.BaseURL() != "https://testnet-api.hotstuff.trade" || c.Source() != SourceTestnet || c.CanTrade() || c.Address() != "" {
		t.Fatalf("testnet client %v", c)
	}
	c = New("")
	if c.BaseURL() != "https://api.hotstuff.trade" || c.Source() != SourceMainnet {
		t.Fatalf("default client %v", c)
	}
	c = New("http://127.0.0.1:9/", WithNetwork(Testnet))
	if c.BaseURL() != "http://127.0.0.1:9" || c.Source() != SourceTestnet {
		t.Fatalf("custom URL on testnet %v", c)
	}
	c = New("http://x", WithAddress("0x9908658a316d743159f001026f1ef08aa8f0b55b"))
	if c.Address() != destAddr || c.CanTrade() {
		t.Fatalf("read-only %v", c)
	}
	if n, err := LookupNetwork(" TestNet "); err != nil || n != Testnet {
		t.Fatalf("LookupNetwork: %v %v", n, err)
	}
	if _, err := LookupNetwork("devnet"); err == nil {
		t.Fatal("devnet accepted")
	}
	s, _ := SignerFromHex(testKey)
	for name, c := range map[string]*Client{
		"bad url":        New("ftp://x"),
		"relative url":   New("api.example"),
		"bad address":    New("http://x", WithAddress("0xabc")),
		"other address":  New("http://x", WithSigner(s), WithAddress(destAddr)),
		"bad source":     New("http://x", WithSource("Devnet")),
		"tiny window":    New("http://x", WithExpiryWindow(time.Millisecond)),
		"invalid source": New("http://x", WithSource("")),
	} {
		if c.Err() == nil {
			t.Errorf("%s: no configuration error", name)
			continue
		}
		_, err := c.Ticker(context.Background(), "")
		if e, ok := AsError(err); !ok || e.Kind != KindInvalid {
			t.Errorf("%s: call gave %v", name, err)
		}
	}
}
