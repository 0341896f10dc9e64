package state

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
)

// The command grammar, shared by the console's `:` command line and any front end that reads a
// trader's typed line. ParseCommand reads the words alone (no store): a typed Command with
// decimals. Store.PlanCommand then resolves it against the instruments, positions and open orders
// and checks it by the one validation path (CheckOrder, CheckLeverage).
//
//	buy|b|long   SIZE [INSTRUMENT] PRICE|mkt [tp LEG] [sl LEG] [post] [reduce] [gtc|ioc|fok]
//	             (SIZE 25%: a share of the most the account can afford on the order)
//	sell|s|short SIZE [INSTRUMENT] PRICE|mkt ...
//	close|c      [INSTRUMENT] [SHARE|SIZE] [[@]PRICE|mid|best]
//	                                             the position (all of it, or 25%, or a size
//	                                             rounded down to the lot), reduce-only at market
//	                                             or as a limit at a price, the mid or the best price
//	reverse|rev  [INSTRUMENT]                    the same size on the other side, one order
//	flatten                                      every position closed at market, one placeOrder
//	be|breakeven [INSTRUMENT]                    the stop-loss to the entry plus fees
//	cancel|x     ORDER-ID | INSTRUMENT | all [INSTRUMENT]
//	lev|leverage [INSTRUMENT] N[x]
//	tpsl         [INSTRUMENT] [tp LEG] [sl LEG]  on the whole position (grouping position)
//
// SIZE is base units (0.1) or a notional in USD (500usd, $500). PRICE may be written @97000. A LEG
// (take-profit, stop-loss) is a price (200), or a distance from the entry in percent (2%) or ticks (40t).
// INSTRUMENT is a full name (BTC-PERP, ETH/USDC) or a coin (btc: its perpetual; a coin with
// no perpetual: its spot pair against USDC); left out, it is the console's current instrument.
// `cancel INSTRUMENT` cancels the one order open there (several: say which, or `all`).

// Verb is what a command does.
type Verb int

// Verbs.
const (
	VerbBuy Verb = iota
	VerbSell
	VerbClose
	VerbCancel
	VerbLeverage
	VerbTpsl
	VerbReverse
	VerbFlatten
	VerbBreakeven
)

// String is the verb's canonical word.
func (v Verb) String() string {
	switch v {
	case VerbBuy:
		return "buy"
	case VerbSell:
		return "sell"
	case VerbClose:
		return "close"
	case VerbCancel:
		return "cancel"
	case VerbLeverage:
		return "lev"
	case VerbTpsl:
		return "tpsl"
	case VerbReverse:
		return "reverse"
	case VerbFlatten:
		return "flatten"
	case VerbBreakeven:
		return "be"
	}
	return fmt.Sprintf("verb(%d)", int(v))
}

// verbWords are every word a command may start with, and the verb each means.
var verbWords = map[string]Verb{
	"buy": VerbBuy, "b": VerbBuy, "long": VerbBuy,
	"sell": VerbSell, "s": VerbSell, "short": VerbSell,
	"close": VerbClose, "c": VerbClose,
	"cancel": VerbCancel, "x": VerbCancel,
	"lev": VerbLeverage, "leverage": VerbLeverage,
	"tpsl":    VerbTpsl,
	"reverse": VerbReverse, "rev": VerbReverse,
	"flatten": VerbFlatten,
	"be":      VerbBreakeven, "breakeven": VerbBreakeven,
}

// CommandVerbs are the command words, for completion and help (canonical words first).
var CommandVerbs = []string{"buy", "sell", "close", "cancel", "lev", "tpsl", "reverse", "flatten", "be", "long", "short", "leverage", "breakeven"}

// CommandKeywords are the words that may follow an order's price, for completion and help.
var CommandKeywords = []string{"tp", "sl", "post", "reduce", "gtc", "ioc", "fok"}

// marketWords mean "at market" in an order's price slot.
var marketWords = map[string]bool{"mkt": true, "market": true, "m": true}

// Limits on a command line: far beyond any real command, so absurd input is refused at once.
const (
	MaxCommandLen   = 200
	maxCommandWords = 16
)

// Command is one parsed command line. Word positions (1-based, 0: not given) say where each part
// was typed, so a problem found later (an unknown instrument, a price off the tick) names its word.
type Command struct {
	Verb  Verb
	Words []string // the words as typed

	Instrument     string // as typed; "" means the current instrument
	InstrumentWord int

	// Orders (buy, sell).
	Size        decimal.Decimal // base units; zero when NotionalUSD is given
	NotionalUSD decimal.Decimal
	SizeWord    int
	Market      bool
	Price       decimal.Decimal // limit price (zero for market)
	PriceWord   int
	// TakeProfit and StopLoss are a price, or with their unit (LegPercent, LegTicks) a distance
	// from the entry price; zero: none.
	TakeProfit decimal.Decimal
	TPUnit     string
	TPWord     int
	StopLoss   decimal.Decimal
	SLUnit     string
	SLWord     int
	Tif        string // "" (GTC), or GTC, IOC, FOK as typed
	TifWord    int
	PostOnly   bool
	ReduceOnly bool

	// Cancels: all orders (of the instrument when one is given), or one order by id.
	All     bool
	OrderID int64
	IDWord  int

	// Leverage.
	Leverage     int64
	LeverageWord int

	// Close: a share of the position (SharePercent, 1 to 100) or a size (Size), in SizeWord;
	// priced at market, or a limit at Price (ClosePricing CloseAtPrice), the mid or the best
	// price, in PriceWord.
	SharePercent decimal.Decimal
	ClosePricing ClosePricing
}

// IsOrder reports whether the command places an order (buy or sell).
func (c Command) IsOrder() bool { return c.Verb == VerbBuy || c.Verb == VerbSell }

// Side is the order side of a buy or sell ("b" or "s").
func (c Command) Side() string {
	if c.Verb == VerbSell {
		return "s"
	}
	return "b"
}

// CommandError is a command refused: which word (1-based; 0 for the command as a whole), the word
// as typed, and what is wrong with it and how to fix it.
type CommandError struct {
	Word  int
	Token string
	Msg   string
}

// Error reads `word 3 "btcx": unknown instrument ...`.
func (e *CommandError) Error() string {
	if e.Word == 0 {
		return e.Msg
	}
	return fmt.Sprintf("word %d %s: %s", e.Word, text.Quote(e.Token), e.Msg)
}

// TPText is the take-profit as the bracket takes it ("200", "2%", "40t"; "" for none).
func (c Command) TPText() string { return legText(c.TPWord, c.TakeProfit, c.TPUnit) }

// SLText is the stop-loss as the bracket takes it ("180", "1%", "25t"; "" for none).
func (c Command) SLText() string { return legText(c.SLWord, c.StopLoss, c.SLUnit) }

func legText(word int, v decimal.Decimal, unit string) string {
	if word == 0 {
		return ""
	}
	return v.String() + unit
}

// String writes the command in its canonical words (buy 0.1 btc 97000 tp 99000): the line that
// parses back to the same command.
func (c Command) String() string {
	w := []string{c.Verb.String()}
	switch c.Verb {
	case VerbBuy, VerbSell:
		w = c.appendOrder(w)
	case VerbCancel:
		switch {
		case c.All:
			w = append(w, "all")
		case c.OrderID != 0:
			w = append(w, strconv.FormatInt(c.OrderID, 10))
		}
		w = c.appendInstrument(w)
	case VerbClose:
		w = c.appendClose(c.appendInstrument(w))
	case VerbReverse, VerbBreakeven:
		w = c.appendInstrument(w)
	case VerbFlatten:
		if c.All {
			w = append(w, "cancel")
		}
	case VerbLeverage:
		w = append(c.appendInstrument(w), strconv.FormatInt(c.Leverage, 10))
	case VerbTpsl:
		w = c.appendLegs(c.appendInstrument(w))
	}
	return strings.Join(w, " ")
}

// appendOrder appends an order's words after its verb: size, instrument, price, legs, flags.
func (c Command) appendOrder(w []string) []string {
	switch {
	case c.SharePercent.IsPositive():
		w = append(w, c.SharePercent.String()+"%")
	case c.NotionalUSD.IsPositive():
		w = append(w, c.NotionalUSD.String()+"usd")
	default:
		w = append(w, c.Size.String())
	}
	w = c.appendInstrument(w)
	if c.Market {
		w = append(w, "mkt")
	} else {
		w = append(w, c.Price.String())
	}
	w = c.appendLegs(w)
	if c.PostOnly {
		w = append(w, "post")
	}
	if c.ReduceOnly {
		w = append(w, "reduce")
	}
	if c.Tif != "" {
		w = append(w, strings.ToLower(c.Tif))
	}
	return w
}

// appendClose appends a close's share or size and its price.
func (c Command) appendClose(w []string) []string {
	switch {
	case c.SharePercent.IsPositive():
		w = append(w, c.SharePercent.String()+"%")
	case c.Size.IsPositive():
		w = append(w, c.Size.String())
	}
	switch c.ClosePricing {
	case CloseAtPrice:
		w = append(w, "@"+c.Price.String())
	case CloseAtMid:
		w = append(w, "mid")
	case CloseAtBest:
		w = append(w, "best")
	}
	return w
}

// appendInstrument appends the instrument when the command names one.
func (c Command) appendInstrument(w []string) []string {
	if c.Instrument != "" {
		w = append(w, c.Instrument)
	}
	return w
}

// appendLegs appends the take-profit and stop-loss the command gives.
func (c Command) appendLegs(w []string) []string {
	if c.TPWord != 0 {
		w = append(w, "tp", c.TPText())
	}
	if c.SLWord != 0 {
		w = append(w, "sl", c.SLText())
	}
	return w
}

// CommandVerb is the verb a command's first word means, if it is one.
func CommandVerb(word string) (Verb, bool) {
	v, ok := verbWords[strings.ToLower(word)]
	return v, ok
}

// IsCommandNumber reports whether a word is written as a number (a size, a price, an order id or
// a leverage) rather than an instrument; MarketWord whether it means "at market".
func IsCommandNumber(word string) bool { return isNumberWord(strings.ToLower(word)) }

// MarketWord reports whether word means "at market" in an order's price slot (mkt, market, m).
func MarketWord(word string) bool { return marketWords[strings.ToLower(word)] }

// ShortInstrumentName is how a trader types an instrument on the command line: a perpetual by its
// coin in lower case (BTC-PERP: btc), any other instrument by its full name in lower case.
func ShortInstrumentName(name string) string {
	return strings.ToLower(strings.TrimSuffix(name, "-PERP"))
}

// Units of a take-profit or stop-loss given as a distance from the entry price.
const (
	LegPercent = "%"
	LegTicks   = "t"
)
