package statusbar

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestCutBeforeAParenthesis (QA 13b #11): a message cut at the line's end is cut before a
// parenthesis of which it would keep one word at most, else after a whole word, dropping a hanging
// separator; never further back than half the room. Guards "no room for 7 Activity (p… (! for
// all)".
func TestCutBeforeAParenthesis(t *testing.T) {
	t.Parallel()
	msg := "✓ placed order 1000676  ·  no room for 7 Activity (press its number)"
	for _, tc := range []struct {
		room int
		want string
	}{
		{52, "✓ placed order 1000676  ·  no room for 7 Activity"},            // inside "(press"
		{54, "✓ placed order 1000676  ·  no room for 7 Activity"},            // inside "press"
		{45, "✓ placed order 1000676  ·  no room for 7"},                     // inside "Activity"
		{28, "✓ placed order 1000676"},                                       // after the separator
		{8, "✓ placed"},                                                      // the space after a word
		{5, "✓ pla"},                                                         // no word boundary: at room
		{58, "✓ placed order 1000676  ·  no room for 7 Activity"},            // "(press" whole, alone
		{62, "✓ placed order 1000676  ·  no room for 7 Activity (press its"}, // words of it kept
		{200, msg}, // it fits
	} {
		if got := ansi.Truncate(msg, cutAt(msg, tc.room), ""); got != tc.want {
			t.Errorf("room %d: %q, want %q", tc.room, got, tc.want)
		}
	}
	sb := New(common.NewStyles(commontest.Theme))
	segs := []seg{{"✓ placed order 1000676", sb.st.Good}, {"  ·  ", sb.st.Muted}, {"no room for 7 Activity (press its number)", sb.st.Muted}}
	want := "✓ placed order 1000676  ·  no room for 7 Activity… (! for all)"
	if got := ansi.Strip(sb.fitLines("… (! for all)", segs, 66, 1)[0]); strings.TrimRight(got, " ") != want || ansi.StringWidth(got) != 66 {
		t.Errorf("the status line reads %q", got)
	}
}

// TestAStalledStreamSaysPolling: with the stream up but a market topic silent behind live pings
// (feed.Conn.Stalled, see TestAStallBehindLivePingsIsSaid), the status line says polling and why,
// not "stream". Guards frozen prices under a line that says stream.
func TestAStalledStreamSaysPolling(t *testing.T) {
	t.Parallel()
	sb := New(common.NewStyles(commontest.Theme))
	if got := ansi.Strip(sb.transport(feed.Conn{Stream: true, HasStream: true}, "")); got != " · stream" {
		t.Fatalf("streaming: %q", got)
	}
	got := ansi.Strip(sb.transport(feed.Conn{Stream: true, HasStream: true, Stalled: "ticker stream silent 5s"}, ""))
	if got != " · polling (ticker stream silent 5s)" {
		t.Fatalf("stalled: %q", got)
	}
}

// TestTheBarShowsTheValuesItIsGiven (issue #33, 3): the bar draws what its values say and nothing
// else: the badge of each mode, the account, the connection, the stale kinds, the banners
// (shadow, algorithms, risk, guard) when set, the summary when the account has loaded, and on the
// message line the notice, the hidden panes, a recent error (not one older than 30 s) and the
// messages key of the values where the line is cut. It fails if the bar reads state it is not
// given or drops a value it is.
func TestTheBarShowsTheValuesItIsGiven(t *testing.T) {
	t.Parallel()
	sb := New(common.NewStyles(commontest.Theme))
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	v := Values{
		Identity: Identity{Mode: ModeLive, Network: "testnet", Address: "0x7d2b6a4b38bfe8f3bf4a1ec0f2a3e5da1c9b4e10"},
		Now:      now, Wide: true, HideLatency: true, Conn: feed.Conn{State: feed.Connected},
		Stale: []Stale{{Name: "tickers", Age: 12 * time.Second, Loaded: true}, {Name: "fills"}},
		Account: Account{Loaded: true, Version: [3]uint64{1, 1, 1}, Equity: decimal.NewFromInt(1000),
			Available: decimal.NewFromInt(800), UPnL: decimal.NewFromInt(-5), IM: decimal.NewFromInt(20)},
		MessagesKey: "F2",
	}
	top := ansi.Strip(sb.Top(v, 200))
	for _, want := range []string{" LIVE TESTNET ", "tradedesk", "● connected", "stale: tickers 12s, fills never loaded", "perp equity 1,000.00", "uPnL -5.00"} {
		if !strings.Contains(top, want) {
			t.Errorf("top line %q lacks %q", top, want)
		}
	}
	if strings.Contains(top, "SHADOW") || strings.Contains(top, "algo") {
		t.Errorf("banners drawn that were not given: %q", top)
	}
	v.Banners = Banners{Shadow: "mainnet", Algorithms: 2, Risk: "locked: daily loss", Guard: "attached"}
	if top = ansi.Strip(sb.Top(v, 200)); !strings.Contains(top, "SHADOW mainnet · 2 algos · RISK locked: daily loss · guard attached") {
		t.Errorf("banners: %q", top)
	}
	for mode, badge := range map[Mode]string{ModeDemo: " DEMO ", ModeReadOnly: " READ-ONLY TESTNET "} {
		v.Mode = mode
		if top = ansi.Strip(sb.Top(v, 200)); !strings.HasPrefix(top, badge) {
			t.Errorf("%s: top line %q", mode, top)
		}
	}
	v.Account.Loaded = false
	if top = ansi.Strip(sb.Top(v, 200)); strings.Contains(top, "perp equity") {
		t.Errorf("a summary before the account loaded: %q", top)
	}

	v.Notice, v.NoticeLevel, v.Hidden = "placed order 7", common.LevelInfo, []string{"7 Activity"}
	v.LastErr, v.LastErrAt = "timeout", now.Add(-31*time.Second)
	if line := ansi.Strip(sb.Message(v, 200)); !strings.HasPrefix(line, "✓ placed order 7  ·  no room for 7 Activity") || strings.Contains(line, "timeout") {
		t.Errorf("message line %q", line)
	}
	v.LastErrAt = now.Add(-3 * time.Second)
	if line := ansi.Strip(sb.Message(v, 200)); !strings.Contains(line, "last error: timeout (3s ago)") {
		t.Errorf("a recent error is not said: %q", line)
	}
	if line := ansi.Strip(sb.Message(v, 40)); !strings.HasSuffix(strings.TrimRight(line, " "), "… (F2 for all)") {
		t.Errorf("a cut line does not name the values' messages key: %q", line)
	}
	b := sb.Bottom(v, 40, func() string { return "FOOTER" })
	if len(b) < 2 || b[len(b)-1] == "FOOTER" {
		t.Errorf("an urgent message does not take the footer's line: %q", b)
	}
	v.Overlay = true
	if b = sb.Bottom(v, 40, func() string { return "FOOTER" }); len(b) != 2 || b[1] != "FOOTER" {
		t.Errorf("with an overlay open the footer stays: %q", b)
	}
}

// TestTheBarNamesTheProfile (issue #42): the mode line names the config profile after the badge,
// and says nothing of one when none is given.
func TestTheBarNamesTheProfile(t *testing.T) {
	t.Parallel()
	sb := New(common.NewStyles(commontest.Theme))
	v := Values{Identity: Identity{Mode: ModeLive, Network: "mainnet", Address: "0x7d2b6a4b38bfe8f3bf4a1ec0f2a3e5da1c9b4e10"}, HideLatency: true}
	if top := ansi.Strip(sb.Top(v, 120)); strings.Contains(top, "profile") {
		t.Errorf("no profile given: %q", top)
	}
	v.Profile = "vault"
	if top := ansi.Strip(sb.Top(v, 120)); !strings.Contains(top, "LIVE MAINNET  profile vault · 0x7d2b") {
		t.Errorf("profile vault: %q", top)
	}
}
