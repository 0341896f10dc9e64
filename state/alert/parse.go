package alert

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
)

// Grammar is the rule grammar in one line each, for errors and help.
const Grammar = `btc > 100000 | btc last < 90000 | btc mid > 97000 | btc move > 2% in 5m | eth liq < 5% | ` +
	`margin > 80% | btc funding > 0.01% | funding payment > 5 | btc fills | partial | cancel | trigger | stream down > 30s | ` +
	`exchange down > 60s; then optionally: once, rearm 0.5%, cooldown 2m`

// maxRuleLen bounds what Parse reads.
const maxRuleLen = 200

// Parse reads one rule as a trader types it (see Grammar); the rule's ID is its StableID. Every
// refusal says what to write instead.
func Parse(s string) (Rule, error) {
	if len(s) > maxRuleLen {
		return Rule{}, fmt.Errorf("alert: %d characters is too long; a rule is one short line such as `btc > 100000`", len(s))
	}
	toks := tokens(s)
	if len(toks) == 0 {
		return Rule{}, errors.New("alert: empty rule; write one such as `btc > 100000` or `eth liq < 5%`")
	}
	p := &parser{toks: toks}
	r, err := p.rule()
	if err == nil {
		err = p.options(&r)
	}
	if err != nil {
		return Rule{}, fmt.Errorf("alert %s: %w", text.Quote(s), err)
	}
	r.ID = StableID(r)
	return r, nil
}

// tokens splits s at spaces and around the comparison signs; ">=" reads as ">", "above" too.
func tokens(s string) []string {
	s = strings.NewReplacer(">=", " > ", "<=", " < ", ">", " > ", "<", " < ").Replace(strings.ToLower(s))
	out := strings.Fields(s)
	for i, t := range out {
		switch t {
		case "above":
			out[i] = ">"
		case "below":
			out[i] = "<"
		}
	}
	return out
}

type parser struct {
	toks []string
	i    int
}

func (p *parser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *parser) next() string {
	t := p.peek()
	p.i++
	return t
}

func (p *parser) rule() (Rule, error) {
	switch w := p.next(); w {
	case "margin":
		return p.percent(Rule{Kind: KindMargin}, Above)
	case "stream", "exchange":
		return p.down(w)
	case "funding":
		if p.peek() == "payment" {
			p.next()
			return p.payment(Rule{Kind: KindPayment})
		}
		return Rule{}, errors.New("funding alerts name an instrument (`btc funding > 0.01%`), or are `funding payment > 5`")
	default:
		if ev, ok := orderEvent(w); ok {
			return Rule{Kind: KindOrder, Field: ev}, nil
		}
		if !instrumentWord(w) {
			return Rule{}, fmt.Errorf("%s is not an instrument; start with one (btc, ETH-PERP), margin, stream or exchange", text.Quote(w))
		}
		return p.onInstrument(strings.ToUpper(w))
	}
}

// onInstrument reads what follows an instrument.
func (p *parser) onInstrument(inst string) (Rule, error) {
	w := p.peek()
	if ev, ok := orderEvent(w); ok {
		p.next()
		return Rule{Kind: KindOrder, Instrument: inst, Field: ev}, nil
	}
	switch w {
	case "mark", "last", "mid":
		p.next()
		return p.price(Rule{Kind: KindPrice, Instrument: inst, Field: w})
	case ">", "<":
		return p.price(Rule{Kind: KindPrice, Instrument: inst, Field: "mark"})
	case "liq", "liquidation":
		p.next()
		return p.percent(Rule{Kind: KindLiq, Instrument: inst}, Below)
	case "move":
		p.next()
		return p.move(Rule{Kind: KindMove, Instrument: inst})
	case "funding":
		p.next()
		if p.peek() == "payment" {
			p.next()
			return p.payment(Rule{Kind: KindPayment, Instrument: inst})
		}
		return p.funding(Rule{Kind: KindFunding, Instrument: inst})
	}
	return Rule{}, fmt.Errorf("after %s write > or < and a price, or mark, last, mid, move, liq, funding, fills, cancel or trigger", inst)
}

func (p *parser) op() (Op, error) {
	switch w := p.next(); w {
	case ">":
		return Above, nil
	case "<":
		return Below, nil
	case "":
		return "", errors.New("it ends early: write > or < and a value")
	default:
		return "", fmt.Errorf("%s: write > or < (or above, below)", text.Quote(w))
	}
}

func (p *parser) price(r Rule) (Rule, error) {
	op, err := p.op()
	if err != nil {
		return r, err
	}
	v, pct, err := number(p.next())
	if err == nil && (pct || !v.IsPositive()) {
		err = errors.New("a price level is a number above zero such as 100000 or 97,240.5")
	}
	r.Op, r.Level = op, v
	return r, err
}

// percent reads "OP N%" where only want is allowed (liq <, margin >).
func (p *parser) percent(r Rule, want Op) (Rule, error) {
	op, err := p.op()
	if err != nil {
		return r, err
	}
	if op != want {
		return r, fmt.Errorf("%s alerts take %s: `%s`", r.Kind, want, example(r.Kind))
	}
	v, _, err := number(p.next())
	if err == nil && (!v.IsPositive() || v.GreaterThan(hundred.Mul(hundred))) {
		err = fmt.Errorf("the percentage is above zero, such as `%s`", example(r.Kind))
	}
	r.Op, r.Level = op, v
	return r, err
}

func (p *parser) move(r Rule) (Rule, error) {
	r, err := p.percent(r, Above)
	if err != nil {
		return r, err
	}
	if p.next() != "in" {
		return r, errors.New("say the window: `btc move > 2% in 5m`")
	}
	r.Window, err = duration(p.next())
	if err == nil && (r.Window < time.Second || r.Window > 24*time.Hour) {
		err = errors.New("the window is between 1s and 24h, such as 5m")
	}
	return r, err
}

func (p *parser) funding(r Rule) (Rule, error) {
	op, err := p.op()
	if err != nil {
		return r, err
	}
	v, pct, err := number(p.next())
	if pct {
		v = v.Div(hundred)
	}
	r.Op, r.Level = op, v
	return r, err
}

// payment reads "> AMOUNT" of a funding payment rule (USD, either way).
func (p *parser) payment(r Rule) (Rule, error) {
	if op, err := p.op(); err != nil || op != Above {
		return r, errors.New("write `funding payment > 5` (USD, paid or received)")
	}
	v, pct, err := number(p.next())
	if err == nil && (pct || !v.IsPositive()) {
		err = errors.New("the amount is USD above zero, such as `funding payment > 5`")
	}
	r.Op, r.Level = Above, v
	return r, err
}

func (p *parser) down(what string) (Rule, error) {
	if p.next() != "down" {
		return Rule{}, fmt.Errorf("write `%s down > 30s`", what)
	}
	r := Rule{Kind: KindDown, Field: what}
	if op, err := p.op(); err != nil || op != Above {
		return r, fmt.Errorf("write `%s down > 30s`", what)
	}
	d, err := duration(p.next())
	if err == nil && (d < time.Second || d > 24*time.Hour) {
		err = errors.New("the time is between 1s and 24h, such as 30s")
	}
	r.Op, r.Level = Above, decimal.NewFromInt(int64(d/time.Second))
	return r, err
}

// options reads the words after a rule: once, rearm N%, cooldown D.
func (p *parser) options(r *Rule) error {
	for p.peek() != "" {
		switch w := p.next(); w {
		case "once":
			r.Once = true
		case "repeat":
			r.Once = false
		case "rearm":
			v, _, err := number(p.next())
			if err != nil || !v.IsPositive() || v.GreaterThan(hundred) {
				return errors.New("rearm takes the margin in percent of the level, such as `rearm 0.5%`")
			}
			r.Rearm = v.Div(hundred)
		case "cooldown":
			d, err := duration(p.next())
			if err != nil || d > 24*time.Hour {
				return errors.New("cooldown takes a time up to 24h, such as `cooldown 2m` (0s: none)")
			}
			r.Cooldown = d
			if d == 0 {
				r.Cooldown = -1
			}
		default:
			return fmt.Errorf("%s is not understood here; a rule may end with once, rearm 0.5%% or cooldown 2m", text.Quote(w))
		}
	}
	return nil
}

func orderEvent(w string) (string, bool) {
	switch w {
	case "fill", "fills", "filled":
		return EventFill, true
	case "partial", "partly", "partially":
		return EventPartial, true
	case "cancel", "cancels", "cancelled", "canceled":
		return EventCancel, true
	case "trigger", "triggers", "triggered":
		return EventTrigger, true
	}
	return "", false
}

// instrumentWord reports whether w can be an instrument: letters, digits and - / _ . : only.
func instrumentWord(w string) bool {
	if w == "" || len(w) > 32 {
		return false
	}
	for _, c := range w {
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-/_.:", c)
		if !ok {
			return false
		}
	}
	return true
}

// number reads 97,240.5 or 5% (pct true); commas group digits.
func number(w string) (decimal.Decimal, bool, error) {
	pct := strings.HasSuffix(w, "%")
	w = strings.TrimSuffix(w, "%")
	if w == "" || len(w) > 40 || strings.ContainsAny(w, "eE") {
		return decimal.Zero, pct, errors.New("it ends where a number is wanted: write one such as 100000 or 5%")
	}
	d, err := decimal.NewFromString(strings.ReplaceAll(w, ",", ""))
	if err != nil {
		return d, pct, fmt.Errorf("%s is not a number; write one such as 100000 or 5%%", text.Quote(w))
	}
	return d, pct, nil
}

// duration reads 30s, 5m, 2h (or 1m30s).
func duration(w string) (time.Duration, error) {
	d, err := time.ParseDuration(w)
	if err != nil || d < 0 || d%time.Second != 0 {
		return 0, fmt.Errorf("%s is not a time; write whole seconds, minutes or hours such as 30s, 5m or 2h", text.Quote(w))
	}
	return d, nil
}

func example(k Kind) string {
	switch k {
	case KindLiq:
		return "eth liq < 5%"
	case KindMargin:
		return "margin > 80%"
	}
	return "btc move > 2% in 5m"
}
