package ui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// lossy drops the connection of the next /exchange request, after the exchange acted on it (act)
// or before (the request never arrives).
type lossy struct {
	h    http.Handler
	drop atomic.Bool
	act  bool
}

func (l *lossy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.Contains(r.URL.Path, "exchange") && l.drop.CompareAndSwap(true, false) {
		if l.act {
			l.h.ServeHTTP(httptest.NewRecorder(), r)
		}
		panic(http.ErrAbortHandler)
	}
	l.h.ServeHTTP(w, r)
}

func TestLostAnswerIsLookedUpNotResent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		act    bool
		orders int
		says   string
	}{
		{"acted", true, 1, "the exchange has it"},
		{"never arrived", false, 0, "was NOT placed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := &lossy{act: tc.act}
			c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { l.h = h; return l })
			c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
			pump(t, c.m, c.m.Init())
			c.key(t, "4")
			c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
			c.key(t, "down", "down", "down")
			c.typeText(t, "95000")
			c.key(t, "down")
			c.typeText(t, "0.01")
			c.key(t, "enter")
			l.drop.Store(true)
			c.key(t, "enter")
			if !strings.Contains(c.m.shownNotice(), tc.says) {
				t.Fatalf("notice %q, want %q", c.m.shownNotice(), tc.says)
			}
			if c.m.pipe.busy(action.LaneOrder) {
				t.Error("the form is still locked after the lookup")
			}
			if n := len(c.m.store.Orders()); n != tc.orders {
				t.Errorf("%d open orders, want %d (nothing resent)", n, tc.orders)
			}
		})
	}
}
