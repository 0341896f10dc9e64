package algo

import (
	"context"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/exec"
)

// TestTheExecutorSettlesAChildFromTheStream: with the stream up, the executor settles each of a
// chase's children (what it filled, whether it rests) from the chase's tape (exec.Ask.Records)
// rather than reading the child's fills and order record: the chase, hit by a taker until it
// fills, makes no fills read at all, its executor's included (each child's settle read its fills
// before), and still fills exactly its target, what it reports filled the sum of its fills at the
// exchange.
func TestTheExecutorSettlesAChildFromTheStream(t *testing.T) {
	t.Parallel() // its own simulator, stream, tape and request counts (newTapeRig)
	r, count, tape := newTapeRig(t)
	size := dec("0.004")
	w := &working{}
	d := r.deps(w.report)
	e, err := exec.New(exec.Config{Journal: r.j, Send: r.send, Read: r.algoRead, Account: r.trader.Address(), Skew: 50 * time.Millisecond,
		LookupWait: 20 * time.Millisecond, MaxLookupWait: 200 * time.Millisecond, LookupGrace: 5 * time.Second, SettleEvery: 20 * time.Millisecond})
	must(t, err)
	d.Exec, d.Tape, d.Read = e, tape, r.algoRead // the executor's reads counted with the chase's
	c, err := NewChase(bg, d, "settle-tape", ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Aggressive: true})
	must(t, err)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	count.polls()
	go r.hitLoop(ctx, w, 3)
	p, err := c.Run(bounded(t))
	if err != nil || p.State != StateDone {
		t.Fatalf("chase: %+v %v", p, err)
	}
	polls, _ := count.polls()
	if polls[api.MethodFills] != 0 {
		t.Fatalf("with the stream up the chase and its executor read fills: %v", polls)
	}
	if !p.Filled.Equal(size) || !p.Filled.Equal(r.filledOf("settle-tape-")) || p.Children < 1 {
		t.Fatalf("filled %s of %s, the exchange's fills %s", p.Filled, size, r.filledOf("settle-tape-"))
	}
	t.Logf("%d children, %d reprices, reads %v", p.Children, p.Reprices, polls)
}
