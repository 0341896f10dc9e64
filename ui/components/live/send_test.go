package live

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
	"github.com/tradedesk/tradedesk/ui/components/account"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/orders"
)

// TestTheSendLiveKeyTakesOnlyTheOrdersAndTheAlgos: the key is taken on the open orders pane and
// on the Algos view (inside its group too), with nothing selected it says what to select; on
// any other pane it is not taken.
func TestTheSendLiveKeyTakesOnlyTheOrdersAndTheAlgos(t *testing.T) {
	c := commontest.NewCommon(t, state.New(time.Now), time.Now)
	s := Sender{Route: Route{}, Store: c.Store, Styles: c.Styles}
	ap := algos.New(c, algos.NewFeed(), nil, nil)
	for _, p := range []struct {
		pane common.Pane
		want string
	}{
		{orders.New(c), "select a paper order to send it live"},
		{ap, "select a paper algorithm to send it live"},
		{common.NewGroup(c, "Activity", ap), "select a paper algorithm to send it live"},
	} {
		got, ok := s.Key(p.pane)
		if !ok || got.Act != nil || got.Cmd != nil || got.Level != common.LevelWarn || got.Notice != p.want {
			t.Errorf("%T: taken %v, %+v; want the notice %q", p.pane, ok, got, p.want)
		}
	}
	if got, ok := s.Key(common.NewGroup(c, "Other", orders.New(c))); !ok || got.Notice != "select a paper order to send it live" {
		t.Errorf("the orders pane in a group: %v %+v", ok, got)
	}
	for _, p := range []common.Pane{account.New(c, ""), common.NewGroup(c, "Other", account.New(c, ""), ap)} {
		if _, ok := s.Key(p); ok {
			t.Errorf("the key is taken on %T, which has nothing to send live", p)
		}
	}
}

// TestAPaperOrdersSendSaysWhyNot: the selected paper order without a live key says how to get
// one; a refused one says why; one the check passes is the live action to confirm.
func TestAPaperOrdersSendSaysWhyNot(t *testing.T) {
	client, x, st := upstream(t)
	styles := common.NewStyles(commontest.Theme)
	mid, _ := st.Mid("BTC-PERP")
	paper := api.OrderRecord{Instrument: "BTC-PERP", Side: "buy", LimitPrice: mid.Mul(decimal.RequireFromString("0.98")).Round(0),
		Size: decimal.RequireFromString("0.01"), Tif: "gtc"}
	if got := (Sender{Route: Route{Missing: "give a key"}, Store: st, Styles: styles}).order(paper, true); got.Level != common.LevelWarn ||
		got.Notice != "not sent live: no live key; give a key" {
		t.Errorf("no key: %+v", got)
	}
	s := Sender{Route: Route{Exec: x, Ex: client, Network: "mainnet"}, Store: st, Styles: styles}
	if got := s.order(paper, true); got.Act == nil || !IsLive(got.Act) || got.Notice != "" {
		t.Errorf("a valid paper order: %+v", got)
	}
	zero := paper
	zero.Size = decimal.Zero
	if got := s.order(zero, true); got.Act != nil || got.Level != common.LevelError || !strings.HasPrefix(got.Notice, "not sent live: ") {
		t.Errorf("a refused paper order: %+v", got)
	}
}

// TestAPaperAlgorithmsSendSaysWhyNot: an algorithm the live session already runs, a console with
// no live session and a shadow session with no journal each say why nothing is sent; else the
// algorithm is read from the shadow journal; a read that failed says why, without a wait.
func TestAPaperAlgorithmsSendSaysWhyNot(t *testing.T) {
	paper := algos.Row{Progress: algo.Progress{ID: "c1", Kind: "chase"}}
	running := algos.Row{Progress: algo.Progress{ID: "c2", Kind: "chase"}, Session: Session}
	session := algos.NewRunner(nil, nil)
	j, err := journal.Open(t.TempDir() + "/j.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	watched := 0
	s := Sender{Route: Route{Missing: "give a key"}, Session: session, Shadow: j, Watch: func() tea.Cmd { watched++; return nil }}
	for _, c := range []struct {
		s     Sender
		row   algos.Row
		level common.NoticeLevel
		want  string
	}{
		{s, running, common.LevelNote, "chase c2 already runs live"},
		{Sender{Route: s.Route, Shadow: j}, paper, common.LevelWarn, "not sent live: no live key; give a key"},
		{Sender{Route: s.Route, Session: session}, paper, common.LevelWarn, "not sent live: the shadow session has no journal to read the algorithm's parameters from"},
	} {
		if got := c.s.algo([]algos.Row{c.row}, 0); got.Cmd != nil || got.Level != c.level || got.Notice != c.want {
			t.Errorf("%+v: %+v, want %q", c.row, got, c.want)
		}
	}
	got := s.algo([]algos.Row{paper}, 0)
	if got.Notice != "" || got.Cmd == nil {
		t.Fatalf("a paper algorithm is not read: %+v", got)
	}
	msg, ok := got.Cmd().(AlgoMsg)
	if !ok || msg.err == nil {
		t.Fatalf("read of an algorithm the journal lacks: %#v", got.Cmd())
	}
	if r := s.Read(msg); r.Act != nil || r.Level != common.LevelError || !strings.Contains(r.Notice, "not sent live: algorithm c1 is not in the shadow journal") || watched != 0 {
		t.Fatalf("read: %+v, %d waits", r, watched)
	}
}
