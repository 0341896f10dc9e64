package alert

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// tick applies one streamed ticker of sym at mark and checks the engine at now.
func tick(e *Engine, s *state.Store, now time.Time, sym, mark string) []Event {
	m := state.TickerUpdateMsg{At: now, Ticker: api.Ticker{Symbol: sym, MarkPrice: decimal.RequireFromString(mark),
		LastPrice: decimal.RequireFromString(mark), LastUpdated: api.Time{Time: now}}}
	s.Apply(m)
	return e.Check(now, s, Link{ExchangeUp: true}, m)
}

func mustParse(t testing.TB, s string) Rule {
	t.Helper()
	r, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAPriceAlertFiresOncePerCrossing (issue #37): a mark straddling the level by less than the
// rearm margin for a minute (a tick a second, never five in a row below) fires once; coming back
// past the margin re-arms it, and the next crossing fires again (after the cool-down). Mutant
// alert/rearm-at-once.
func TestAPriceAlertFiresOncePerCrossing(t *testing.T) {
	now := t0
	s := state.New(func() time.Time { return now })
	e := New()
	e.Set([]Rule{mustParse(t, "btc-perp > 100000")})
	fired := 0
	step := func(mark string) {
		now = now.Add(time.Second)
		fired += len(tick(e, s, now, "BTC-PERP", mark))
	}
	step("99000") // starts below: armed
	for i := range 60 {
		if i%2 == 0 {
			step("100010")
		} else {
			step("99990")
		}
	}
	if fired != 1 {
		t.Fatalf("a minute straddling the level fired %d alerts, want 1", fired)
	}
	e.Delivered(Event{ID: e.Rules(now)[0].ID}, now)
	step("99800") // back by more than 0.1%: re-armed
	for range 60 {
		step("99800") // past the cool-down
	}
	step("100200")
	if fired != 2 {
		t.Fatalf("a second crossing fired %d in all, want 2", fired)
	}
}

func TestARuleAlreadyPastItsLevelAtStartWaitsForACrossing(t *testing.T) {
	now := t0
	s := state.New(func() time.Time { return now })
	e := New()
	e.Set([]Rule{mustParse(t, "btc-perp > 100000")})
	if evs := tick(e, s, now, "BTC-PERP", "100500"); len(evs) != 0 {
		t.Fatalf("fired at start: %v", evs)
	}
}

func TestStayingBackForNChecksRearms(t *testing.T) {
	now := t0
	s := state.New(func() time.Time { return now })
	e := New()
	e.Set([]Rule{mustParse(t, "btc-perp > 100000 cooldown 0s")})
	fired := 0
	for _, mark := range []string{"99999", "100001", "99999", "99999", "99999", "99999", "100001", "99999", "99999", "99999", "99999", "99999", "100001"} {
		now = now.Add(time.Second)
		fired += len(tick(e, s, now, "BTC-PERP", mark))
	}
	// Fires at the 2nd; four checks back do not re-arm; five do, then the last fires.
	if fired != 2 {
		t.Fatalf("fired %d, want 2", fired)
	}
}

// TestACoolDownStartsOnlyWhenDelivered: alerts nobody was shown start no cool-down; a delivered
// one holds the rule back for DefaultCooldown. Mutant alert/cooldown-ignored.
func TestACoolDownStartsOnlyWhenDelivered(t *testing.T) {
	now := t0
	s := state.New(func() time.Time { return now })
	e := New()
	e.Set([]Rule{mustParse(t, "btc-perp > 100000")})
	fired := 0
	for _, mark := range []string{"99000", "100100", "99000", "100100"} {
		now = now.Add(time.Second)
		fired += len(tick(e, s, now, "BTC-PERP", mark))
	}
	if fired != 2 {
		t.Fatalf("undelivered alerts started a cool-down: fired %d, want 2", fired)
	}
	e.Delivered(Event{ID: e.Rules(now)[0].ID}, now)
	for _, mark := range []string{"99000", "100100"} {
		now = now.Add(time.Second)
		fired += len(tick(e, s, now, "BTC-PERP", mark))
	}
	if fired != 2 || !e.Rules(now)[0].Cooling {
		t.Fatalf("fired %d within the cool-down", fired)
	}
	now = now.Add(DefaultCooldown)
	if fired += len(tick(e, s, now, "BTC-PERP", "100200")); fired != 3 {
		t.Fatalf("after the cool-down the rule still held: fired %d, want 3", fired)
	}
}

func TestAOneShotRuleFiresOnce(t *testing.T) {
	now := t0
	s := state.New(func() time.Time { return now })
	e := New()
	e.Set([]Rule{mustParse(t, "btc-perp < 90000 once")})
	fired := 0
	for _, mark := range []string{"95000", "89000", "95000", "89000"} {
		now = now.Add(2 * time.Minute)
		fired += len(tick(e, s, now, "BTC-PERP", mark))
	}
	if st := e.Rules(now)[0]; fired != 1 || !st.Done {
		t.Fatalf("fired %d, done %v", fired, st.Done)
	}
}

func TestAMoveWithinItsWindow(t *testing.T) {
	now := t0
	s := state.New(func() time.Time { return now })
	e := New()
	e.Set([]Rule{mustParse(t, "btc-perp move > 2% in 5m")})
	var evs []Event
	for _, mark := range []string{"100000", "100500", "101000", "101500", "102100"} {
		now = now.Add(time.Minute)
		evs = append(evs, tick(e, s, now, "BTC-PERP", mark)...)
	}
	if len(evs) != 1 || evs[0].Value != "2.1" || evs[0].Instrument != "BTC-PERP" {
		t.Fatalf("got %+v, want one move of 2.1%%", evs)
	}
	// The same 2.1% over more than the window is no move.
	e2, s2 := New(), state.New(nil)
	e2.Set([]Rule{mustParse(t, "btc-perp move > 2% in 5m")})
	for i, mark := range []string{"100000", "100500", "101000", "101500", "101700", "101900", "102100"} {
		if evs := tick(e2, s2, t0.Add(time.Duration(i)*2*time.Minute), "BTC-PERP", mark); len(evs) > 0 {
			t.Fatalf("a slow move fired: %+v", evs)
		}
	}
}

func TestDownForLongerThanN(t *testing.T) {
	s := state.New(nil)
	e := New()
	e.Set([]Rule{mustParse(t, "stream down > 30s")})
	check := func(at time.Duration, up bool) int {
		return len(e.Check(t0.Add(at), s, Link{HasStream: true, StreamUp: up, ExchangeUp: true}))
	}
	n := check(0, true) + check(time.Second, false) + check(20*time.Second, false)
	if n != 0 {
		t.Fatalf("fired before 30s down")
	}
	if n = check(32*time.Second, false) + check(40*time.Second, false); n != 1 {
		t.Fatalf("fired %d, want 1", n)
	}
}

func TestSummary(t *testing.T) {
	evs := []Event{{Text: "a"}, {Text: "b"}, {Text: "c"}, {Text: "d"}}
	if got := Summary(evs); got != "4 alerts: a; b; c; …" {
		t.Fatal(got)
	}
	if got := Summary(evs[:1]); got != "a" {
		t.Fatal(got)
	}
}
