package state

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
)

// The command grammar's parser: ParseCommand reads a line's words, one part of the grammar a method.

// parser walks a command's words.
type parser struct {
	words []string
	i     int // index of the next word (0-based)
	cmd   Command
}

func (p *parser) more() bool { return p.i < len(p.words) }

func (p *parser) peek() string { return strings.ToLower(p.words[p.i]) }

// errAt is a problem with word i (0-based).
func (p *parser) errAt(i int, format string, args ...any) error {
	return &CommandError{Word: i + 1, Token: p.words[i], Msg: fmt.Sprintf(format, args...)}
}

// errEnd is a problem with what is missing at the end of the line.
func (p *parser) errEnd(format string, args ...any) error {
	return &CommandError{Msg: fmt.Sprintf(format, args...)}
}

// ParseCommand reads a command line (see the grammar at the top of this file). It never looks at
// the store: an instrument is only a word here.
func ParseCommand(line string) (Command, error) {
	if len(line) > MaxCommandLen {
		return Command{}, &CommandError{Msg: fmt.Sprintf("the command is too long (at most %d characters)", MaxCommandLen)}
	}
	if !text.Safe(line) {
		return Command{}, &CommandError{Msg: "the command holds control characters; type it again"}
	}
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return Command{}, &CommandError{Msg: "type a command: buy, sell, close, cancel or lev (see ? for the grammar)"}
	case len(words) > maxCommandWords:
		return Command{}, &CommandError{Msg: fmt.Sprintf("too many words (at most %d)", maxCommandWords)}
	}
	p := &parser{words: words, cmd: Command{Words: words}}
	verb, ok := verbWords[p.peek()]
	if !ok {
		return Command{}, p.errAt(0, "not a command; commands are buy, sell, close, cancel, lev and tpsl")
	}
	p.cmd.Verb = verb
	p.i++
	var err error
	switch verb {
	case VerbBuy, VerbSell:
		err = p.order()
	case VerbClose:
		err = p.closeCmd()
	case VerbCancel:
		err = p.cancel()
	case VerbLeverage:
		err = p.leverage()
	case VerbTpsl:
		err = p.tpsl()
	case VerbReverse, VerbBreakeven:
		if p.more() {
			err = p.instrument()
		}
	case VerbFlatten:
		if p.more() && p.peek() == "cancel" { // every open order cancelled first
			p.cmd.All = true
			p.i++
		}
	}
	if err != nil {
		return Command{}, err
	}
	if p.more() {
		return Command{}, p.errAt(p.i, "unexpected word: %s", p.usage())
	}
	return p.cmd, nil
}

// usage is the verb's grammar, for messages.
func (p *parser) usage() string {
	switch p.cmd.Verb {
	case VerbBuy, VerbSell:
		return "the order reads " + p.cmd.Verb.String() + " SIZE [INSTRUMENT] PRICE|mkt [tp LEG] [sl LEG] [post] [reduce] [gtc|ioc|fok]"
	case VerbClose:
		return "close reads close [INSTRUMENT] [25%|SIZE] [@PRICE|mid|best]"
	case VerbReverse:
		return "reverse reads reverse [INSTRUMENT]"
	case VerbFlatten:
		return "flatten reads flatten [cancel]: it closes every position (cancel: every open order cancelled first)"
	case VerbBreakeven:
		return "be reads be [INSTRUMENT]"
	case VerbCancel:
		return "cancel reads cancel ORDER-ID, cancel INSTRUMENT or cancel all [INSTRUMENT]"
	case VerbTpsl:
		return "tpsl reads tpsl [INSTRUMENT] [tp LEG] [sl LEG]"
	}
	return "lev reads lev [INSTRUMENT] N"
}

// order reads SIZE [INSTRUMENT] PRICE|mkt and the options after it.
func (p *parser) order() error {
	if !p.more() {
		return p.errEnd("%s what? %s", p.cmd.Verb, p.usage())
	}
	if err := p.size(); err != nil {
		return err
	}
	if p.more() && !isNumberWord(p.peek()) && !marketWords[p.peek()] {
		if err := p.instrument(); err != nil {
			return err
		}
	}
	if !p.more() {
		return p.errEnd("give a price, or mkt for a market order: %s", p.usage())
	}
	if err := p.price(); err != nil {
		return err
	}
	for p.more() {
		if err := p.option(); err != nil {
			return err
		}
	}
	return nil
}

// size reads base units or a USD notional (500usd, $500, 500$).
func (p *parser) size() error {
	w := p.peek()
	usd := false
	for _, suffix := range []string{"usd", "usdc", "$"} {
		if strings.HasSuffix(w, suffix) && len(w) > len(suffix) {
			w, usd = strings.TrimSuffix(w, suffix), true
			break
		}
	}
	if strings.HasPrefix(w, "$") && !usd {
		w, usd = w[1:], true
	}
	share := false
	if !usd && strings.HasSuffix(w, "%") {
		w, share = strings.TrimSuffix(w, "%"), true
	}
	v, err := commandNumber(w)
	if err != nil {
		return p.errAt(p.i, "the size %s; write base units (0.1), USD (500usd) or a share of the most you can afford (25%%)", err)
	}
	if share && v.GreaterThan(hundred) {
		return p.errAt(p.i, "a share is at most 100%%: the most you can afford")
	}
	switch {
	case share:
		p.cmd.SharePercent = v
	case usd:
		p.cmd.NotionalUSD = v
	default:
		p.cmd.Size = v
	}
	p.cmd.SizeWord = p.i + 1
	p.i++
	return nil
}

// instrument takes the next word as the instrument's name.
func (p *parser) instrument() error {
	w := p.words[p.i]
	if reservedWord(strings.ToLower(w)) {
		return p.errAt(p.i, "expected an instrument (btc, ETH-PERP, eth/usdc) here, not a keyword")
	}
	if len(w) > 32 {
		return p.errAt(p.i, "an instrument name is at most 32 characters")
	}
	p.cmd.Instrument, p.cmd.InstrumentWord = w, p.i+1
	p.i++
	return nil
}

// price reads a limit price (optionally @PRICE) or a market word.
func (p *parser) price() error {
	w := p.peek()
	if marketWords[w] {
		p.cmd.Market, p.cmd.PriceWord = true, p.i+1
		p.i++
		return nil
	}
	v, err := commandNumber(strings.TrimPrefix(w, "@"))
	if err != nil {
		return p.errAt(p.i, "the price %s; give a price or mkt", err)
	}
	p.cmd.Price, p.cmd.PriceWord = v, p.i+1
	p.i++
	return nil
}

// option reads one of tp LEG, sl LEG, post, reduce, gtc, ioc, fok.
func (p *parser) option() error {
	w, at := p.peek(), p.i
	p.i++
	switch w {
	case "tp", "sl":
		if !p.more() {
			return p.errAt(at, "%s needs a trigger price after it (%s 200)", w, w)
		}
		v, unit, err := legNumber(p.peek())
		if err != nil {
			return p.errAt(p.i, "the %s %s; give a price (200), a distance in percent (2%%) or in ticks (40t)", w, err)
		}
		if w == "tp" {
			if p.cmd.TPWord != 0 {
				return p.errAt(at, "tp is given twice")
			}
			p.cmd.TakeProfit, p.cmd.TPUnit, p.cmd.TPWord = v, unit, p.i+1
		} else {
			if p.cmd.SLWord != 0 {
				return p.errAt(at, "sl is given twice")
			}
			p.cmd.StopLoss, p.cmd.SLUnit, p.cmd.SLWord = v, unit, p.i+1
		}
		p.i++
	case "post", "po", "alo":
		if p.cmd.Market { // named here, with its word, as every other refusal of the line is
			return p.errAt(at, "a market order cannot be post-only: give a limit price, or drop %s", w)
		}
		p.cmd.PostOnly = true
	case "reduce", "ro":
		p.cmd.ReduceOnly = true
	case "gtc", "ioc", "fok":
		if p.cmd.TifWord != 0 {
			return p.errAt(at, "a time in force is given twice")
		}
		p.cmd.Tif, p.cmd.TifWord = strings.ToUpper(w), at+1
	default:
		return p.errAt(at, "unexpected word: after the price come tp LEG, sl LEG, post, reduce, gtc, ioc or fok")
	}
	return nil
}

// closeCmd reads close [INSTRUMENT] [SHARE|SIZE] [[@]PRICE|@ PRICE|mid|best|mkt].
func (p *parser) closeCmd() error {
	if p.more() && !isNumberWord(strings.TrimSuffix(p.peek(), "%")) && !closePriceWord(p.peek()) {
		if err := p.instrument(); err != nil {
			return err
		}
	}
	if p.more() && !strings.HasPrefix(p.peek(), "@") && isNumberWord(strings.TrimSuffix(p.peek(), "%")) {
		if err := p.closeShare(); err != nil {
			return err
		}
	}
	if !p.more() {
		return nil
	}
	w, at := p.peek(), p.i
	p.i++
	switch {
	case marketWords[w]:
	case w == "mid":
		p.cmd.ClosePricing, p.cmd.PriceWord = CloseAtMid, at+1
	case w == "best":
		p.cmd.ClosePricing, p.cmd.PriceWord = CloseAtBest, at+1
	case !strings.HasPrefix(w, "@") && !isNumberWord(w):
		return p.errAt(at, "unexpected word: %s", p.usage())
	default:
		if w == "@" && p.more() {
			w, at = p.peek(), p.i
			p.i++
		}
		v, err := commandNumber(strings.TrimPrefix(w, "@"))
		if err != nil {
			return p.errAt(at, "the close's price %s; give @PRICE, mid, best or nothing (market)", err)
		}
		p.cmd.ClosePricing, p.cmd.Price, p.cmd.PriceWord = CloseAtPrice, v, at+1
	}
	return nil
}

// closePriceWord reports whether w prices a close (mid, best, @PRICE, a market word).
func closePriceWord(w string) bool {
	return w == "mid" || w == "best" || strings.HasPrefix(w, "@") || marketWords[w]
}

// closeShare reads a close's share (25%) or size (0.05).
func (p *parser) closeShare() error {
	w := p.peek()
	pct, ok := strings.CutSuffix(w, "%")
	v, err := commandNumber(pct)
	switch {
	case err != nil:
		return p.errAt(p.i, "the share %s; give 1%% to 100%% or a size", err)
	case ok && v.GreaterThan(hundred):
		return p.errAt(p.i, "a share is at most 100%%: the whole position")
	case ok:
		p.cmd.SharePercent = v
	default:
		p.cmd.Size = v
	}
	p.cmd.SizeWord = p.i + 1
	p.i++
	return nil
}

// cancel reads cancel ORDER-ID | INSTRUMENT | all [INSTRUMENT].
func (p *parser) cancel() error {
	if !p.more() {
		return p.errEnd("cancel what? %s", p.usage())
	}
	w := p.peek()
	switch {
	case w == "all":
		p.cmd.All = true
		p.i++
		if p.more() {
			return p.instrument()
		}
	case isNumberWord(w):
		id, err := strconv.ParseInt(w, 10, 64)
		if err != nil || id <= 0 {
			return p.errAt(p.i, "an order id is a whole number from 1 (the orders pane's Id column)")
		}
		p.cmd.OrderID, p.cmd.IDWord = id, p.i+1
		p.i++
	default:
		return p.instrument()
	}
	return nil
}

// tpsl reads tpsl [INSTRUMENT] [tp LEG] [sl LEG], at least one leg.
func (p *parser) tpsl() error {
	if p.more() && p.peek() != "tp" && p.peek() != "sl" {
		if err := p.instrument(); err != nil {
			return err
		}
	}
	for p.more() {
		if w := p.peek(); w != "tp" && w != "sl" {
			return p.errAt(p.i, "unexpected word: %s", p.usage())
		}
		if err := p.option(); err != nil {
			return err
		}
	}
	if p.cmd.TPWord == 0 && p.cmd.SLWord == 0 {
		return p.errEnd("tpsl needs a take-profit, a stop-loss or both: %s", p.usage())
	}
	return nil
}

// leverage reads lev [INSTRUMENT] N[x].
func (p *parser) leverage() error {
	if !p.more() {
		return p.errEnd("lev needs a leverage: %s", p.usage())
	}
	if !isNumberWord(strings.TrimSuffix(p.peek(), "x")) {
		if err := p.instrument(); err != nil {
			return err
		}
		if !p.more() {
			return p.errEnd("lev needs a leverage after the instrument (lev %s 5)", p.cmd.Instrument)
		}
	}
	w := strings.TrimSuffix(p.peek(), "x")
	n, err := strconv.ParseInt(w, 10, 32)
	if err != nil || n < 1 {
		return p.errAt(p.i, "leverage is a whole number from 1, such as 5 or 5x")
	}
	p.cmd.Leverage, p.cmd.LeverageWord = n, p.i+1
	p.i++
	return nil
}

// reservedWord reports whether w is a keyword of the grammar, never an instrument.
func reservedWord(w string) bool {
	if _, ok := verbWords[w]; ok && len(w) > 1 {
		return true
	}
	if marketWords[w] || w == "all" || w == "mid" || w == "best" {
		return true
	}
	for _, k := range CommandKeywords {
		if w == k {
			return true
		}
	}
	return false
}

// isNumberWord reports whether w is written as a number (a size, a price, an id, a leverage),
// never an instrument name.
func isNumberWord(w string) bool {
	w = strings.TrimPrefix(w, "@")
	return w != "" && numberRe.MatchString(w)
}

// legNumber reads a take-profit or stop-loss: a price (200, @200), a percentage (2%) or ticks (40t).
func legNumber(w string) (decimal.Decimal, string, error) {
	unit := ""
	switch {
	case strings.HasSuffix(w, LegPercent):
		w, unit = strings.TrimSuffix(w, LegPercent), LegPercent
	case strings.HasSuffix(w, LegTicks):
		w, unit = strings.TrimSuffix(w, LegTicks), LegTicks
	default:
		w = strings.TrimPrefix(w, "@")
	}
	v, err := commandNumber(w)
	return v, unit, err
}

// commandNumber reads a positive decimal; its error says what is wrong ("is not a number").
func commandNumber(w string) (decimal.Decimal, error) {
	switch {
	case w == "":
		return decimal.Zero, fmt.Errorf("is missing")
	case len(w) > maxNumberLen:
		return decimal.Zero, fmt.Errorf("is too long (at most %d characters)", maxNumberLen)
	case !numberRe.MatchString(w):
		return decimal.Zero, fmt.Errorf("is not a number")
	}
	v, err := decimal.NewFromString(w)
	if err != nil {
		return decimal.Zero, fmt.Errorf("is not a number")
	}
	if !v.IsPositive() {
		return decimal.Zero, fmt.Errorf("must be more than zero")
	}
	return v, nil
}
