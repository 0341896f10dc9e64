package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestMirrorTakesTheUsersOwnFeeRates: with MirrorConfig.User the mirror charges that account's
// user_fees rates, not the default schedule's. The simulator has one schedule for every account,
// so the live exchange here is a simulator whose user_fees answer for one VIP account carries
// rates of its own (a live exchange's volume tier), everything else passed through unchanged.
func TestMirrorTakesTheUsersOwnFeeRates(t *testing.T) {
	t.Parallel()
	up := New(WithSeed(7), WithQuietMarkets(), WithFees(dec("-0.0002"), dec("0.0005")))
	vip, _ := api.SignerFromHex(keyHex("vip"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !strings.Contains(string(body), "user_fees") || !strings.Contains(strings.ToLower(string(body)), strings.ToLower(vip.Address())) {
			up.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		up.ServeHTTP(rec, r)
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Errorf("user_fees: %v: %s", err, rec.Body.String())
		}
		out["perp_maker_fee_rate"], out["perp_taker_fee_rate"] = "0.0001", "0.0003"
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for _, tc := range []struct{ user, maker, taker string }{{"", "-0.0002", "0.0005"}, {vip.Address(), "0.0001", "0.0003"}} {
		mr, err := NewMirror(ctx, MirrorConfig{Upstream: srv.URL, User: tc.user})
		if err != nil {
			t.Fatal(err)
		}
		if maker, taker := mr.Sim.FeeRates(); !maker.Equal(dec(tc.maker)) || !taker.Equal(dec(tc.taker)) {
			t.Errorf("User %q: the mirror charges maker %s taker %s, want %s %s", tc.user, maker, taker, tc.maker, tc.taker)
		}
	}
}
