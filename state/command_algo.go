package state

import (
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// The algorithm commands of the command line (issue #36), read apart from the order grammar so
// the two grow separately:
//
//	chase buy|sell SIZE INSTRUMENT [to 0.1%|PX] [offset 2t] [for 5m] [keep]
//	twap  buy|sell SIZE INSTRUMENT DURATION [slices 12 | every 2m] [band LO-HI] [rand]
//	scale buy|sell SIZE INSTRUMENT FROM-TO xCOUNT [flat|inc|dec|geo]
//	trail INSTRUMENT DISTANCE (1.5%, 40t or a price)
//	algos resume|cancel|flatten|pause ID

// AlgoVerbs are the algorithm commands' words, for completion and help.
var AlgoVerbs = []string{"chase", "twap", "scale", "trail", "algos"}

// AlgoCommand is one parsed algorithm command; which fields are set depends on Kind (chase,
// twap, scale, trail, or algos for a restart choice).
type AlgoCommand struct {
	Kind       string
	Side       string // "buy" or "sell"
	Size       decimal.Decimal
	Instrument string // as typed (a coin or a full name)

	// chase
	MaxDistance string // "0.1%" or a price; "" for none
	Offset      int    // ticks off the quote
	For         time.Duration
	Keep        bool
	// twap
	Duration time.Duration
	Slices   int
	Every    time.Duration // a slice this often, instead of Slices
	BandLo   decimal.Decimal
	BandHi   decimal.Decimal
	Random   bool
	// scale
	From, To     decimal.Decimal
	Count        int
	Distribution string
	// trail
	Distance string
	// algos: Choice (resume, cancel, flatten or pause) of algorithm ID
	Choice string
	ID     string
}

// ParseAlgoCommand reads an algorithm command line; ok is false when the line is not one (its
// first word is no algorithm verb), and err says which word is wrong and how to fix it.
func ParseAlgoCommand(line string) (cmd AlgoCommand, ok bool, err error) {
	words := strings.Fields(line)
	if len(words) == 0 || len(line) > MaxCommandLen || len(words) > maxCommandWords {
		return cmd, false, nil
	}
	p := &algoParser{words: words, i: 1}
	cmd.Kind = strings.ToLower(words[0])
	switch cmd.Kind {
	case "chase", "twap", "scale":
		err = p.sized(&cmd)
	case "trail":
		err = p.trail(&cmd)
	case "algos":
		err = p.choice(&cmd)
	default:
		return cmd, false, nil
	}
	if err == nil && p.i < len(words) {
		err = p.errAt(p.i, "not understood here: "+algoUsage[cmd.Kind])
	}
	return cmd, true, err
}

// algoUsage is each command's grammar, quoted in its errors.
var algoUsage = map[string]string{
	"chase": "chase buy|sell SIZE INSTRUMENT [to 0.1%|PX] [offset 2t] [for 5m] [keep]",
	"twap":  "twap buy|sell SIZE INSTRUMENT DURATION [slices 12 | every 2m] [band LO-HI] [rand]",
	"scale": "scale buy|sell SIZE INSTRUMENT FROM-TO xCOUNT [flat|inc|dec|geo]",
	"trail": "trail INSTRUMENT DISTANCE (1.5%, 40t or a price)",
	"algos": "algos resume|cancel|flatten|pause ID",
}

// AlgoUsage is the grammar of algorithm command kind ("" when kind is none).
func AlgoUsage(kind string) string { return algoUsage[strings.ToLower(kind)] }

type algoParser struct {
	words []string
	i     int
}

func (p *algoParser) errAt(i int, msg string) error {
	if i >= len(p.words) {
		return &CommandError{Msg: msg}
	}
	return &CommandError{Word: i + 1, Token: p.words[i], Msg: msg}
}

// next is the next word, lower case, or an error naming what is missing.
func (p *algoParser) next(what, kind string) (string, error) {
	if p.i >= len(p.words) {
		return "", &CommandError{Msg: what + " is missing: " + algoUsage[kind]}
	}
	p.i++
	return strings.ToLower(p.words[p.i-1]), nil
}

// sized reads SIDE SIZE INSTRUMENT and the kind's own words.
func (p *algoParser) sized(c *AlgoCommand) error {
	w, err := p.next("the side (buy or sell)", c.Kind)
	if err != nil {
		return err
	}
	switch w {
	case "buy", "b", "long":
		c.Side = "buy"
	case "sell", "s", "short":
		c.Side = "sell"
	default:
		return p.errAt(p.i-1, "give buy or sell")
	}
	if w, err = p.next("the size", c.Kind); err != nil {
		return err
	}
	if c.Size, err = decimal.NewFromString(w); err != nil || !c.Size.IsPositive() {
		return p.errAt(p.i-1, "give a positive size in base units, such as 0.5")
	}
	if c.Instrument, err = p.next("the instrument (btc, ETH-PERP)", c.Kind); err != nil {
		return err
	}
	switch c.Kind {
	case "chase":
		return p.chase(c)
	case "twap":
		return p.twap(c)
	}
	return p.scale(c)
}

func (p *algoParser) chase(c *AlgoCommand) error {
	for p.i < len(p.words) {
		w, _ := p.next("", c.Kind)
		var err error
		switch w {
		case "keep":
			c.Keep = true
		case "to":
			if c.MaxDistance, err = p.next("the max distance after to (0.1% or a price)", c.Kind); err == nil && !validDistance(c.MaxDistance, false) {
				err = p.errAt(p.i-1, "give the max distance as a percent (0.1%) or a price")
			}
		case "offset":
			c.Offset, err = p.ticks(c.Kind)
		case "for":
			c.For, err = p.duration(c.Kind)
		default:
			err = p.errAt(p.i-1, "not understood: "+algoUsage[c.Kind])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *algoParser) twap(c *AlgoCommand) error {
	var err error
	if c.Duration, err = p.duration(c.Kind); err != nil {
		return err
	}
	for p.i < len(p.words) {
		w, _ := p.next("", c.Kind)
		switch w {
		case "rand", "randomize":
			c.Random = true
		case "slices":
			if w, err = p.next("the number of slices", c.Kind); err == nil {
				if c.Slices, err = strconv.Atoi(w); err != nil || c.Slices < 1 {
					err = p.errAt(p.i-1, "give a whole number of slices, such as 12")
				}
			}
		case "every":
			c.Every, err = p.duration(c.Kind)
		case "band":
			if w, err = p.next("the band (LO-HI)", c.Kind); err == nil {
				c.BandLo, c.BandHi, err = p.rangeOf(w)
			}
		default:
			err = p.errAt(p.i-1, "not understood: "+algoUsage[c.Kind])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *algoParser) scale(c *AlgoCommand) error {
	w, err := p.next("the prices (FROM-TO)", c.Kind)
	if err != nil {
		return err
	}
	if c.From, c.To, err = p.rangeOf(w); err != nil {
		return err
	}
	if w, err = p.next("the number of orders (x10)", c.Kind); err != nil {
		return err
	}
	if c.Count, err = strconv.Atoi(strings.TrimPrefix(w, "x")); err != nil || !strings.HasPrefix(w, "x") || c.Count < 1 || c.Count > 100 {
		return p.errAt(p.i-1, "give the number of orders as x2 to x100, such as x10")
	}
	c.Distribution = "flat"
	if p.i < len(p.words) {
		switch w, _ = p.next("", c.Kind); w {
		case "flat", "inc", "dec", "geo":
			c.Distribution = w
		default:
			return p.errAt(p.i-1, "give the sizes' distribution: flat, inc, dec or geo")
		}
	}
	return nil
}

func (p *algoParser) trail(c *AlgoCommand) error {
	var err error
	if c.Instrument, err = p.next("the instrument (btc, ETH-PERP)", c.Kind); err != nil {
		return err
	}
	if c.Distance, err = p.next("the distance (1.5%, 40t or a price)", c.Kind); err != nil {
		return err
	}
	if !validDistance(c.Distance, true) {
		return p.errAt(p.i-1, "give the distance as a percent (1.5%), ticks (40t) or a price")
	}
	return nil
}

func (p *algoParser) choice(c *AlgoCommand) error {
	var err error
	if c.Choice, err = p.next("resume, cancel, flatten or pause", c.Kind); err != nil {
		return err
	}
	switch c.Choice {
	case "resume", "cancel", "flatten", "pause":
	default:
		return p.errAt(p.i-1, "give resume, cancel, flatten or pause")
	}
	if c.ID, err = p.next("the algorithm's id", c.Kind); err != nil {
		return err
	}
	c.ID = p.words[p.i-1] // ids keep their case
	return nil
}

func (p *algoParser) ticks(kind string) (int, error) {
	w, err := p.next("the ticks (2t)", kind)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSuffix(w, "t"))
	if err != nil || n < 0 {
		return 0, p.errAt(p.i-1, "give a number of ticks such as 2t")
	}
	return n, nil
}

func (p *algoParser) duration(kind string) (time.Duration, error) {
	w, err := p.next("the duration (5m)", kind)
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(w)
	if err != nil || d <= 0 {
		return 0, p.errAt(p.i-1, "give a positive duration such as 90s, 5m or 1h")
	}
	return d, nil
}

// rangeOf reads LO-HI (two positive prices; either order).
func (p *algoParser) rangeOf(w string) (lo, hi decimal.Decimal, err error) {
	a, b, ok := strings.Cut(w, "-")
	if ok {
		lo, err = decimal.NewFromString(a)
		if err == nil {
			hi, err = decimal.NewFromString(b)
		}
	}
	if !ok || err != nil || !lo.IsPositive() || !hi.IsPositive() {
		return lo, hi, p.errAt(p.i-1, "give two prices as LO-HI, such as 95000-96000")
	}
	return lo, hi, nil
}

// validDistance accepts a positive percent or price, and ticks (40t) when ticks is true.
func validDistance(s string, ticks bool) bool {
	num := strings.TrimSuffix(s, "%")
	if ticks && num == s {
		num = strings.TrimSuffix(s, "t")
	}
	d, err := decimal.NewFromString(num)
	return err == nil && d.IsPositive()
}
