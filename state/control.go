package state

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// MaxBrokerFeeRate is the highest fee rate tradedesk lets a trader approve a broker for (1%).
var MaxBrokerFeeRate = decimal.New(1, -2)

// ParseFeeRate reads a broker's max fee rate: a fraction ("0.001") or a percent ("0.1%"), above
// zero and at most 1%. It returns the fraction as plain decimal text, the form that is signed.
func ParseFeeRate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("give the most the broker may charge, such as 0.001 (0.1%)")
	}
	pct := strings.HasSuffix(s, "%")
	num := strings.TrimSpace(strings.TrimSuffix(s, "%"))
	if strings.Trim(num, "0123456789.") != "" || strings.Count(num, ".") > 1 || strings.HasPrefix(num, ".") || strings.HasSuffix(num, ".") {
		return "", fmt.Errorf("%q: want a plain number such as 0.001 or 0.1%%", s)
	}
	d, err := decimal.NewFromString(num)
	if err != nil {
		return "", fmt.Errorf("%q: want a plain number such as 0.001 or 0.1%%", s)
	}
	if pct {
		d = d.Shift(-2)
	}
	if !d.IsPositive() || d.GreaterThan(MaxBrokerFeeRate) {
		return "", fmt.Errorf("%s is outside 0 to 1%%: a broker fee approval is a small fraction such as 0.001 (0.1%%)", FeeRateText(d.String()))
	}
	return d.String(), nil
}

// FeeRateText shows a fee rate fraction as a percent ("0.001" -> "0.1%").
func FeeRateText(rate string) string {
	d, err := decimal.NewFromString(rate)
	if err != nil {
		return rate
	}
	return d.Shift(2).String() + "%"
}

// AgentWarnAhead is how long before an agent expires the console warns.
const AgentWarnAhead = 24 * time.Hour

// AgentLeft says how long an agent has left ("29d 23h", "5h 10m", "expired").
func AgentLeft(until, now time.Time) string {
	left := until.Sub(now)
	switch {
	case left <= 0:
		return "expired"
	case left >= 24*time.Hour:
		return fmt.Sprintf("%dd %dh", int(left/(24*time.Hour)), int(left%(24*time.Hour)/time.Hour))
	case left >= time.Hour:
		return fmt.Sprintf("%dh %dm", int(left/time.Hour), int(left%time.Hour/time.Minute))
	}
	return fmt.Sprintf("%dm", max(int(left/time.Minute), 1))
}
