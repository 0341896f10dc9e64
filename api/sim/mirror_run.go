package sim

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// liveSnap is the live market read over /info: each market's book, newest trade id and ticker.
type liveSnap struct {
	books   map[*mirrorMarket]api.OrderBook
	trades  map[*mirrorMarket][]api.Trade // newest first
	tickers []api.Ticker
}

// read takes a snapshot of every mirrored market over /info.
func (mr *Mirror) read(ctx context.Context) (liveSnap, error) {
	sn := liveSnap{books: map[*mirrorMarket]api.OrderBook{}, trades: map[*mirrorMarket][]api.Trade{}}
	for _, mm := range mr.mkts {
		b, err := mr.up.OrderBook(ctx, mm.m.name, 0)
		if err != nil {
			return sn, fmt.Errorf("the live book of %s: %w", mm.m.name, err)
		}
		ts, err := mr.up.Trades(ctx, mm.m.name, 100)
		if err != nil {
			return sn, fmt.Errorf("the live trades of %s: %w", mm.m.name, err)
		}
		sn.books[mm], sn.trades[mm] = b, ts
	}
	ts, err := mr.up.Ticker(ctx, "all")
	if err != nil {
		return sn, fmt.Errorf("the live tickers: %w", err)
	}
	sn.tickers = ts
	return sn, nil
}

// resume takes a fresh snapshot of the live market (resync) and then fills again.
func (mr *Mirror) resume(ctx context.Context, fresh bool) error {
	if err := mr.resync(ctx, fresh); err != nil {
		return err
	}
	mr.setStatus(func(st *MirrorStatus) { st.Live, st.Reason, st.Since = true, "", time.Now() })
	mr.Sim.publish(true)
	return nil
}

// resync takes a snapshot of the live market. fresh (after the live market was lost, or before
// it first flows in) gives every level its whole live size back and skips the trades made while
// the mirror was not looking; otherwise the snapshot's newer trades are applied.
func (mr *Mirror) resync(ctx context.Context, fresh bool) error {
	sn, err := mr.read(ctx)
	if err != nil {
		return err
	}
	s := mr.Sim
	s.mu.Lock()
	e := s.eng
	for mm, b := range sn.books {
		e.applyBook(mm, true, b.Bids, true, fresh)
		e.applyBook(mm, false, b.Asks, true, fresh)
		ts := sn.trades[mm]
		for i := len(ts) - 1; i >= 0; i-- {
			if fresh || mm.lastTid == 0 {
				mm.lastTid = max(mm.lastTid, ts[i].TradeID) // before the mirror looked: not for paper orders
				continue
			}
			e.applyTrade(mm, ts[i])
		}
	}
	mr.tickers(sn.tickers)
	s.mu.Unlock()
	return nil
}

// tickers applies live tickers (under Sim.mu), then liquidates whom the live marks left under
// maintenance, as a market step would.
func (mr *Mirror) tickers(ts []api.Ticker) {
	e := mr.Sim.eng
	for _, t := range ts {
		if mm := mr.mkts[strings.ToUpper(t.Symbol)]; mm != nil {
			e.applyTicker(mm.m, t)
		}
	}
	if len(ts) > 0 {
		e.curTx = e.txHash("mark", uint64(e.now().UnixMilli()), 0)
		e.liquidations()
		e.tidyBrackets()
	}
}

// apply takes streamed records into the mirrored market.
func (mr *Mirror) apply(evs []api.StreamEvent) {
	s := mr.Sim
	s.mu.Lock()
	e := s.eng
	for _, ev := range evs {
		switch d := ev.Data.(type) {
		case *api.BookUpdate:
			if mm := mr.mkts[strings.ToUpper(d.Instrument)]; mm != nil {
				e.applyBook(mm, true, d.Bids, d.Snapshot, false)
				e.applyBook(mm, false, d.Asks, d.Snapshot, false)
			}
		case *api.Trade:
			if mm := mr.mkts[strings.ToUpper(ev.Topic.Symbol)]; mm != nil {
				e.applyTrade(mm, *d)
			}
		case *api.Ticker:
			mr.tickers([]api.Ticker{*d})
		}
	}
	s.mu.Unlock()
	s.publish(true)
}

// Run keeps the mirror in step with the live market until ctx ends: from the live stream, or
// by polling /info when the stream does not come up within StreamWait.
func (mr *Mirror) Run(ctx context.Context) {
	if mr.follow(ctx) {
		return
	}
	mr.setStatus(func(st *MirrorStatus) { st.Source = "poll" })
	t := time.NewTicker(mr.cfg.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := mr.resume(ctx, !mr.live()); err != nil && ctx.Err() == nil {
			mr.lose("polling the live exchange failed: " + err.Error())
		}
	}
}

// follow reads the live stream until ctx ends (true), or reports false when it never came up.
func (mr *Mirror) follow(ctx context.Context) bool {
	st := api.NewStream(mr.wsURL, api.WithStreamBackoff(250*time.Millisecond, 2*time.Second))
	defer st.Close()
	topics := []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}}
	for _, mm := range mr.mkts {
		topics = append(topics, api.Topic{Channel: api.ChanOrderBook, Symbol: mm.m.name},
			api.Topic{Channel: api.ChanTrades, Symbol: mm.m.name})
	}
	for _, t := range topics {
		if _, err := st.Subscribe(ctx, t); err != nil {
			return false
		}
	}
	wait := time.NewTimer(mr.cfg.StreamWait)
	defer wait.Stop()
	marks := time.NewTicker(mr.cfg.Poll)
	defer marks.Stop()
	var epoch uint64
	for {
		select {
		case <-ctx.Done():
			return true
		case <-wait.C:
			if epoch == 0 {
				return false
			}
		case <-st.Inbox().Ready():
			mr.batch(ctx, st.Inbox().Drain(), &epoch)
		case <-marks.C:
			mr.refreshTickers(ctx)
		}
	}
}

// refreshTickers reads the live tickers over /info while the market flows: a stream need not
// send a ticker when only the funding rate moved.
func (mr *Mirror) refreshTickers(ctx context.Context) {
	if !mr.live() {
		return
	}
	ts, err := mr.up.Ticker(ctx, "all")
	if err != nil {
		return // the stream says whether the live market is lost
	}
	mr.Sim.mu.Lock()
	mr.tickers(ts)
	mr.Sim.mu.Unlock()
	mr.Sim.publish(true)
}

// batch takes one drained batch of the stream: its records while the market flows, then its
// status: a drop stops filling, a new connection resumes from a fresh snapshot.
func (mr *Mirror) batch(ctx context.Context, b api.StreamBatch, epoch *uint64) {
	if mr.live() {
		mr.apply(b.Events)
	}
	if !b.StatusChanged {
		return
	}
	switch {
	case !b.Status.Up:
		why := "the live stream is down"
		if b.Status.Err != nil {
			why += ": " + b.Status.Err.Error()
		}
		mr.lose(why)
	case b.Status.Epoch != *epoch:
		*epoch = b.Status.Epoch
		mr.lose("the live stream reconnected: taking a fresh snapshot")
		if err := mr.resume(ctx, true); err != nil {
			mr.setStatus(func(st *MirrorStatus) { st.Reason = "no fresh snapshot: " + err.Error() })
		}
	}
}

// Serve answers HTTP on ln and runs the market loop and the mirror until ctx ends.
func (mr *Mirror) Serve(ctx context.Context, ln net.Listener) error {
	return serve(ctx, ln, mr, func(ctx context.Context) { _ = mr.Sim.Run(ctx) }, mr.Run)
}
