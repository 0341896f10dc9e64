package sim

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestListenWarnsOffLoopback: `tradedesk sim --listen` on an address that is not loopback warns
// that anyone who can reach it can trade and fund accounts; on loopback it says nothing.
func TestListenWarnsOffLoopback(t *testing.T) {
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
