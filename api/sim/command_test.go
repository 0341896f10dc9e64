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
