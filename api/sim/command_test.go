package sim

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestListenWarnsOffLoopback: `tradedesk sim --listen` on an address that is not loopback warns
// that anyone who can reach it can trade and fund accounts; on loopback it says nothing.
func TestListenWarnsOffLoopback(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		listen string
		warns  bool
	}{
		{"127.0.0.1:0", false},
		{"localhost:0", false},
		{"0.0.0.0:0", true},
		{":0", true},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // serve nothing: the warning comes before the server starts
		var out, errb bytes.Buffer
		if code := RunCommand(ctx, []string{"--listen", tc.listen}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.listen, code, errb.String())
		}
		warned := strings.Contains(errb.String(), "anyone who can reach it can trade")
		if warned != tc.warns {
			t.Errorf("--listen %s: warned %v, want %v (stderr %q)", tc.listen, warned, tc.warns, errb.String())
		}
	}
}

// TestFundFlag: --fund opens the accounts it names (the demo balance, or =AMOUNT) and a bad
// --fund is a usage error.
func TestFundFlag(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	a, b := "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23", "0xFE3B557E8Fb62b89F4916B721be55cEb828dBd73"
	code := RunCommand(ctx, []string{"--listen", "127.0.0.1:0", "--fund", strings.ToLower(a), "--fund", b + "=2500.5"}, &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "funded "+a+" with 100000 USDC") || !strings.Contains(out.String(), "funded "+b+" with 2500.5 USDC") {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	for _, bad := range []string{"0x12", a + "=-5", a + "=1e3", a + "=x"} {
		errb.Reset()
		if code := RunCommand(ctx, []string{"--listen", "127.0.0.1:0", "--fund", bad}, &out, &errb); code != 2 {
			t.Errorf("--fund %s: exit %d", bad, code)
		}
	}
}

// TestScaleFlags: --markets adds the synthetic markets to what the command serves, and a bad
// --markets, --keep-fills or --keep-history is a usage error that names the flag and the range.
func TestScaleFlags(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- RunCommand(ctx, []string{"--listen", "127.0.0.1:0", "--markets", "500", "--keep-fills", "10000", "--keep-history", "10000"}, w, &errb)
		w.Close()
	}()
	line, err := bufio.NewReader(r).ReadString('\n')
	url, _, _ := strings.Cut(strings.TrimPrefix(line, "tradedesk sim: serving "), " ")
	if err != nil || !strings.Contains(line, "(seed 1, 500 synthetic markets)") {
		t.Fatalf("first line %q, %v (stderr %q)", line, err, errb.String())
	}
	ins, err := api.New(url).Instruments(ctx, "all")
	if err != nil || len(ins.Perps) != 506 {
		t.Fatalf("served %d perpetuals, %v; want 6 + 500", len(ins.Perps), err)
	}
	cancel()
	go io.Copy(io.Discard, r)
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	for _, bad := range [][]string{{"--markets", "-1"}, {"--markets", "2001"}, {"--keep-fills", "0"}, {"--keep-history", "100001"}} {
		errb.Reset()
		if code := RunCommand(context.Background(), append([]string{"--listen", "127.0.0.1:0"}, bad...), io.Discard, &errb); code != 2 ||
			!strings.Contains(errb.String(), bad[0]+": ") || !strings.Contains(errb.String(), "want ") {
			t.Errorf("%s %s: exit %d, stderr %q; want 2 and what to give", bad[0], bad[1], code, errb.String())
		}
	}
	errb.Reset()
	if code := RunCommand(context.Background(), []string{"--markets", "lots"}, io.Discard, &errb); code != 2 || !strings.Contains(errb.String(), "-markets") {
		t.Errorf("--markets lots: exit %d, stderr %q", code, errb.String())
	}
}
