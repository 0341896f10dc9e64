package cmdline

import (
	"errors"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/risk"
)

// RiskMsg asks the root to act on the trading state and the limits (`:risk`, `:risk halt
// [why]`, `:risk resume`, `:risk NAME VALUE`): Verb is show, halt, resume or set; Why is a
// halt's; Name and Value a limit's (risk.ParseLimit).
type RiskMsg struct {
	Verb  string
	Why   string
	Name  string
	Value decimal.Decimal
}

// riskLine reads a line that is a risk command; ok false when it is none, err what is wrong
// with one.
func riskLine(line string) (msg RiskMsg, ok bool, err error) {
	words := strings.Fields(line)
	if len(words) == 0 || !strings.EqualFold(words[0], "risk") {
		return msg, false, nil
	}
	switch {
	case len(words) == 1:
		msg.Verb = "show"
	case strings.EqualFold(words[1], "halt"):
		msg.Verb, msg.Why = "halt", strings.Join(words[2:], " ")
	case strings.EqualFold(words[1], "resume") && len(words) == 2:
		msg.Verb = "resume"
	case len(words) == 3:
		msg.Verb = "set"
		msg.Name, msg.Value, err = risk.ParseLimit(words[1], words[2])
	default:
		return msg, true, errRiskUsage
	}
	return msg, true, err
}

var errRiskUsage = errors.New("give risk, risk halt [why], risk resume or risk NAME VALUE (max_daily_loss 300, max_daily_loss 2%, max_order_notional.BTC-PERP 5000)")

// checkRisk is check's reading of a risk line.
func (m *Model) checkRisk(line string) bool {
	msg, ok, err := riskLine(line)
	switch {
	case !ok:
		return false
	case err != nil:
		m.live = "… " + err.Error()
	case msg.Verb == "show":
		m.live = "✓ " + m.enterKey() + " shows the trading state and each limit's use"
	case msg.Verb == "set":
		m.live = "✓ " + m.enterKey() + " sets " + msg.Name + " = " + msg.Value.String() + " (a tightening at once, a loosening after the delay)"
	default:
		m.live = "✓ " + m.enterKey() + " " + msg.Verb + "s trading"
	}
	return true
}

func init() {
	verbUsage["risk"] = "risk · risk halt [why] · risk resume · risk NAME VALUE: the trading state and each limit's use; halt, resume; " +
		"set a limit (a loosening waits the delay)"
}
