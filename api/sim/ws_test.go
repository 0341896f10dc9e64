package sim

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsDial opens a raw WebSocket to the env's /ws/.
func (e *env) wsDial(t testing.TB) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.srv.URL, "http")+"/ws/", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(4 << 20)
	t.Cleanup(func() { _ = c.CloseNow() })
	return c
}

// wsMsg is any server message.
type wsMsg struct {
	ID     string          `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Method string `json:"method"`
	Params struct {
		Channel string          `json:"channel"`
		Data    json.RawMessage `json:"data"`
	} `json:"params"`
}

func wsSend(t testing.TB, c *websocket.Conn, s string) {
	t.Helper()
	if err := c.Write(context.Background(), websocket.MessageText, []byte(s)); err != nil {
		t.Fatal(err)
	}
}

// wsRead reads messages until ok holds for one, which it returns (10 s bound on loopback I/O).
func wsRead(t testing.TB, c *websocket.Conn, ok func(wsMsg) bool) wsMsg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m wsMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("the server sent a frame that is not JSON: %s", b)
		}
		if ok(m) {
			return m
		}
	}
}

func answerTo(id string) func(wsMsg) bool { return func(m wsMsg) bool { return m.ID == id } }

// TestStreamRefusesBadSubscribes: every bad message is answered with a JSON-RPC error that says
// what is wrong, and the connection stays usable.
func TestStreamRefusesBadSubscribes(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	c := e.wsDial(t)
	for i, tc := range []struct{ msg, want string }{
		{`{"jsonrpc":"2.0","id":"1","method":"subscribe","params":{}}`, "params.channel is missing"},
		{`{"jsonrpc":"2.0","id":"2","method":"subscribe","params":{"channel":"weather"}}`, `unknown channel "weather"`},
		{`{"jsonrpc":"2.0","id":"3","method":"subscribe","params":{"channel":"ticker","symbol":"NOPE"}}`, "unknown instrument"},
		{`{"jsonrpc":"2.0","id":"4","method":"subscribe","params":{"channel":"orders","user":"0x12"}}`, "params.user"},
		{`{"jsonrpc":"2.0","id":"5","method":"subscribe","params":["ticker"]}`, "want an object"},
		{`{"jsonrpc":"2.0","id":"6","method":"subscribe","params":{"channel":"chart","instrument_id":1,"chart_type":"mark","resolution":"7"}}`, "resolution"},
		{`{"jsonrpc":"2.0","id":"7","method":"shout"}`, "unknown method"},
		{`{"jsonrpc":"1.0","id":"8","method":"ping"}`, `jsonrpc must be "2.0"`},
	} {
		wsSend(t, c, tc.msg)
		m := wsRead(t, c, func(m wsMsg) bool { return m.ID == string(rune('1'+i)) })
		if m.Error == nil || !strings.Contains(m.Error.Message, tc.want) {
			t.Errorf("%s: want an error saying %q, got %+v", tc.msg, tc.want, m.Error)
		}
	}
	wsSend(t, c, `{"jsonrpc":"2.0","id":"9","method":"ping"}`)
	if m := wsRead(t, c, answerTo("9")); !strings.Contains(string(m.Result), "timestamp") {
		t.Fatalf("ping after errors: %s", m.Result)
	}
	wsSend(t, c, `not json`)
	if m := wsRead(t, c, func(m wsMsg) bool { return m.Error != nil }); m.Error.Code != rpcParseError {
		t.Fatalf("not JSON: want a parse error, got %+v", m.Error)
	}
}

// TestStreamBothGenerations: beta.13's channel names and params (order with address + user,
// trade and orderbook with instrumentId + symbol as text, chart with symbol, balance) subscribe
// and carry the same events as the newer names.
func TestStreamBothGenerations(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	user := alice.Address()
	c := e.wsDial(t)
	subs := map[string]string{
		"1": `{"channel":"order","address":"` + user + `","user":"` + user + `"}`,
		"2": `{"channel":"trade","instrumentId":"1","symbol":"1"}`,
		"3": `{"channel":"orderbook","instrumentId":"1","symbol":"1"}`,
		"4": `{"channel":"chart","symbol":"1","chart_type":"ltp","resolution":"1"}`,
		"5": `{"channel":"balance","address":"` + user + `","user":"` + user + `"}`,
		"6": `{"channel":"orders","user":"` + user + `"}`,
	}
	ids := map[string]string{}
	for id, p := range subs {
		wsSend(t, c, `{"jsonrpc":"2.0","id":"`+id+`","method":"subscribe","params":`+p+`}`)
	}
	for len(ids) < len(subs) {
		m := wsRead(t, c, func(m wsMsg) bool { return m.ID != "" })
		var r struct {
			Status   string   `json:"status"`
			Channels []string `json:"channels"`
		}
		if m.Error != nil || json.Unmarshal(m.Result, &r) != nil || r.Status != "subscribed" || len(r.Channels) != 1 {
			t.Fatalf("subscribe %s: %s %+v", subs[m.ID], m.Result, m.Error)
		}
		ids[m.ID] = r.Channels[0]
	}
	if ids["1"] != ids["6"] || ids["2"] != "trades:BTC-PERP" || ids["3"] != "orderbook:BTC-PERP" {
		t.Fatalf("channel ids: %v", ids)
	}
	place(t, alice, limit(1, "b", "97000", "0.1"))
	place(t, e.client("bob"), limit(1, "s", "97000", "0.1"))
	seen := map[string]bool{}
	for !(seen[ids["1"]] && seen[ids["2"]] && seen[ids["5"]] && seen[ids["4"]]) {
		m := wsRead(t, c, func(m wsMsg) bool { return m.Method == "subscription" })
		seen[m.Params.Channel] = true
	}
}

// TestStreamDropsSlowSubscriber: a subscriber that stops reading is dropped once its queue is
// full; the market goes on without waiting for it, and a reading subscriber keeps getting data.
// The slow one also follows every market's candles (about 100 messages a step, not 8): its queue
// must fill within the write timeout of the batch stuck on its full socket, or that timeout ends
// it first, uncounted as a drop (on a loaded machine under -race, a step took 20 ms and 4000
// steps went by without a drop).
func TestStreamDropsSlowSubscriber(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	slow, fast := e.wsDial(t), e.wsDial(t)
	for _, c := range []*websocket.Conn{slow, fast} {
		wsSend(t, c, `{"jsonrpc":"2.0","id":"1","method":"subscribe","params":{"channel":"ticker","symbol":"all"}}`)
		for _, sym := range []string{"BTC-PERP", "ETH-PERP", "SOL-PERP", "DOGE-PERP", "HYPE-PERP", "ETH/USDC", "BTC/USDC"} {
			wsSend(t, c, `{"jsonrpc":"2.0","id":"2","method":"subscribe","params":{"channel":"orderbook","symbol":"`+sym+`"}}`)
		}
	}
	for _, m := range defaultMarkets() {
		for _, typ := range chartNames {
			for _, r := range resolutions {
				wsSend(t, slow, `{"jsonrpc":"2.0","id":"3","method":"subscribe","params":{"channel":"chart","symbol":"`+m.name+
					`","chart_type":"`+typ+`","resolution":"`+r.name+`"}}`)
			}
		}
	}
	var got atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if _, _, err := fast.Read(ctx); err != nil {
				return
			}
			got.Add(1)
		}
	}()
	for i := 0; i < 4000; i++ {
		e.sim.Advance(time.Second) // each step moves every market: tickers and books change
		if _, dropped := e.sim.StreamStats(); dropped > 0 {
			break
		}
	}
	if _, dropped := e.sim.StreamStats(); dropped != 1 {
		t.Fatalf("%d subscribers dropped: want the slow one", dropped)
	}
	before := got.Load()
	e.sim.Advance(time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for got.Load() == before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got.Load() == before {
		t.Fatal("the reading subscriber stopped getting data")
	}
}

// BenchmarkStreamFanOut measures the messages the simulator delivers over loopback WebSockets to
// 100 subscribers (tickers of every market, three books, trades) while its market loop runs:
// index walks, makers requoting and takers matching, one step per iteration.
func BenchmarkStreamFanOut(b *testing.B) {
	e := newEnv(b)
	const subscribers = 100
	var got atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := 0; i < subscribers; i++ {
		c := e.wsDial(b)
		wsSend(b, c, `{"jsonrpc":"2.0","id":"1","method":"subscribe","params":{"channel":"ticker","symbol":"all"}}`)
		for _, sym := range []string{"BTC-PERP", "ETH-PERP", "SOL-PERP"} {
			wsSend(b, c, `{"jsonrpc":"2.0","id":"2","method":"subscribe","params":{"channel":"orderbook","symbol":"`+sym+`"}}`)
			wsSend(b, c, `{"jsonrpc":"2.0","id":"3","method":"subscribe","params":{"channel":"trades","symbol":"`+sym+`"}}`)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if _, _, err := c.Read(ctx); err != nil {
					return
				}
				got.Add(1)
			}
		}()
	}
	time.Sleep(100 * time.Millisecond) // the subscriptions answered
	got.Store(0)
	sent0, _ := e.sim.StreamStats()
	b.ResetTimer()
	cpu0 := cpuTime()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		e.sim.Advance(time.Second)
	}
	sent, dropped := e.sim.StreamStats()
	for time.Since(start) < time.Minute && got.Load() < int64(sent-sent0) && dropped == 0 {
		time.Sleep(time.Millisecond)
	}
	el := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(got.Load())/el.Seconds(), "msgs/s")
	// The machine is shared: messages per second of CPU this process used (server and the 100
	// readers together) is the figure that does not depend on the other tenants.
	b.ReportMetric(float64(got.Load())/(cpuTime()-cpu0).Seconds(), "msgs/cpu-s")
	b.ReportMetric(float64(got.Load())/float64(b.N), "msgs/step")
	b.ReportMetric(float64(dropped), "dropped")
	cancel()
	wg.Wait()
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
