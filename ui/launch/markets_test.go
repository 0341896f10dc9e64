package launch

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/ui/headless"
)

// --markets N adds N synthetic perpetuals to the embedded demo (as tradedesk sim --markets); out
// of range, or with a real exchange, it is a usage error that says what to do.
func TestDemoMarketsFlag(t *testing.T) {
	ctx := context.Background()
	conn, err := Connect(ctx, options{Seed: 5, Markets: 40}, &bytes.Buffer{}, KeyEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ins, err := conn.Client.Instruments(rctx, "all")
	if err != nil || len(ins.Perps) != 6+40 || ins.Perps[len(ins.Perps)-1].Name != "SYN40-PERP" {
		t.Fatalf("demo with --markets 40: %d perpetuals, %v; want 46 ending with SYN40-PERP", len(ins.Perps), err)
	}
	for _, c := range []struct {
		o    options
		want string
	}{
		{options{Markets: -1}, "want 0 to 2000"},
		{options{Markets: 2001}, "want 0 to 2000"},
		{options{Markets: 5, Connection: headless.Connection{URL: "http://127.0.0.1:1/"}}, "tradedesk sim --markets N"},
	} {
		_, err := Connect(ctx, c.o, &bytes.Buffer{}, KeyEnv{})
		if err == nil || !headless.IsUsage(err) || !strings.Contains(err.Error(), "--markets") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--markets %d (url %q): %v; want a usage error saying %q", c.o.Markets, c.o.URL, err, c.want)
		}
	}
}
