package journal

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

var ctx = context.Background()

func open(t testing.TB) *Journal {
	t.Helper()
	j, err := Open(Path(t.TempDir(), "127.0.0.1:4000", "0xAbC"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

func signing(nonce uint64) api.Signing {
	return api.Signing{Action: api.ActionPlaceOrder, Nonce: nonce, ExpiresAfter: nonce + 60000,
		Data: []byte(`{"orders":[{"cloid":"c-1"}],"expiresAfter":` + "1" + `,"nonce":1}`)}
}

func TestTheLifeOfAnIntent(t *testing.T) {
	j := open(t)
	id, err := j.Begin(ctx, Intent{ID: "c-1", Kind: "place", Who: WhoHeadless, What: "buy 0.1 BTC-PERP", Cloids: []string{"c-1"}})
	if err != nil || id != "c-1" {
		t.Fatalf("begin: %q %v", id, err)
	}
	if un, _ := j.Unsent(ctx); len(un) != 1 || un[0].Intent.ID != "c-1" {
		t.Fatalf("a begun intent is unsent: %+v", un)
	}
	if err := j.Sent(ctx, id, signing(1700000000000)); err != nil {
		t.Fatal(err)
	}
	if err := j.Sent(ctx, id, signing(1700000000001)); err == nil {
		t.Fatal("an intent was marked sent twice")
	}
	un, _ := j.Unresolved(ctx)
	if len(un) != 1 || un[0].Nonce != 1700000000000 || un[0].ExpiresAfter != 1700000060000 || un[0].Action != api.ActionPlaceOrder ||
		!strings.Contains(string(un[0].Request), `"cloid":"c-1"`) || un[0].Intent.Who != WhoHeadless || !slices.Equal(un[0].Intent.Cloids, []string{"c-1"}) {
		t.Fatalf("unresolved: %+v", un)
	}
	if ok, err := j.Outcome(ctx, id, Outcome{Kind: "unknown"}); !ok || err != nil {
		t.Fatalf("an unknown outcome: %v %v", ok, err)
	}
	if un, _ := j.Unresolved(ctx); len(un) != 1 {
		t.Fatal("an unknown outcome resolved the intent")
	}
	if ok, _ := j.Outcome(ctx, id, Outcome{Kind: "placed", Settled: true, Oid: 42}); !ok {
		t.Fatal("a settled outcome did not replace the unknown one")
	}
	if ok, _ := j.Outcome(ctx, id, Outcome{Kind: "not placed", Settled: true}); ok {
		t.Fatal("a settled outcome was replaced")
	}
	if un, _ := j.Unresolved(ctx); len(un) != 0 {
		t.Fatalf("still unresolved: %+v", un)
	}
	e, ok, err := j.Get(ctx, id)
	if !ok || err != nil || e.Outcome == nil || e.Outcome.Kind != "placed" || e.Outcome.Oid != 42 {
		t.Fatalf("get: %+v %v", e, err)
	}
	if _, err := j.Begin(ctx, Intent{ID: "c-1", Kind: "place", Who: WhoHeadless}); !errors.Is(err, ErrUsedID) {
		t.Fatalf("a client id used twice: %v", err)
	}
}

func TestRecentIsNewestFirstAndSurvivesReopening(t *testing.T) {
	path := Path(t.TempDir(), "testnet", "0xAbC")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := j.Begin(ctx, Intent{Kind: "cancel", Who: WhoForm, What: "cancel " + string(rune('a'+i))}); err != nil {
			t.Fatal(err)
		}
	}
	_ = j.Close()
	if j, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	es, err := j.Recent(ctx, 2)
	if err != nil || len(es) != 2 || es[0].Intent.What != "cancel c" || es[1].Intent.What != "cancel b" {
		t.Fatalf("recent: %+v %v", es, err)
	}
	if !strings.HasSuffix(path, filepath.Join("journal", "testnet-0xabc.db")) || !strings.HasSuffix(Path("/d", "127.0.0.1:80", "x"), "127.0.0.1_80-x.db") {
		t.Fatalf("path %s", path)
	}
}

func TestTheFilesAreTheOwnersOnly(t *testing.T) {
	j := open(t)
	id, _ := j.Begin(ctx, Intent{Kind: "place", Who: WhoHeadless})
	if err := j.Sent(ctx, id, signing(1)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{j.File(), j.File() + "-wal", j.File() + "-shm", filepath.Dir(j.File())} {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v: others may read it", filepath.Base(f), st.Mode().Perm())
		}
	}
}

func TestChildCloids(t *testing.T) {
	parent := "0f8fad5b-d9cb-469f-a165-70867728950e"
	a, err := ChildCloid(parent, 2)
	if b, _ := ChildCloid(parent, 2); err != nil || a != parent+"-2" || a != b || api.CheckCloid(a) != nil {
		t.Fatalf("child cloid %q %v", a, err)
	}
	if _, err := ChildCloid(strings.Repeat("x", api.MaxCloidLen-1), 10); err == nil || !strings.Contains(err.Error(), "shorter id") {
		t.Fatalf("a child over the length limit: %v", err)
	}
	if _, err := ChildCloid(parent, 0); err == nil {
		t.Fatal("child 0")
	}
}

const testKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

// TestTheJournalHoldsNoKey: a key pasted into any text the journal keeps is hidden, and no run
// of hex digits as long as a key is in its files.
func TestTheJournalHoldsNoKey(t *testing.T) {
	j := open(t)
	id, err := j.Begin(ctx, Intent{Kind: "place", Who: WhoCommandLine, What: "buy 0x" + testKey, Cloids: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	s := signing(1)
	s.Data = []byte(`{"note":"` + testKey + `"}`)
	if err := j.Sent(ctx, id, s); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Outcome(ctx, id, Outcome{Kind: "rejected", Settled: true, Detail: "echo " + strings.ToUpper(testKey)}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Begin(ctx, Intent{ID: testKey, Kind: "place", Who: WhoHeadless}); err == nil {
		t.Fatal("a key was taken as an intent id")
	}
	noKeyIn(t, filepath.Dir(j.File()), testKey)
}

var keyRun = regexp.MustCompile(`(?i)[0-9a-f]{32,}`)

// noKeyIn fails when any file under dir holds key (in either case, or half of it) or a run of
// 32 hex digits.
func noKeyIn(t *testing.T, dir, key string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Fatal("no journal files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		low := strings.ToLower(string(b))
		if strings.Contains(low, key[:32]) || strings.Contains(low, key[32:]) || keyRun.Match(b) {
			t.Errorf("%s holds key material", filepath.Base(f))
		}
	}
}

// TestACommittedIntentSurvivesAKill: a process killed (SIGKILL) right after Sent returned, the
// journal never closed, leaves the intent for the next start to find.
func TestACommittedIntentSurvivesAKill(t *testing.T) {
	if path := os.Getenv("JOURNAL_KILL_AT"); path != "" {
		j, err := Open(path)
		if err == nil {
			id, _ := j.Begin(ctx, Intent{ID: "killed-1", Kind: "place", Who: WhoHeadless, Cloids: []string{"killed-1"}})
			if err = j.Sent(ctx, id, signing(1700000000000)); err == nil {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				time.Sleep(time.Minute)
			}
		}
		t.Fatal(err)
	}
	path := Path(t.TempDir(), "testnet", "0xabc")
	cmd := exec.Command(os.Args[0], "-test.run=^TestACommittedIntentSurvivesAKill$", "-test.count=1")
	cmd.Env = append(os.Environ(), "JOURNAL_KILL_AT="+path)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v\n%s", err, out)
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	un, err := j.Unresolved(ctx)
	if err != nil || len(un) != 1 || un[0].Intent.ID != "killed-1" || un[0].Nonce != 1700000000000 {
		t.Fatalf("after the kill: %+v %v", un, err)
	}
}

func TestExpired(t *testing.T) {
	e := Entry{ExpiresAfter: 1_000_000}
	at := time.UnixMilli(1_000_000)
	if e.Expired(at, 0) || !e.Expired(at.Add(time.Millisecond), 0) || e.Expired(at.Add(time.Second), 2*time.Second) || (Entry{}).Expired(at, 0) {
		t.Fatal("expiry is read wrong")
	}
}

// TestProfilePathIsItsOwn: a named profile's journal is a file of its own beside the plain one.
func TestProfilePathIsItsOwn(t *testing.T) {
	if got := ProfilePath("/d", "testnet", "0xAbC", ""); got != Path("/d", "testnet", "0xAbC") {
		t.Fatalf("no profile: %s", got)
	}
	if got := ProfilePath("/d", "testnet", "0xAbC", "b"); !strings.HasSuffix(got, filepath.Join("journal", "testnet-0xabc-b.db")) {
		t.Fatalf("profile b: %s", got)
	}
}
