package sim

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func postControl(s *Sim, body, remote string) (int, controlReply, string) {
	req := httptest.NewRequest(http.MethodPost, "/control", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = remote
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	var out controlReply
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out, rec.Body.String()
}

// TestMarketControl: POST /control moves a market's index (the mark and the makers' quotes
// follow) and pauses its random walk, for a caller on this machine only; a body it cannot read is
// refused saying what to send.
func TestMarketControl(t *testing.T) {
	t.Parallel()
	clock := NewTestClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := New(WithSeed(3), WithClock(clock))
	const local = "127.0.0.1:5000"
	code, out, body := postControl(s, `{"instrument":"BTC-PERP","index":"98000","pause":true}`, local)
	if code != http.StatusOK || out.Index != "98000" || !out.Paused || out.Mark == "" {
		t.Fatalf("move: %d %s", code, body)
	}
	m, _ := s.eng.marketByName("BTC-PERP")
	if bid, ok := m.book.bestPrice(true); !ok || m.tick.dec(bid).LessThan(dec("97500")) {
		t.Fatalf("the makers did not requote around 98000: best bid %s", m.tick.dec(bid))
	}
	for range 20 {
		s.Advance(time.Second)
	}
	if _, out, _ = postControl(s, `{"instrument":"BTC-PERP","pause":false}`, local); out.Index != "98000" || out.Paused {
		t.Fatalf("paused, the index walked: %+v", out)
	}
	for range 50 {
		s.Advance(time.Second)
	}
	if _, out, _ = postControl(s, `{"instrument":"BTC-PERP","pause":false}`, local); out.Index == "98000" {
		t.Fatalf("resumed, the index did not walk: %+v", out)
	}
	if code, _, body = postControl(s, `{"instrument":"BTC-PERP","index":"98000"}`, "10.1.2.3:5000"); code != http.StatusForbidden || !strings.Contains(body, "/control") {
		t.Fatalf("from another machine: %d %s", code, body)
	}
	for _, bad := range []string{`{}`, `{"instrument":"BTC-PERP"}`, `{"instrument":"BTC-PERP","index":"x"}`, `{"instrument":"NOPE","pause":true}`, `{"instrument":"BTC-PERP","pause":true,"speed":2}`} {
		if code, _, body = postControl(s, bad, local); code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", bad, code, body)
		}
	}
}
