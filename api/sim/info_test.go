package sim

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestPaging(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	ws := make([]api.OrderWire, 25)
	for i := range ws {
		ws[i] = limit(1, api.SideBuy, fmt.Sprint(96000+i*10), "0.01")
	}
	place(t, alice, ws...)
	h, err := alice.OrderHistory(ctx(), "", api.PageParams{Page: 3, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Data) != 5 || h.Page != 3 || h.Limit != 10 || h.TotalCount != 25 || h.TotalPages != 3 || h.HasNext || !h.HasPrev {
		t.Errorf("history page 3: %d records, envelope %+v", len(h.Data), h)
	}
	eqDec(t, "oldest order on the last page", h.Data[4].LimitPrice, "96000")
	o, _ := alice.OpenOrders(ctx(), "", api.PageParams{Page: 1, Limit: 10})
	if len(o.Data) != 10 || !o.HasNext || o.HasPrev || o.TotalPages != 3 {
		t.Errorf("open orders page 1: %+v", o)
	}
	eqDec(t, "newest open order first", o.Data[0].LimitPrice, "96240")

	// 12 fills for bob, newest first.
	place(t, bob, limit(1, api.SideSell, "96130", "0.12"))
	f, _ := bob.Fills(ctx(), "", api.PageParams{Page: 2, Limit: 5})
	if len(f.Data) != 5 || f.TotalCount != 12 || f.TotalPages != 3 || !f.HasNext || !f.HasPrev {
		t.Errorf("fills page 2: %+v", f)
	}
	eqDec(t, "sixth newest fill", f.Data[0].Price, "96180")
	beyond, _ := bob.Fills(ctx(), "", api.PageParams{Page: 9, Limit: 5})
	if len(beyond.Data) != 0 || beyond.HasNext || beyond.TotalCount != 12 {
		t.Errorf("page past the end: %+v", beyond)
	}
	b, _ := alice.BrokersCheck(ctx(), "", "", api.PageParams{Limit: 1})
	if len(b.Data) != 1 || b.TotalCount < 2 || !b.HasNext {
		t.Errorf("brokers page: %+v", b)
	}
	one, _ := alice.BrokersCheck(ctx(), "", b.Data[0].Broker, api.PageParams{})
	if one.TotalCount != 1 || one.Data[0].Broker != b.Data[0].Broker || one.Data[0].Account != alice.Address() {
		t.Errorf("brokers filtered: %+v", one)
	}
}

func TestMarketQueries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client("viewer")
	all, err := c.Instruments(ctx(), "all")
	if err != nil || len(all.Perps) < 5 || len(all.Spot) < 2 {
		t.Fatalf("instruments: %d perps, %d spot, %v", len(all.Perps), len(all.Spot), err)
	}
	perps, _ := c.Instruments(ctx(), "perps")
	if len(perps.Spot) != 0 || len(perps.Perps) != len(all.Perps) {
		t.Errorf("perps only: %d spot", len(perps.Spot))
	}
	btc := all.Perps[0]
	if btc.Name != "BTC-PERP" || btc.ID != 1 || len(btc.MarginTiers) != 4 || btc.SettlementCurrency != 1 {
		t.Errorf("BTC-PERP %+v", btc)
	}
	eqDec(t, "tier 3 mmd", btc.MarginTiers[2].MMD, "65000")
	cols, err := c.SupportedCollateral(ctx(), "all")
	if err != nil || len(cols) != 4 || cols[0].Symbol != "USDC" {
		t.Fatalf("collateral %+v %v", cols, err)
	}
	usdt, _ := c.SupportedCollateral(ctx(), "USDT")
	if len(usdt) != 1 || usdt[0].ID != 2 {
		t.Errorf("USDT %+v", usdt)
	}
	ts, err := c.Ticker(ctx(), "all")
	if err != nil || len(ts) != len(all.Perps)+len(all.Spot) {
		t.Fatalf("tickers %d %v", len(ts), err)
	}
	one, _ := c.Ticker(ctx(), "ETH-PERP")
	tk := one[0]
	if len(one) != 1 || tk.Symbol != "ETH-PERP" || tk.Type != "perp" {
		t.Fatalf("ETH ticker %+v", one)
	}
	if !tk.BestBidPrice.LessThan(tk.BestAskPrice) || !tk.Volume24h.IsPositive() || tk.MarkPrice.IsZero() {
		t.Errorf("ETH ticker values %+v", tk)
	}
	mids, _ := c.Mids(ctx(), "ETH-PERP")
	if len(mids) != 1 || !mids[0].MidPrice.Equal(tk.MidPrice) || !tk.MidPrice.Equal(tk.BestBidPrice.Add(tk.BestAskPrice).Div(dec("2"))) {
		t.Errorf("mid %+v vs ticker %+v", mids, tk)
	}
	ob, _ := c.OrderBook(ctx(), "ETH-PERP", 3)
	if len(ob.Bids) != 3 || len(ob.Asks) != 3 || !ob.Bids[0].Price.Equal(tk.BestBidPrice) || !ob.Bids[1].Price.LessThan(ob.Bids[0].Price) {
		t.Errorf("book %+v", ob)
	}
	lev, err := c.InstrumentLeverage(ctx(), "", "HYPE-PERP")
	if err != nil || lev.MarginType != api.MarginIsolated || !lev.Leverage.Equal(dec("10")) || lev.InstrumentID != 5 {
		t.Errorf("HYPE leverage %+v %v", lev, err)
	}
}

func TestCharts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client("viewer")
	e.sim.Advance(3 * time.Minute)
	now := e.clock.Now()
	for _, kind := range api.ChartTypes {
		for ri, res := range api.Resolutions {
			d := resolutions[ri].d
			from := now.Add(-100 * d).Unix()
			cs, err := c.Chart(ctx(), api.ChartParams{InstrumentID: 2, ChartType: kind, Resolution: res, From: from, To: now.Unix()})
			if err != nil {
				t.Fatalf("%s %s: %v", kind, res, err)
			}
			if len(cs) < 90 {
				t.Errorf("%s %s: %d candles, want about 100", kind, res, len(cs))
				continue
			}
			for i, k := range cs {
				if k.Time.UnixMilli() != bucket(k.Time.UnixMilli(), d) || i > 0 && !k.Time.After(cs[i-1].Time.Time) {
					t.Errorf("%s %s: candle %d at %v is misaligned or out of order", kind, res, i, k.Time)
					break
				}
				if k.High.LessThan(k.Low) || k.High.LessThan(k.Open) || k.Low.GreaterThan(k.Close) {
					t.Errorf("%s %s: candle %d %+v", kind, res, i, k)
					break
				}
			}
			if kind == "ltp" && !cs[len(cs)-1].Volume.IsPositive() && res != "1" {
				t.Errorf("%s %s: no volume in the last candle", kind, res)
			}
		}
	}
	// Milliseconds and seconds select the same candles; symbol alone works too.
	ms := e.infoRaw(t, `{"method":"chart","params":{"symbol":"2","chart_type":"mark","resolution":"60","from":%d,"to":%d}}`,
		now.Add(-10*time.Hour).UnixMilli(), now.UnixMilli())
	s := e.infoRaw(t, `{"method":"chart","params":{"instrument_id":2,"chart_type":"mark","resolution":"60","from":%d,"to":%d}}`,
		now.Add(-10*time.Hour).Unix(), now.Unix())
	if ms != s || !strings.HasPrefix(ms, `[{"time":`) {
		t.Errorf("ms and s differ:\n%s\n%s", ms, s)
	}
}

// infoRaw posts a formatted /info body and returns the raw answer, failing on a non-200.
func (e *env) infoRaw(t *testing.T, format string, args ...any) string {
	t.Helper()
	code, raw := e.postRaw(t, "/info", fmt.Sprintf(format, args...))
	if code != 200 {
		t.Fatalf("%s: %d %s", fmt.Sprintf(format, args...), code, raw)
	}
	return raw
}

func TestInfoErrors(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	cases := []struct{ body, want string }{
		{`{"method":"nope","params":{}}`, `unknown method "nope"`},
		{`{"method":"account_summary","params":{}}`, "params.user is missing"},
		{`{"method":"account_summary","params":{"user":"0x12"}}`, "not a 0x-prefixed 40-hex-digit wallet address"},
		{`{"method":"chart","params":{"symbol":"1","chart_type":"candles","resolution":"60","from":1,"to":2}}`, `chart_type "candles": want mark, index or ltp`},
		{`{"method":"chart","params":{"symbol":"1","chart_type":"mark","resolution":"2h","from":1,"to":2}}`, `resolution "2h" is not valid`},
		{`{"method":"chart","params":{"symbol":"BTC","chart_type":"mark","resolution":"60","from":1,"to":2}}`, `unknown instrument "BTC"`},
		{`{"method":"chart","params":{"symbol":"1","chart_type":"mark","resolution":"60","from":5,"to":2}}`, "want Unix seconds or milliseconds with from <= to"},
		{`{"method":"ticker","params":{"symbol":"FOO-PERP"}}`, `unknown instrument "FOO-PERP"`},
		{`{"method":"supported_collateral","params":{"sym":"USDC"}}`, `has the key "sym", which this method does not take`},
		{`{"method":"supported_collateral","params":{"symbol":"DAI"}}`, `unknown collateral "DAI"`},
		{`{"method":"instruments","params":{"type":"futures"}}`, `params.type "futures": want perps, spot or all`},
		{`{"method":"fills","params":{"user":"0x0000000000000000000000000000000000000001","page":-1}}`, "pages start at 1"},
		{`{"method":"fills","params":{"user":"0x0000000000000000000000000000000000000001","limit":5000}}`, "params.limit 5000: want 1 to 1000"},
		{`{"method":"instrument_leverage","params":{"user":"0x0000000000000000000000000000000000000001","symbol":"ETH/USDC"}}`, "spot pair"},
		{`{"method":"orderbook","params":{"symbol":"BTC-PERP","depth":-2}}`, "params.depth -2"},
		{`{"method":"fills","params":{"page":"x"}}`, "fills params"},
		{`[1,2]`, "body is not a JSON object"},
	}
	for _, c := range cases {
		code, raw := e.postRaw(t, "/info", c.body)
		var out struct{ Error string }
		_ = json.Unmarshal([]byte(raw), &out)
		if code < 400 || code >= 500 || !strings.Contains(out.Error, c.want) {
			t.Errorf("%s: %d %s, want 4xx with %q", c.body, code, raw, c.want)
		}
	}
	for _, path := range []string{"/other", "/info/x"} {
		if code, _ := e.postRaw(t, path, "{}"); code != 404 {
			t.Errorf("%s: %d", path, code)
		}
	}
}

// The answers keep the spec's JSON shapes, byte for byte against golden files (go test -update
// rewrites them).
func TestGoldenShapes(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	w := limit(1, api.SideSell, "97300", "0.5")
	w.Cloid = "golden-1"
	place(t, alice, w)
	place(t, bob, limit(1, api.SideBuy, "97400", "0.2"))
	e.clock.Add(90 * time.Second)
	user := func(c *api.Client) string { return c.Address() }
	now := e.clock.Now().Unix()
	queries := map[string]string{
		"account_summary": fmt.Sprintf(`{"method":"account_summary","params":{"user":%q}}`, user(bob)),
		"positions":       fmt.Sprintf(`{"method":"positions","params":{"user":%q}}`, user(bob)),
		"fills":           fmt.Sprintf(`{"method":"fills","params":{"user":%q}}`, user(alice)),
		"order_history":   fmt.Sprintf(`{"method":"order_history","params":{"user":%q}}`, user(alice)),
		"open_orders":     fmt.Sprintf(`{"method":"open_orders","params":{"user":%q}}`, user(alice)),
		"brokers_check":   fmt.Sprintf(`{"method":"brokers_check","params":{"user":%q}}`, user(alice)),
		"leverage":        fmt.Sprintf(`{"method":"instrument_leverage","params":{"user":%q,"symbol":"BTC-PERP"}}`, user(bob)),
		"instruments":     `{"method":"instruments","params":{"type":"all"}}`,
		"collateral":      `{"method":"supported_collateral","params":{"symbol":"USDC"}}`,
		"ticker":          `{"method":"ticker","params":{"symbol":"BTC-PERP"}}`,
		"mids":            `{"method":"mids","params":{"symbol":"all"}}`,
		"orderbook":       `{"method":"orderbook","params":{"symbol":"BTC-PERP"}}`,
		"chart":           fmt.Sprintf(`{"method":"chart","params":{"symbol":"1","chart_type":"ltp","resolution":"1D","from":%d,"to":%d}}`, now-3*86400, now),
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			got := e.infoRaw(t, "%s", q)
			var pretty any
			if err := json.Unmarshal([]byte(got), &pretty); err != nil {
				t.Fatal(err)
			}
			b, _ := json.MarshalIndent(pretty, "", "  ")
			b = append(b, '\n')
			path := filepath.Join("testdata", "golden", name+".json")
			if *update {
				_ = os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if string(want) != string(b) {
				t.Errorf("%s differs from %s:\n%s", name, path, b)
			}
		})
	}
	// The types the spec names, checked directly.
	raw := e.infoRaw(t, `{"method":"order_history","params":{"user":%q}}`, user(alice))
	if !strings.Contains(raw, `"timestamp":"2026-01-29T12:40:00.000Z"`) {
		t.Errorf("order timestamp not ISO 8601 with milliseconds: %s", raw)
	}
	raw = e.infoRaw(t, `{"method":"positions","params":{"user":%q}}`, user(bob))
	if !strings.Contains(raw, `"updated_at":1769690400}`) || !strings.Contains(raw, `"size":"0.2"`) {
		t.Errorf("position updated_at not Unix seconds or size not a string: %s", raw)
	}
	raw = e.infoRaw(t, `{"method":"instruments","params":{"type":"perps"}}`)
	if !strings.Contains(raw, `"lot_size":0.0001,"tick_size":0.1`) || !strings.Contains(raw, `"notional_usd_threshold":"0"`) {
		t.Errorf("instrument numbers: %s", raw[:300])
	}
}
