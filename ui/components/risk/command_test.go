package risk

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	rules "github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// TestTheRiskCommandSaysWhatItDid: :risk halt says so and the read after it is HALTED with the
// reason; :risk resume clears it; a tightening is in force at once, a loosening pending until
// the delay's end; a bad limit is an error notice with the state still read.
func TestTheRiskCommandSaysWhatItDid(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	eng := newEngine(t, rules.Limits{rules.OrderNotional: decimal.NewFromInt(1000)}, func() time.Time { return now })
	acct := &rules.Account{Equity: decimal.NewFromInt(1000)}
	do := func(msg cmdline.RiskMsg) DoneMsg {
		d, ok := Command(eng, acct, msg)().(DoneMsg)
		if !ok {
			t.Fatalf("%+v sent no DoneMsg", msg)
		}
		return d
	}
	d := do(cmdline.RiskMsg{Verb: "halt", Why: "lunch"})
	if d.Failed || !strings.HasPrefix(d.Notice, "risk: halted: only cancels until :risk resume · HALTED") || d.Read.Text != "HALTED (lunch)" {
		t.Fatalf("halt: %+v", d)
	}
	if d = do(cmdline.RiskMsg{Verb: "resume"}); d.Failed || !strings.HasPrefix(d.Notice, "risk: resumed · ACTIVE") || d.Read.Text != "" {
		t.Fatalf("resume: %+v", d)
	}
	if d = do(cmdline.RiskMsg{Verb: "set", Name: rules.OrderNotional, Value: decimal.NewFromInt(500)}); d.Failed ||
		!strings.HasPrefix(d.Notice, "risk: max_order_notional = 500 in force · ") {
		t.Fatalf("a tightening: %+v", d)
	}
	d = do(cmdline.RiskMsg{Verb: "set", Name: rules.OrderNotional, Value: decimal.NewFromInt(5000)})
	if d.Failed || !strings.HasPrefix(d.Notice, "risk: max_order_notional = 5000 is a loosening: pending until 12:15:00 UTC · ") {
		t.Fatalf("a loosening: %+v", d)
	}
	d = do(cmdline.RiskMsg{Verb: "set", Name: rules.OrderNotional, Value: decimal.NewFromInt(-1)})
	if !d.Failed || !strings.HasPrefix(d.Notice, "risk set: ") || d.Read.Report == nil {
		t.Fatalf("a bad limit: %+v", d)
	}
}
