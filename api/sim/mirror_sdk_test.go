package sim

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMirrorOfficialTSSDK runs the official TypeScript SDK's order and subscription clients,
// unchanged, against a mirror (testdata/sdk/mirror.mjs): a paper market buy through
// ExchangeClient.placeOrder fills at the mirrored ask, and SubscriptionClient.orderbook gets the
// mirrored book. It needs node and the SDK installed in $TRADEDESK_TS_SDK
// (npm install @hotstuff-labs/ts-sdk@0.0.1-beta.13 there); without them it is skipped.
func TestMirrorOfficialTSSDK(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("TRADEDESK_TS_SDK")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		t.Skip("set TRADEDESK_TS_SDK to a directory with @hotstuff-labs/ts-sdk installed, and have node on PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@hotstuff-labs", "ts-sdk")); err != nil {
		t.Skipf("TRADEDESK_TS_SDK: %v", err)
	}
	me := newMirrorEnv(t)
	me.paper.open("ts-sdk")
	sentBefore := me.exch.Load()
	cmd := exec.Command(node, "testdata/sdk/mirror.mjs", dir, me.paper.srv.URL+"/", "0x"+keyHex("ts-sdk"), fmt.Sprint(me.paper.clock.Now().UnixMilli()))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the SDK script: %v\n%s", err, out)
	}
	var got struct {
		BestAsk  string          `json:"bestAsk"`
		Placed   json.RawMessage `json:"placed"`
		Streamed json.RawMessage `json:"streamed"`
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("the SDK script's output: %v\n%s", err, out)
	}
	if got.BestAsk != "97010" || !strings.Contains(string(got.Placed), `"filled"`) || !strings.Contains(string(got.Streamed), "97010") {
		t.Fatalf("through the SDK: best ask %s, placeOrder %s, streamed book %s", got.BestAsk, got.Placed, got.Streamed)
	}
	if n := me.exch.Load() - sentBefore; n != 0 {
		t.Fatalf("the live exchange got %d /exchange requests while the SDK paper-traded", n)
	}
	fs := fillsOf(t, me.live.client("ts-sdk"), nameAddr(t, "ts-sdk"))
	if len(fs) != 0 {
		t.Fatalf("the SDK's paper order filled on the live exchange: %+v", fs)
	}
}
