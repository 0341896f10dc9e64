//go:build unix

package sim

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestKilledSimKeepsWhatItAnswered (issue #39, durable state): `tradedesk sim --data DIR`, a
// real process, trades, rests a bid, cancels an ask and moves money, and is killed with SIGKILL
// straight after its last answer; started again on DIR it shows the same fills, open orders,
// order history and transfers, the resting bid can be cancelled, and a body it answered before
// the kill is refused.
func TestKilledSimKeepsWhatItAnswered(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	alice := nameAddr(t, "alice")
	cmd, url := startSimProcess(t, dir, "--fund", alice)
	c := api.New(url, api.WithSigner(signer(t, "alice")), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	buy := limit(1, api.SideBuy, "110000", "0.01")
	buy.Tif = api.TifIOC // fills against the makers' asks
	place(t, c, buy)
	bid := ids(t, c, limit(1, api.SideBuy, "60000", "0.01"), limit(1, api.SideSell, "140000", "0.01"))
	if _, err := c.CancelByOid(ctx(), []api.CancelOid{{Oid: bid[1], InstrumentID: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.InternalTransfer(ctx(), collUSDC, "100", false); err != nil {
		t.Fatal(err)
	}
	n := uint64(time.Now().UnixMilli()) + 5
	body := string(signed(t, "alice", api.ActionPlaceOrder, &api.PlaceOrderData{
		Orders: []api.OrderWire{limit(1, api.SideBuy, "60000", "0.01")}, ExpiresAfter: n + 60000, Nonce: n}))
	if code, raw := postTo(t, url+"exchange", body); code != 200 {
		t.Fatalf("a signed order: %d %s", code, raw)
	}
	before := recordsAt(t, url, alice)
	if !strings.Contains(before, `"limit_price":"60000"`) || strings.Count(before, "tx_hash") < 3 {
		t.Fatalf("before the kill, want a fill, the resting bid and a transfer:\n%s", before)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	_, url = startSimProcess(t, dir, "--fund", alice)
	if after := recordsAt(t, url, alice); after != before {
		t.Errorf("after kill -9 and a restart:\n%s\nbefore:\n%s", after, before)
	}
	if code, raw := postTo(t, url+"exchange", body); code != 401 {
		t.Errorf("the body answered before the kill, sent again: %d %s; want 401", code, raw)
	}
	c = api.New(url, api.WithSigner(signer(t, "alice")), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	if _, err := c.CancelByOid(ctx(), []api.CancelOid{{Oid: bid[0], InstrumentID: 1}}); err != nil {
		t.Errorf("cancelling the bid that rested before the kill: %v", err)
	}
}

// TestKilledSimChild is TestKilledSimKeepsWhatItAnswered's simulator process.
func TestKilledSimChild(t *testing.T) {
	t.Parallel()
	args := os.Getenv("SIM_KILL_CHILD")
	if args == "" {
		t.Skip("the process TestKilledSimKeepsWhatItAnswered starts and kills")
	}
	os.Exit(RunCommand(context.Background(), strings.Split(args, "\t"), os.Stdout, os.Stderr))
}

// startSimProcess runs `tradedesk sim --data dir` in a child process and returns it with its URL.
func startSimProcess(t *testing.T, dir string, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	args := append([]string{"--listen", "127.0.0.1:0", "--data", dir, "--seed", "3"}, extra...)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledSimChild$")
	cmd.Env = append(os.Environ(), "SIM_KILL_CHILD="+strings.Join(args, "\t"))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	br := bufio.NewReader(out)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("the simulator process: %v (stderr %q)", err, errb.String())
		}
		if rest, ok := strings.CutPrefix(line, "tradedesk sim: serving "); ok {
			go io.Copy(io.Discard, br) //nolint:errcheck // drained until the process ends
			url, _, _ := strings.Cut(rest, " ")
			return cmd, url
		}
	}
}

// recordsAt reads an account's fills, open orders, order history and transfers over /info.
func recordsAt(t *testing.T, url, user string) string {
	t.Helper()
	var b strings.Builder
	for _, m := range []string{"fills", "open_orders", "order_history", "transfer_history"} {
		code, raw := postTo(t, url+"info", fmt.Sprintf(`{"method":%q,"params":{"user":%q}}`, m, user))
		if code != 200 {
			t.Fatalf("%s: %d %s", m, code, raw)
		}
		fmt.Fprintf(&b, "%s: %s\n", m, raw)
	}
	return b.String()
}

// postTo posts a JSON body and returns the status and the raw answer.
func postTo(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}
