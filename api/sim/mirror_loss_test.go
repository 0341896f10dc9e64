package sim

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

func marketBuy(size string) api.OrderWire {
	return api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "97100", Size: size, Tif: api.TifIOC, IsMarket: true}
}

// TestMirrorStopsWhenTheLiveStreamIsLost: when the live stream goes, the mirror stops filling
// (its book is empty, placeOrder is refused), says so on /info and on its stream's "mirror"
// channel, and when the stream is back it resumes from a fresh snapshot of the live book.
func TestMirrorStopsWhenTheLiveStreamIsLost(t *testing.T) {
	t.Parallel()
	me := newMirrorEnv(t)
	alice := me.paper.client("alice")
	me.sameTop(t, alice)
	ws := me.paper.wsDial(t)
	wsSend(t, ws, `{"jsonrpc":"2.0","id":"1","method":"subscribe","params":{"channel":"mirror"}}`)
	wsRead(t, ws, func(m wsMsg) bool {
		return m.Params.Channel == "mirror" && strings.Contains(string(m.Params.Data), `"live":true`)
	})

	me.live.sim.RefuseStreams(true)
	wsRead(t, ws, func(m wsMsg) bool {
		return m.Params.Channel == "mirror" && strings.Contains(string(m.Params.Data), `"live":false`)
	})
	code, body := me.paper.postRaw(t, "/info", `{"method":"mirror_status"}`)
	if code != http.StatusOK || !strings.Contains(body, `"live":false`) || !strings.Contains(body, "stream is down") {
		t.Fatalf("mirror_status while the live stream is down: %d %s", code, body)
	}
	if msg := placeErr(t, alice, marketBuy("0.1")); !strings.Contains(msg, "lost the live market") {
		t.Fatalf("a paper order while the live market is lost: %s", msg)
	}
	if b, err := alice.OrderBook(ctx(), "BTC-PERP", 0); err != nil || len(b.Bids)+len(b.Asks) != 0 {
		t.Fatalf("the mirror's book while the live market is lost: %+v %v, want empty", b, err)
	}
	place(t, me.maker, limit(1, api.SideSell, "97004", "0.7")) // the live market moves meanwhile
	me.live.sim.RefuseStreams(false)
	wsRead(t, ws, func(m wsMsg) bool {
		return m.Params.Channel == "mirror" && strings.Contains(string(m.Params.Data), `"live":true`)
	})
	me.sameTop(t, alice)
	if st := status(t, place(t, alice, marketBuy("0.1"))); !st.AvgPrice.Decimal.Equal(dec("97004")) {
		t.Fatalf("a paper buy after the resume: %+v, want 0.1 at the fresh ask 97004", st)
	}
}

// TestMirrorCommandSaysItSendsNothing: `tradedesk sim --mirror URL` says at start that it is
// paper only and sends nothing to the live exchange's /exchange, funds --fund accounts, serves
// the live book, and refuses POST /control.
func TestMirrorCommandSaysItSendsNothing(t *testing.T) {
	t.Parallel()
	me := newMirrorEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- RunCommand(ctx, []string{"--mirror", me.live.srv.URL, "--listen", addr, "--latency", "5ms",
			"--fund", nameAddr(t, "carol") + "=500"}, &out, &errb)
	}()
	base := "http://" + addr
	waitFor(t, "the mirror serves", func() bool {
		r, err := http.Post(base+"/info", "application/json", strings.NewReader(`{"method":"mirror_status"}`))
		if err != nil {
			return false
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		return strings.Contains(string(b), `"live":true`)
	})
	r, err := http.Post(base+"/control", "application/json", strings.NewReader(`{"instrument":"BTC-PERP","index":"1"}`))
	if err != nil || r.StatusCode != http.StatusConflict {
		t.Fatalf("POST /control on the mirror: %v %v, want 409", r, err)
	}
	r.Body.Close()
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"mirroring " + me.live.srv.URL, "PAPER TRADING ONLY", "nothing is ever sent to its /exchange",
		"taker 0.0005", "latency 5ms", "funded with 500"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("start message %q lacks %q", out.String(), want)
		}
	}
}

// TestMirrorMarginFollowsTheLiveMark: the mirror's mark and funding rate are the live ones, and
// its margin engine liquidates a paper account the live mark leaves under maintenance.
func TestMirrorMarginFollowsTheLiveMark(t *testing.T) {
	t.Parallel()
	me := newMirrorEnv(t)
	bob := nameAddr(t, "bob")
	if err := me.paper.sim.Fund(bob, dec("1100")); err != nil {
		t.Fatal(err)
	}
	if err := me.paper.sim.SetLeverage(bob, "BTC-PERP", "cross", dec("50")); err != nil {
		t.Fatal(err)
	}
	c := me.paper.client("bob")
	me.sameTop(t, c)
	place(t, c, marketBuy("0.2"))    // 0.2 @ 97010: about 19,400 USD at 50x on 1,100 USDC
	place(t, me.taker, sellIOC("2")) // the live bids are gone: the live mark is the index's
	if err := me.live.sim.SetIndexPrice("BTC-PERP", dec("90000")); err != nil {
		t.Fatal(err)
	}
	place(t, me.maker, limit(1, api.SideBuy, "89000", "0.1"))
	me.live.sim.Advance(time.Minute) // the live funding rate moves with its premium
	liveTicker := func() api.Ticker {
		ts, err := me.maker.Ticker(ctx(), "BTC-PERP")
		if err != nil || len(ts) != 1 {
			t.Fatalf("live ticker: %v %v", ts, err)
		}
		return ts[0]
	}
	waitFor(t, "the mirror's mark and funding rate are the live ones", func() bool {
		ts, err := c.Ticker(ctx(), "BTC-PERP")
		lt := liveTicker()
		return err == nil && len(ts) == 1 && ts[0].MarkPrice.Equal(lt.MarkPrice) && ts[0].FundingRate.Equal(lt.FundingRate)
	})
	if lt := liveTicker(); !lt.MarkPrice.Equal(dec("90000")) || lt.FundingRate.Equal(baseFunding) {
		t.Fatalf("the live ticker %+v: want mark 90000 and a funding rate moved off the base", lt)
	}
	waitFor(t, "bob's paper long is liquidated at the live mark", func() bool {
		ps, err := c.Positions(ctx(), bob)
		return err == nil && len(ps) == 0
	})
	liq := false
	for _, f := range fillsOf(t, c, bob) {
		liq = liq || f.FillType == 1
	}
	if !liq {
		t.Fatalf("bob's fills show no liquidation: %+v", fillsOf(t, c, bob))
	}
}
