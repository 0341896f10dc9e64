package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/profile"
)

// takerKey is a second fixed test key (never a real one): the account the chases trade against.
const takerKey = "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"

// lockedBuffer is a buffer a command writes while the test waits.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runCtx runs one command under ctx (cancelling it is the trader's Ctrl+C).
func (h *harness) runCtx(ctx context.Context, args ...string) (int, string, string) {
	h.t.Helper()
	var out, errb lockedBuffer
	if h.stateDir == "" {
		h.stateDir = h.t.TempDir()
	}
	full := append(append([]string{}, args...), "--url", h.srv.URL)
	code := Run(ctx, full, Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] },
		StateDir: h.stateDir, ExpiryWindow: h.expiry, Skew: loopbackSkew, AlgoReprice: h.reprice})
	return code, out.String(), errb.String()
}

// progressLines reads a chase's NDJSON.
func progressLines(t *testing.T, out string) []progressJSON {
	t.Helper()
	var ps []progressJSON
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var p progressJSON
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("not NDJSON: %q: %v", sc.Text(), err)
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 || !ps[len(ps)-1].Final {
		t.Fatalf("no summary line last: %q", out)
	}
	return ps
}

// taker hits the trader's open chase children (client id prefix-less: any open buy) with IOC
// sells at their price until ctx ends.
func (h *harness) taker(ctx context.Context) {
	s, _ := api.SignerFromHex(takerKey)
	c := api.New(h.srv.URL, api.WithSigner(s))
	_ = h.sim.Fund(s.Address(), sim.DefaultDemoBalance)
	me := h.client()
	for i := 0; ctx.Err() == nil; i++ {
		time.Sleep(30 * time.Millisecond)
		pg, err := me.OpenOrders(ctx, me.Address(), api.PageParams{Page: 1, Limit: 100})
		if err != nil {
			continue
		}
		for _, o := range pg.Data {
			if o.Side == api.SideBuy && o.PostOnly {
				_, _ = c.PlaceOrders(ctx, []api.OrderWire{{InstrumentID: o.InstrumentID, Side: api.SideSell, PositionSide: api.PositionSideBoth,
					Price: o.LimitPrice.String(), Size: "0.001", Tif: api.TifIOC, Cloid: fmt.Sprintf("taker-%d", i)}})
			}
		}
	}
}

// stopOnceResting calls stop (the trader's Ctrl+C) once the exchange lists more than n open
// orders of the test account (an algorithm's order rests), or when ctx ends first. It reads the
// exchange itself, touching nothing of h a test's goroutine uses.
func (h *harness) stopOnceResting(ctx context.Context, stop func(), n int) {
	defer stop()
	c, addr := api.New(h.srv.URL), testAddress(h.t)
	for ctx.Err() == nil {
		if pg, err := c.OpenOrders(ctx, addr, api.PageParams{Page: 1, Limit: 100}); err == nil && len(pg.Data) > n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHeadlessChase: `tradedesk chase --json` prints NDJSON progress and a last summary line
// (done, the size filled, the average from the fills); a second chase stopped by Ctrl+C cancels
// its order and exits partial saying it filled nothing; `algos --json` lists both.
func TestHeadlessChase(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	go h.taker(ctx)
	code, out, errs := h.runCtx(context.Background(), "chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.003", "--aggressive", "--json")
	cancel()
	ps := progressLines(t, out)
	last := ps[len(ps)-1]
	if code != 0 || last.State != "done" || !last.Filled.Equal(decimal.RequireFromString("0.003")) || !last.AvgPrice.IsPositive() || last.SlippageBp == nil {
		t.Fatalf("exit %d, last %+v, stderr %q", code, last, errs)
	}
	stop, cancel := context.WithCancel(context.Background())
	go h.stopOnceResting(stop, cancel, 0)
	code, out, errs = h.runCtx(stop, "chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5t")
	if code != ExitPartial || !strings.Contains(out, "filled 0 of 0.002") || !strings.Contains(out, "stopped") || len(h.openOrders()) != 0 {
		t.Fatalf("Ctrl+C: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	var list []algoJSON
	if err := json.Unmarshal([]byte(h.ok("algos", "--json")), &list); err != nil || len(list) != 2 || list[0].State != "done" || list[1].State != "stopped" {
		t.Fatalf("algos: %+v %v", list, err)
	}
}

// TestHeadlessScaleAndRestart: scale without --yes prints its plan and sends nothing; with --yes
// its rungs rest together and `algos --cancel ID` cancels them as one. An algorithm an earlier
// run left running stops the next algorithm command until --on-restart says what to do with it.
func TestHeadlessScaleAndRestart(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	args := []string{"scale", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--from", "90000", "--to", "91000", "--count", "5"}
	code, out, errs := h.run(args...)
	if code != ExitRefused || !strings.Contains(errs, "add --yes") || !strings.Contains(out, "90250") || len(h.openOrders()) != 0 {
		t.Fatalf("without --yes: exit %d, %q %q", code, out, errs)
	}
	if code, _, errs = h.run(append(append([]string{}, args[:len(args)-2]...), "--count", "500")...); code != ExitUsage || !strings.Contains(errs, "1 to 100") {
		t.Fatalf("500 rungs: exit %d %q", code, errs)
	}
	var sc scaleJSON
	if err := json.Unmarshal([]byte(h.ok(append(args, "--yes", "--json")...)), &sc); err != nil || !sc.Sent || len(sc.Rungs) != 5 {
		t.Fatalf("scale: %+v %v", sc, err)
	}
	if open := h.openOrders(); len(open) != 5 || !strings.HasPrefix(open[0].Cloid, sc.ID+"-") {
		t.Fatalf("open: %+v", open)
	}
	h.ok("algos", "--cancel", sc.ID)
	if open := h.openOrders(); len(open) != 0 {
		t.Fatalf("after --cancel: %+v", open)
	}
	// A chase an earlier run left running (begun in the journal, nothing sent).
	files, _ := filepath.Glob(filepath.Join(h.stateDir, "journal", "*.db"))
	j, err := journal.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"instrument":"BTC-PERP","side":"buy","size":"0.002","limit":"0","until":"0001-01-01T00:00:00Z","arrival":"97000"}`
	if _, err := j.BeginAlgo(context.Background(), journal.Algo{ID: "left-1", Kind: "chase", Params: json.RawMessage(raw)}); err != nil {
		t.Fatal(err)
	}
	_ = j.Close()
	if code, _, errs = h.run(append(args, "--yes")...); code != ExitUsage || !strings.Contains(errs, "chase left-1") || !strings.Contains(errs, "--on-restart") {
		t.Fatalf("left running: exit %d %q", code, errs)
	}
	if open := h.openOrders(); len(open) != 0 {
		t.Fatalf("sent beside an algorithm left running: %+v", open)
	}
	out = h.ok("algos", "--on-restart", "cancel")
	if !strings.Contains(out, "chase left-1 buy BTC-PERP: filled 0 of 0.002, cancelled") {
		t.Fatalf("on restart cancel: %q", out)
	}
}

// TestHeadlessTWAP: `tradedesk twap --json` works its slices and ends with a summary line, done,
// its size filled; a band that is not LO-HI is a usage error saying what to give.
func TestHeadlessTWAP(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	code, out, errs := h.run("twap", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.004", "--duration", "300ms", "--slices", "3", "--randomize", "--json")
	ps := progressLines(t, out)
	last := ps[len(ps)-1]
	if code != 0 || last.State != "done" || last.Kind != "twap" || !last.Filled.Equal(decimal.RequireFromString("0.004")) || last.Slices < 1 {
		t.Fatalf("exit %d, last %+v, stderr %q", code, last, errs)
	}
	code, out, errs = h.run("twap", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.002", "--duration", "300ms", "--every", "100ms", "--json")
	if ps := progressLines(t, out); code != 0 || ps[len(ps)-1].Slices != 3 || !strings.Contains(errs, "in 3 slices") {
		t.Fatalf("--every: exit %d, %q %q", code, out, errs)
	}
	if code, _, errs = h.run("twap", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.004", "--duration", "1m", "--slices", "3", "--every", "10s"); code != ExitUsage || !strings.Contains(errs, "not both") {
		t.Fatalf("--slices and --every: exit %d %q", code, errs)
	}
	code, _, errs = h.run("twap", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.004", "--duration", "1m", "--band", "3450")
	if code != ExitUsage || !strings.Contains(errs, "give the low and high price") {
		t.Fatalf("bad band: exit %d %q", code, errs)
	}
}

// TestHeadlessTrail: `tradedesk trail` on a long places a reduce-only stop and, stopped, leaves it
// at the exchange saying so; without a position it is refused.
func TestHeadlessTrail(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	if code, _, errs := h.run("trail", "--instrument", "BTC-PERP", "--distance", "500"); code == 0 || !strings.Contains(errs, "no position") {
		t.Fatalf("no position: exit %d %q", code, errs)
	}
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	if code, _, errs := h.run("trail", "--instrument", "BTC-PERP", "--distance", "lots"); code != 1 || !strings.Contains(errs, "give a price (500)") {
		t.Fatalf("bad distance: exit %d %q", code, errs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go h.stopOnceResting(ctx, cancel, 0) // Ctrl+C once its stop rests, however long that takes
	code, out, errs := h.runCtx(ctx, "trail", "--instrument", "BTC-PERP", "--distance", "500", "--json")
	ps := progressLines(t, out)
	last := ps[len(ps)-1]
	open := h.openOrders()
	if code != 0 || last.State != "stopped" || !strings.Contains(last.Detail, "stays") || len(open) != 1 || !open[0].ReduceOnly || !open[0].TriggerPx.Valid {
		t.Fatalf("exit %d, last %+v, open %+v, stderr %q", code, last, open, errs)
	}
}

// TestHeadlessAlgosPauseAndResume: `tradedesk algos pause ID`, run beside a chase working in
// another process's foreground, has it cancel its order and say paused (an NDJSON line); `algos
// --json` lists it paused; `algos resume ID` has it work an order again; a second resume, and a
// pause of an id the journal lacks, are usage errors saying why.
func TestHeadlessAlgosPauseAndResume(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	h.stateDir = t.TempDir() // before the chase's goroutine reads it
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		c, o, e := h.runCtx(ctx, "chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5t", "--json")
		done <- result{c, o, e}
	}()
	waitOpen := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); len(h.openOrders()) != n; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("never %d open", n)
			}
		}
	}
	waitOpen(1)
	var list []algoJSON
	_, out, _ := h.runCtx(context.Background(), "algos", "--json")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("algos: %q %v", out, err)
	}
	id := list[0].ID
	if code, out, errs := h.runCtx(context.Background(), "algos", "pause", id); code != 0 || !strings.Contains(out, id+" paused") {
		t.Fatalf("pause: exit %d %q %q", code, out, errs)
	}
	waitOpen(0)
	_, out, _ = h.runCtx(context.Background(), "algos", "--json")
	if err := json.Unmarshal([]byte(out), &list); err != nil || list[0].State != "paused" {
		t.Fatalf("algos after pause: %q", out)
	}
	if code, _, errs := h.runCtx(context.Background(), "algos", "pause", "nosuch"); code != ExitUsage || !strings.Contains(errs, "no algorithm") {
		t.Fatalf("pause nosuch: exit %d %q", code, errs)
	}
	if code, _, errs := h.runCtx(context.Background(), "algos", "resume", id); code != 0 {
		t.Fatalf("resume: exit %d %q", code, errs)
	}
	if code, _, errs := h.runCtx(context.Background(), "algos", "resume", id); code != ExitUsage || !strings.Contains(errs, "is running, not paused") {
		t.Fatalf("second resume: exit %d %q", code, errs)
	}
	waitOpen(1)
	stop()
	res := <-done
	ps := progressLines(t, res.out)
	paused := false
	for _, p := range ps {
		paused = paused || p.State == "paused"
	}
	if !paused || ps[len(ps)-1].State != "stopped" || len(h.openOrders()) != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", res.code, res.out, res.err)
	}
}

// TestHeadlessOnRestartFromTheConfig: an algorithm an earlier run left running stops the next
// algorithm command, which names it with what it did so far (a survey: filled 0 of 0.002); with
// the config's [on_restart] chase = "cancel" and no flag, the next command cancels it and goes on.
func TestHeadlessOnRestartFromTheConfig(t *testing.T) {
	h := newHarness(t)
	h.stateDir = t.TempDir()
	h.ok("algos") // the journal file, for the account
	files, _ := filepath.Glob(filepath.Join(h.stateDir, "journal", "*.db"))
	j, err := journal.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"instrument":"BTC-PERP","side":"buy","size":"0.002","limit":"0","until":"0001-01-01T00:00:00Z","arrival":"97000"}`
	if _, err := j.BeginAlgo(context.Background(), journal.Algo{ID: "left-2", Kind: "chase", Params: json.RawMessage(raw)}); err != nil {
		t.Fatal(err)
	}
	_ = j.Close()
	args := []string{"scale", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--from", "90000", "--to", "91000", "--count", "2", "--yes"}
	if code, _, errs := h.run(args...); code != ExitUsage || !strings.Contains(errs, "chase left-2 (buy filled 0 of 0.002)") || !strings.Contains(errs, "[on_restart]") {
		t.Fatalf("left running: exit %d %q", code, errs)
	}
	var out, errb lockedBuffer
	code := Run(context.Background(), append(args, "--url", h.srv.URL), Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] },
		StateDir: h.stateDir, Defaults: Connection{OnRestart: &profile.OnRestart{Chase: "cancel"}}})
	if code != 0 || !strings.Contains(out.String(), "chase left-2 buy BTC-PERP: filled 0 of 0.002, cancelled") || len(h.openOrders()) != 2 {
		t.Fatalf("config cancel: exit %d %q %q", code, out.String(), errb.String())
	}
}
