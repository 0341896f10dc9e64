package algo

import (
	"sort"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// The account's leverage setting on an instrument, which a child's risk check reads (margin), is
// not streamed, so a child's store read it for every child. The tape keeps the last one read per
// instrument (KeepLeverage) and gives it back (Leverage) while the stream is up on the connection
// it was kept on, for at most LeverageFor, and only until the stream's positions or account
// summary show a leverage other than they did (a leverage change), or a child on the instrument
// is refused (ForgetLeverage): then it is read again.

// LeverageFor is how long a kept leverage setting stands before it is read again.
const LeverageFor = 30 * time.Second

// keptLeverage is a leverage setting read from the exchange, on the connection up then.
type keptLeverage struct {
	l     api.InstrumentLeverage
	epoch uint64
	at    time.Time
}

// Leverage is the leverage setting kept for instrument symbol, when it still stands.
func (t *Tape) Leverage(symbol string) (api.InstrumentLeverage, bool) {
	if t == nil {
		return api.InstrumentLeverage{}, false
	}
	st := t.status()
	t.mu.Lock()
	defer t.mu.Unlock()
	k, ok := t.state.levs[symbol]
	if !ok || !st.Up || k.epoch != st.Epoch || time.Since(k.at) >= LeverageFor {
		return api.InstrumentLeverage{}, false
	}
	return k.l, true
}

// KeepLeverage keeps instrument symbol's leverage setting, just read from the exchange (nothing
// is kept while the stream is down: nothing would say it changed).
func (t *Tape) KeepLeverage(symbol string, l api.InstrumentLeverage) {
	if t == nil {
		return
	}
	st := t.status()
	if !st.Up {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state.levs == nil {
		t.state.levs = map[string]keptLeverage{}
	}
	if _, known := t.state.levs[symbol]; known || len(t.state.levs) < tapeSymbols {
		t.state.levs[symbol] = keptLeverage{l, st.Epoch, time.Now()}
	}
}

// ForgetLeverage drops instrument symbol's kept leverage: the next child reads it.
func (t *Tape) ForgetLeverage(symbol string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	delete(t.state.levs, symbol)
	t.mu.Unlock()
}

// leverageMoved drops every kept leverage when the streamed positions and account summary show
// leverages other than before (under mu, after a positions or account record).
func (s *tapeState) leverageMoved() {
	var w []string
	if s.positions != nil {
		for _, p := range s.positions.v {
			w = append(w, "p "+p.Instrument+" "+p.Leverage.String())
		}
	}
	if s.account != nil {
		for name, ps := range s.account.v.PerpPositions {
			for _, leg := range ps.Legs {
				w = append(w, "a "+name+" "+leg.Leverage.Type+" "+leg.Leverage.Value.String())
			}
		}
	}
	sort.Strings(w)
	if print := strings.Join(w, ";"); print != s.levPrint {
		s.levPrint, s.levs = print, nil
	}
}
