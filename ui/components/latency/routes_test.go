package latency

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/ui/action"
)

// TestARouteCompletesOnlyWithEveryStamp: an order sent from a keystroke is followed through its
// signing and answer, its first streamed record and the frame that shows it; only then is it the
// session's and written on the next flush. An action with no keystroke before it is not timed.
func TestARouteCompletesOnlyWithEveryStamp(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	now := t0
	r := NewRoutes(func() time.Time { return now })
	a := &action.Action{}
	a.Order.Wire = api.OrderWire{Cloid: "c-1"}
	if at := r.Sent(a); !at.IsZero() {
		t.Fatalf("an action without a keystroke timed from %v", at)
	}
	r.Key()
	if at := r.Sent(a); !at.Equal(t0) {
		t.Fatalf("sent timed from %v, want the keystroke %v", at, t0)
	}
	var d action.DoneMsg
	d.Out.Cloid = "c-1"
	d.Out.Route = record.Route{Signed: t0.Add(time.Millisecond), Answered: t0.Add(3 * time.Millisecond)}
	r.Answered(d)
	r.Streamed([]state.Msg{state.FillMsg{Fill: api.Fill{Cloid: "c-1"}, At: t0.Add(4 * time.Millisecond)}})
	if done, open := r.Session(); len(done) != 0 || open != 1 {
		t.Fatalf("complete before it was shown: %d done, %d open", len(done), open)
	}
	now = t0.Add(5 * time.Millisecond)
	r.Shown()
	done, open := r.Session()
	if len(done) != 1 || open != 0 || !done[0].Shown.Equal(now) || !done[0].Streamed.Equal(t0.Add(4*time.Millisecond)) {
		t.Fatalf("after the frame: %+v, %d open", done, open)
	}
	if r.Flush(nil) != nil {
		t.Fatal("a flush without a journal wrote somewhere")
	}
}
