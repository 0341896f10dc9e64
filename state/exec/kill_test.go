package exec

import (
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// dying is a Sender that stops the executor's goroutine (runtime.Goexit: nothing after it runs,
// as when the process is killed) after the journal commit, before the answer is read. With send
// false it stops before the client is called at all: before the signing, so before the journal commit.
type dying struct {
	real *api.Client
	send bool
}

func (d dying) PlaceOrders(ctx context.Context, orders []api.OrderWire) (api.TxResponse, error) {
	if d.send {
		_, _ = d.real.PlaceOrders(ctx, orders)
	}
	runtime.Goexit()
	return api.TxResponse{}, nil
}

func (d dying) CancelByOid(ctx context.Context, c []api.CancelOid) (api.TxResponse, error) {
	if d.send {
		_, _ = d.real.CancelByOid(ctx, c)
	}
	runtime.Goexit()
	return api.TxResponse{}, nil
}

func (d dying) CancelByCloid(ctx context.Context, c []api.CancelCloid) (api.TxResponse, error) {
	if d.send {
		_, _ = d.real.CancelByCloid(ctx, c)
	}
	runtime.Goexit()
	return api.TxResponse{}, nil
}

func (d dying) CancelByInstrument(ctx context.Context, id api.InstrumentID) (api.TxResponse, error) {
	if d.send {
		_, _ = d.real.CancelByInstrument(ctx, id)
	}
	runtime.Goexit()
	return api.TxResponse{}, nil
}

func (d dying) CancelAll(ctx context.Context) (api.TxResponse, error) {
	if d.send {
		_, _ = d.real.CancelAll(ctx)
	}
	runtime.Goexit()
	return api.TxResponse{}, nil
}

// killedDuring runs f on an executor that dies in its send, and waits for it to be gone.
func (r *rig) killedDuring(send bool, f func(e *Executor)) {
	e := r.executor(dying{real: r.client, send: send})
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(e)
		r.t.Error("the executor went on after it was killed")
	}()
	<-done
}

// restart reopens the journal and recovers with a new executor, which must send nothing.
func (r *rig) restart() (*Executor, []Found) {
	r.t.Helper()
	r.reopen()
	e := r.executor(dying{}) // it dies if it sends anything
	found, err := e.Recover(bg)
	must(r.t, err)
	return e, found
}

// TestKilledBetweenSendAndAnswer: an executor stopped after the journal commit and before the
// answer is read leaves its intent sent; the next start resolves it by client id and sends
// nothing twice: found when the request reached the exchange, not placed once its expiresAfter
// has passed when it did not. One stopped before its signing left nothing in the journal (the
// intent is written with its signing, in one commit) and sent nothing: there is nothing to recover.
func TestKilledBetweenSendAndAnswer(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	for _, c := range []struct {
		cloid      string
		send, lose bool
		kind       Kind
		reason     string
	}{
		{cloid: "kill-reached", send: true, kind: Placed},
		{cloid: "kill-lost", send: true, lose: true, kind: NotPlaced, reason: "after its request expired"},
		{cloid: "kill-unsigned"},
	} {
		r.drop.before.Store(c.lose)
		r.killedDuring(c.send, func(e *Executor) { _, _ = e.Place(bg, r.bid(e, c.cloid, api.TifGTC), Ask{Who: journal.WhoHeadless}) })
		if un, _ := r.j.Unresolved(bg); c.send != (len(un) == 1) {
			t.Fatalf("%s: before the restart, unresolved: %+v", c.cloid, un)
		}
		_, found := r.restart()
		if !c.send {
			if en, ok, _ := r.j.Get(bg, c.cloid); ok || len(found) != 0 {
				t.Fatalf("%s: never signed, yet journaled %+v and recovered %+v", c.cloid, en, found)
			}
			continue
		}
		if len(found) != 1 || found[0].Entry.Intent.ID != c.cloid {
			t.Fatalf("%s: recovered %+v", c.cloid, found)
		}
		res := found[0].Result
		if res.Kind != c.kind || !strings.Contains(res.Reason, c.reason) || c.kind == Placed && (res.Found == nil || res.Found.Cloid != c.cloid || res.Outcome.Oid == 0) {
			t.Errorf("%s: %+v", c.cloid, res)
		}
		if en, _, _ := r.j.Get(bg, c.cloid); en.Outcome == nil || !en.Outcome.Settled || en.Outcome.Kind != c.kind.String() {
			t.Errorf("%s in the journal: %+v", c.cloid, en.Outcome)
		}
	}
	if n := r.atExchange(); n["kill-reached"] != 1 || len(n) != 1 {
		t.Fatalf("at the exchange: %v", n)
	}
	// A second start finds nothing left; a new order goes out.
	if _, again := r.restart(); len(again) != 0 {
		t.Fatalf("recovered twice: %+v", again)
	}
	e := r.executor(nil)
	if res, err := e.Place(bg, r.bid(e, "after-restart", api.TifGTC), Ask{Who: journal.WhoHeadless}); err != nil || res.Kind != Placed {
		t.Fatalf("after the restart: %+v %v", res, err)
	}
}

// TestAKilledCancelIsResolvedByItsOrder: a cancel stopped before its answer is settled, on the
// next start, by the order's state.
func TestAKilledCancelIsResolvedByItsOrder(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	res, err := e.Place(bg, r.bid(e, "to-cancel", api.TifGTC), Ask{Who: journal.WhoHeadless})
	if err != nil || res.Kind != Placed {
		t.Fatalf("place: %+v %v", res, err)
	}
	r.killedDuring(true, func(e *Executor) {
		_, _ = e.Cancel(bg, Cancel{InstrumentID: 1, Oid: res.Outcome.Oid}, Ask{Who: journal.WhoHeadless})
	})
	_, found := r.restart()
	if len(found) != 1 || found[0].Result.Kind != Cancelled || found[0].Entry.Action != api.ActionCancelByOid {
		t.Fatalf("recovered: %+v", found)
	}
}

// TestPlaceRecoversFirst: an executor recovers what an earlier run left before it sends.
func TestPlaceRecoversFirst(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	r.killedDuring(true, func(e *Executor) { _, _ = e.Place(bg, r.bid(e, "left-1", api.TifGTC), Ask{Who: journal.WhoHeadless}) })
	r.reopen()
	e := r.executor(nil)
	if res, err := e.Place(bg, r.bid(e, "next-1", api.TifGTC), Ask{Who: journal.WhoHeadless}); err != nil || res.Kind != Placed {
		t.Fatalf("place: %+v %v", res, err)
	}
	if en, _, _ := r.j.Get(bg, "left-1"); en.Outcome == nil || en.Outcome.Kind != "placed" {
		t.Fatalf("the earlier intent was not recovered first: %+v", en.Outcome)
	}
}

var keyRun = regexp.MustCompile(`(?i)[0-9a-f]{32,}`)

// noKeyIn fails when a file under dir holds the test key, half of it, or any run of 32 hex digits.
func noKeyIn(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Fatal("no journal files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		must(t, err)
		low := strings.ToLower(string(b))
		if strings.Contains(low, testKey[:32]) || strings.Contains(low, testKey[32:]) || keyRun.Match(b) {
			t.Errorf("%s holds key material", filepath.Base(f))
		}
	}
}

// killer is a Sender that kills its own process (SIGKILL) once the order's request has reached the
// exchange, before the executor reads the answer.
type killer struct{ real *api.Client }

func (k killer) PlaceOrders(ctx context.Context, orders []api.OrderWire) (api.TxResponse, error) {
	_, _ = k.real.PlaceOrders(ctx, orders)
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

func (k killer) CancelByOid(context.Context, []api.CancelOid) (api.TxResponse, error) {
	panic("not used")
}

func (k killer) CancelByCloid(context.Context, []api.CancelCloid) (api.TxResponse, error) {
	panic("not used")
}

func (k killer) CancelByInstrument(context.Context, api.InstrumentID) (api.TxResponse, error) {
	panic("not used")
}

func (k killer) CancelAll(context.Context) (api.TxResponse, error) { panic("not used") }

// TestAKilledProcessIsRecoveredAndSendsNothingTwice: a real process, killed (SIGKILL) between the
// send and the answer, with the simulator on loopback in this one; the next start finds the order
// by its client id and sends nothing twice.
func TestAKilledProcessIsRecoveredAndSendsNothingTwice(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	if url := os.Getenv("EXEC_KILL_URL"); url != "" {
		r := &rig{t: t, client: rigClient(t, url), path: os.Getenv("EXEC_KILL_JOURNAL")}
		r.reopen()
		r.st = r.store()
		e := r.executor(killer{real: r.client})
		_, err := e.Place(bg, r.bid(e, "killed-process", api.TifGTC), Ask{Who: journal.WhoHeadless})
		t.Fatalf("the process was not killed: %v", err)
	}
	r := newRig(t)
	cmd := osexec.Command(os.Args[0], "-test.run=^TestAKilledProcessIsRecoveredAndSendsNothingTwice$", "-test.count=1")
	cmd.Env = append(os.Environ(), "EXEC_KILL_URL="+r.client.BaseURL(), "EXEC_KILL_JOURNAL="+r.path)
	out, err := cmd.CombinedOutput()
	var ee *osexec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v\n%s", err, out)
	}
	_, found := r.restart()
	if len(found) != 1 || found[0].Result.Kind != Placed || found[0].Result.Found == nil || found[0].Entry.Intent.ID != "killed-process" {
		t.Fatalf("recovered: %+v", found)
	}
	if n := r.atExchange(); n["killed-process"] != 1 || len(n) != 1 {
		t.Fatalf("at the exchange: %v", n)
	}
}
