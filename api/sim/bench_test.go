package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// BenchmarkMatching places orders in process through every check a user's order goes through:
// two accounts alternate a resting limit order and one that crosses it, so every other order trades.
func BenchmarkMatching(b *testing.B) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithQuietMarkets(), WithDemoBalance(dec("1000000000")))
	e := s.eng
	alice := mustFund(b, e, "0x00000000000000000000000000000000000a11ce")
	bob := mustFund(b, e, "0x0000000000000000000000000000000000000b0b")
	prices := make([]string, 64)
	for i := range prices {
		prices[i] = fmt.Sprintf("%d.%d", 97000+i*3, i%10)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Pairs trade; every 32 pairs the two swap sides, so positions stay bounded.
		a, side := alice, api.SideSell
		if i%2 == 1 {
			a = bob
		}
		if (i%2 == 1) != ((i/64)%2 == 1) {
			side = api.SideBuy
		}
		w := api.OrderWire{InstrumentID: 1, Side: side, Price: prices[(i/2)%len(prices)], Size: "0.01", Tif: api.TifGTC}
		if _, err := e.place(a, &w); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
}

// mustFund opens and funds an account as the faucet would: the simulator acts only for funded
// accounts, so an account merely looked up has nothing to trade with.
func mustFund(b *testing.B, e *engine, addr string) *account {
	a, err := e.fund(mustCanon(addr), dec("1000000000"))
	if err != nil {
		b.Fatal(err)
	}
	return a
}

func mustCanon(s string) string {
	a, err := canonical(s)
	if err != nil {
		panic(err)
	}
	return a
}

// BenchmarkHTTPSignedActions posts signed orders over loopback; the simulator checks every
// signature, nonce and expiry.
func BenchmarkHTTPSignedActions(b *testing.B) {
	e := quietEnv(b, WithDemoBalance(dec("1000000000")))
	clients := make([]*api.Client, 8)
	for i := range clients {
		clients[i] = e.client(fmt.Sprint("bench", i))
	}
	var n atomic.Int64
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		c := clients[int(n.Add(1))%len(clients)]
		i := 0
		for pb.Next() {
			i++
			side := api.SideBuy
			if i%2 == 0 {
				side = api.SideSell
			}
			w := limit(1, side, fmt.Sprint(97000+i%50), "0.001")
			if _, err := c.PlaceOrders(ctx(), []api.OrderWire{w}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "actions/s")
	if err := e.sim.StateError(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkMarketStep runs one second of the market loop: every market's index moves, makers
// requote eight levels a side, takers trade, marks, charts, triggers, funding and liquidation checks.
func BenchmarkMarketStep(b *testing.B) {
	clock := NewTestClock(testStart)
	s := New(WithSeed(1), WithClock(clock))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Advance(time.Second)
	}
}

// BenchmarkHTTPPresigned measures the simulator alone over loopback: the signed placeOrder
// bodies are made before the timer starts, so the figure is what the server can take (HTTP,
// JSON, signature recovery, nonce, matching), not the benchmark's own signing.
func BenchmarkHTTPPresigned(b *testing.B) { benchPresigned(b) }

// BenchmarkHTTPPresignedData is BenchmarkHTTPPresigned with a state database (`--data`): each
// action is also committed to SQLite (fsync included) before it is answered.
func BenchmarkHTTPPresignedData(b *testing.B) {
	benchPresigned(b, WithStateFile(filepath.Join(b.TempDir(), "sim.db")))
}

func benchPresigned(b *testing.B, opts ...Option) {
	e := quietEnv(b, append([]Option{WithDemoBalance(dec("1000000000"))}, opts...)...)
	const signers = 8
	for k := range signers {
		e.fund(nameAddr(b, fmt.Sprint("bench", k))) // the simulator acts only for accounts it knows
	}
	bodies := make([][]byte, b.N)
	base := e.nowMs()
	for i := range bodies {
		side := api.SideBuy
		if i%2 == 0 {
			side = api.SideSell
		}
		w := limit(1, side, fmt.Sprint(97000+i%50), "0.001")
		nonce := base + uint64(i/signers) + 1
		bodies[i] = signed(b, fmt.Sprint("bench", i%signers), "placeOrder",
			&api.PlaceOrderData{Orders: []api.OrderWire{w}, ExpiresAfter: nonce + 3600_000, Nonce: nonce})
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body := bodies[next.Add(1)-1]
			resp, err := hc.Post(e.srv.URL+"/exchange", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "actions/s")
	if err := e.sim.StateError(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkMarketStep500 is BenchmarkMarketStep with 500 synthetic markets (`--markets 500`).
func BenchmarkMarketStep500(b *testing.B) {
	clock := NewTestClock(testStart)
	s := New(WithSeed(1), WithClock(clock), WithMarkets(500))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Advance(time.Second)
	}
}

// BenchmarkMarketStep500Streamed is BenchmarkMarketStep500 with one subscriber as the console's
// demo has it (every ticker, every mid, one market's book, trades, top and mark candle): the
// step and its publishing, the simulator's whole share of an idle 500-market demo but the
// socket writes.
func BenchmarkMarketStep500Streamed(b *testing.B) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(500))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &wsClient{out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel, subs: map[string]bool{}}
	s.ws.add(c)
	defer s.ws.remove(c)
	for i, p := range []string{`{"channel":"ticker","symbol":"all"}`, `{"channel":"mids","symbol":"all"}`,
		`{"channel":"orderbook","symbol":"BTC-PERP"}`, `{"channel":"trades","symbol":"BTC-PERP"}`,
		`{"channel":"bbo","symbol":"BTC-PERP"}`, `{"channel":"chart","symbol":"BTC-PERP","chart_type":"mark","resolution":"15"}`} {
		s.wsSubscribe(c, rpcIn{JSONRPC: "2.0", ID: json.RawMessage(fmt.Sprint(i)), Method: "subscribe", Params: json.RawMessage(p)})
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-c.out:
			}
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Advance(time.Second)
	}
}
