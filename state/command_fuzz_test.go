package state

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseCommand feeds random lines to the command parser and the plan (seed corpus under
// testdata/fuzz/FuzzParseCommand: the grammar's examples and known refusals). Neither may panic.
// A refusal is a CommandError whose word, when it names one, is that word of the line. An accepted
// command has positive numbers, word positions that point at the words they were read from, and
// its canonical words parse back to the same command. A plan that passes carries an order on the
// instrument's grid or the cancels and leverage it names. Run: go test ./state -fuzz FuzzParseCommand -fuzztime 20s
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"buy 0.1 btc 97000", "sell 2 eth mkt", "lev btc 5", "cancel all eth", "close btc"} {
		f.Add(s)
	}
	now := t0
	s := loadedStore(&now)
	f.Fuzz(func(t *testing.T, line string) {
		cmd, err := ParseCommand(line)
		words := strings.Fields(line)
		if err != nil {
			var ce *CommandError
			if !errors.As(err, &ce) {
				t.Fatalf("%q: error %T is not a CommandError", line, err)
			}
			if ce.Word < 0 || ce.Word > len(words) || ce.Word > 0 && ce.Token != words[ce.Word-1] {
				t.Fatalf("%q: word %d %q is not a word of the line", line, ce.Word, ce.Token)
			}
			return
		}
		checkParsed(t, line, cmd)
		again, err := ParseCommand(cmd.String())
		if err != nil || again.String() != cmd.String() || !again.Size.Equal(cmd.Size) || !again.Price.Equal(cmd.Price) || again.Verb != cmd.Verb {
			t.Fatalf("%q: canonical %q parses to %q (%v)", line, cmd.String(), again.String(), err)
		}
		plan, err := s.PlanCommand(cmd, "ETH-PERP", DefaultGuard())
		if err != nil {
			var ce *CommandError
			if !errors.As(err, &ce) || ce.Word < 0 || ce.Word > len(words) {
				t.Fatalf("%q: plan error %v", line, err)
			}
			return
		}
		checkPlan(t, line, plan)
	})
}

// checkParsed holds an accepted command to what was typed.
func checkParsed(t *testing.T, line string, c Command) {
	t.Helper()
	at := func(w int) string { return strings.ToLower(c.Words[w-1]) }
	if c.IsOrder() {
		if n := b2n(c.Size.IsPositive()) + b2n(c.NotionalUSD.IsPositive()) + b2n(c.SharePercent.IsPositive()); n != 1 {
			t.Fatalf("%q: size %s and notional %s: exactly one must be given", line, c.Size, c.NotionalUSD)
		}
		if c.SizeWord == 0 || c.PriceWord == 0 {
			t.Fatalf("%q: an order without its size or price word", line)
		}
		if c.Market != marketWords[at(c.PriceWord)] || !c.Market && !c.Price.IsPositive() {
			t.Fatalf("%q: market %v, price %s from %q", line, c.Market, c.Price, at(c.PriceWord))
		}
	}
	if c.TPWord != 0 && (at(c.TPWord-1) != "tp" || !c.TakeProfit.IsPositive()) {
		t.Fatalf("%q: tp %s at word %d", line, c.TakeProfit, c.TPWord)
	}
	if c.SLWord != 0 && (at(c.SLWord-1) != "sl" || !c.StopLoss.IsPositive()) {
		t.Fatalf("%q: sl %s at word %d", line, c.StopLoss, c.SLWord)
	}
	if c.InstrumentWord != 0 && c.Words[c.InstrumentWord-1] != c.Instrument {
		t.Fatalf("%q: instrument %q is not word %d", line, c.Instrument, c.InstrumentWord)
	}
	if c.Verb == VerbLeverage && c.Leverage < 1 {
		t.Fatalf("%q: leverage %d", line, c.Leverage)
	}
}

// checkPlan holds a plan that passed to what may be signed.
func checkPlan(t *testing.T, line string, p CommandPlan) {
	t.Helper()
	switch p.Command.Verb {
	case VerbBuy, VerbSell, VerbClose:
		in := p.Order.Instrument
		if !OnStep(p.Order.Size, in.LotSize) || !p.Order.Size.IsPositive() || !OnStep(p.Order.Price, in.TickSize) {
			t.Fatalf("%q: order %s @ %s off the grid of %s", line, p.Order.Size, p.Order.Price, in.Name)
		}
		if p.Command.IsOrder() && p.Order.Wire.Side != p.Command.Side() {
			t.Fatalf("%q: side %s", line, p.Order.Wire.Side)
		}
	case VerbCancel:
		if len(p.Cancel) == 0 {
			t.Fatalf("%q: a cancel of nothing passed", line)
		}
	case VerbTpsl:
		if len(p.PositionTpsl.Wires) == 0 {
			t.Fatalf("%q: a tpsl of nothing passed", line)
		}
	case VerbLeverage:
		if p.Leverage.Err != "" || p.Leverage.New.IntPart() != p.Command.Leverage {
			t.Fatalf("%q: leverage %+v", line, p.Leverage)
		}
	}
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}
