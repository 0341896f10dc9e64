package state

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// CommandPlan is a command resolved against the store and checked by the one validation path:
// what a front end turns into its signed action (and confirms) as it is.
type CommandPlan struct {
	Command    Command
	Instrument Instrument // the instrument it acts on (zero for cancel all)
	// Order is the checked order of a buy, a sell or a close: the same CheckedOrder the order form
	// and the positions pane send.
	Order CheckedOrder
	// Cancel is what a cancel takes: the one order (by id, or the only one open on the
	// instrument), every order on the instrument, or every order (Command.All).
	Cancel []api.OrderRecord
	// Scope is what a cancel of every order (on the instrument, or everywhere) takes: its count
	// and the positions' stops among them.
	Scope CancelScope
	// Bracket is the checked bracket of an order given a take-profit or a stop-loss (its Entry is
	// Order); its Wires are nil otherwise.
	Bracket CheckedBracket
	// PositionTpsl is the checked take-profit and stop-loss of a tpsl command.
	PositionTpsl PositionTpsl
	// Leverage is the checked change of a lev command.
	Leverage LeverageChange
	// Close, Reverse, Flatten and Breakeven are the checked position commands (Order is the
	// close's or the reverse's order; PositionTpsl the breakeven's stop).
	Close     ClosePlan
	Reverse   ReversePlan
	Flatten   FlattenPlan
	Breakeven BreakevenPlan
}

// PlanCommand resolves cmd (current is the instrument a command without one acts on) and checks it:
// an order by CheckOrder with g, a close by ClosePositionIntent and CheckOrder, a cancel against
// the open orders, a leverage by CheckLeverage. Any problem is a *CommandError naming the word it
// is about; nothing is ever signed here.
func (s *Store) PlanCommand(cmd Command, current string, g Guard) (CommandPlan, error) {
	plan := CommandPlan{Command: cmd}
	if cmd.Verb == VerbFlatten {
		return s.planFlatten(plan, g)
	}
	if cmd.Instrument != "" || cmd.Verb != VerbCancel || !cmd.All && cmd.OrderID == 0 {
		in, err := s.commandInstrument(cmd, current)
		if err != nil {
			return plan, err
		}
		plan.Instrument = in
	}
	switch cmd.Verb {
	case VerbBuy, VerbSell:
		return s.planOrder(plan, g)
	case VerbClose:
		return s.planClose(plan, g)
	case VerbCancel:
		return s.planCancel(plan)
	case VerbTpsl:
		return s.planPositionTpsl(plan)
	case VerbReverse:
		return s.planReverse(plan, g)
	case VerbBreakeven:
		return s.planBreakeven(plan)
	}
	return s.planLeverage(plan)
}

// commandInstrument resolves the command's instrument word, or the current instrument.
func (s *Store) commandInstrument(cmd Command, current string) (Instrument, error) {
	if cmd.Instrument == "" {
		if strings.TrimSpace(current) == "" {
			return Instrument{}, &CommandError{Msg: "which instrument? name one (" + cmd.Verb.String() + " ... btc ...) or pick one in the tickers first"}
		}
		in, ok := s.FindInstrument(current)
		if !ok {
			return Instrument{}, &CommandError{Msg: "the current instrument " + text.Quote(current) + " is not known; name one"}
		}
		return in, nil
	}
	in, err := s.ResolveInstrument(cmd.Instrument)
	if err != nil {
		return Instrument{}, &CommandError{Word: cmd.InstrumentWord, Token: cmd.Instrument, Msg: err.Error()}
	}
	return in, nil
}

// ResolveInstrument reads an instrument as a trader types it: a full name in any case (BTC-PERP,
// eth/usdc), or a coin: its perpetual (btc: BTC-PERP) or, when it has none, its spot pair against
// USDC (usdt: USDT/USDC). Trading spot where a perpetual exists takes the pair's full name.
func (s *Store) ResolveInstrument(word string) (Instrument, error) {
	w := strings.TrimSpace(word)
	if in, ok := s.Instrument(w); ok {
		return in, nil
	}
	if !strings.ContainsAny(w, "-/") {
		up := strings.ToUpper(w)
		if in, ok := s.Instrument(up + "-PERP"); ok {
			return in, nil
		}
		if in, ok := s.Instrument(up + "/USDC"); ok {
			return in, nil
		}
	}
	names := s.InstrumentNames()
	if len(names) == 0 {
		return Instrument{}, fmt.Errorf("instruments are not loaded yet; wait a moment and try again")
	}
	msg := "unknown instrument; type a coin (btc) or a full name (BTC-PERP, ETH/USDC)"
	if c := closestName(names, w); c != "" {
		msg += "; did you mean " + c + "?"
	}
	return Instrument{}, fmt.Errorf("%s", msg)
}

// Intent is the order intent of a buy or sell on instrument name: the same intent the order form
// builds from its fields, so both go through CheckOrder alike.
func (c Command) Intent(name string) OrderIntent {
	in := OrderIntent{Instrument: name, Side: c.Side(), Tif: c.Tif, PostOnly: c.PostOnly, ReduceOnly: c.ReduceOnly}
	if c.Size.IsPositive() {
		in.Size = c.Size.String()
	} else {
		in.NotionalUSD = c.NotionalUSD.String()
	}
	if c.Market {
		in.Type = Market
	} else {
		in.Type, in.Price = Limit, c.Price.String()
	}
	return in
}

// planOrder checks a buy or sell.
func (s *Store) planOrder(plan CommandPlan, g Guard) (CommandPlan, error) {
	cmd := plan.Command
	intent := cmd.Intent(plan.Instrument.Name)
	if cmd.SharePercent.IsPositive() {
		size, _, err := s.ShareOfMax(intent, cmd.SharePercent, g)
		if err != nil {
			return plan, &CommandError{Word: cmd.SizeWord, Token: cmd.Words[cmd.SizeWord-1], Msg: err.Error()}
		}
		intent.Size, intent.NotionalUSD = size.String(), ""
	}
	if cmd.TPWord != 0 || cmd.SLWord != 0 {
		// The form's bracket builder: the entry checked as any order, the legs on their sides.
		b, errs := s.CheckBracket(BracketIntent{Entry: intent, TakeProfit: cmd.TPText(), StopLoss: cmd.SLText()}, g)
		plan.Bracket, plan.Order = b, b.Entry
		if len(errs) > 0 {
			return plan, orderCommandError(cmd, errs)
		}
		return plan, nil
	}
	checked, errs := s.CheckOrder(intent, g)
	plan.Order = checked
	if len(errs) > 0 {
		return plan, orderCommandError(cmd, errs)
	}
	return plan, nil
}

// planClose checks a close of the instrument's position: all of it, a share or a size, at market
// or as a reduce-only limit (PlanClose).
func (s *Store) planClose(plan CommandPlan, g Guard) (CommandPlan, error) {
	cmd := plan.Command
	if pos, ok := s.Position(plan.Instrument.Name); !ok || pos.Size.IsZero() {
		return plan, cmd.instrumentError("no open position on " + plan.Instrument.Name + " to close")
	}
	req := CloseRequest{Instrument: plan.Instrument.Name, Percent: cmd.SharePercent, Size: cmd.Size, Pricing: cmd.ClosePricing, Price: cmd.Price}
	if !req.Percent.IsPositive() && !req.Size.IsPositive() {
		req.Percent = hundred
	}
	c, errs := s.PlanClose(req, g)
	plan.Close, plan.Order = c, c.Order
	if len(errs) > 0 {
		e := orderCommandError(cmd, errs).(*CommandError)
		e.Msg = "cannot close " + plan.Instrument.Name + ": " + e.Msg
		if e.Word == 0 && cmd.InstrumentWord != 0 {
			e.Word, e.Token = cmd.InstrumentWord, cmd.Instrument
		}
		return plan, e
	}
	return plan, nil
}

// planReverse checks the reverse of the instrument's position.
func (s *Store) planReverse(plan CommandPlan, g Guard) (CommandPlan, error) {
	r, errs := s.PlanReverse(plan.Instrument.Name, "", g)
	plan.Reverse, plan.Order = r, r.Order
	if len(errs) > 0 {
		return plan, plan.Command.instrumentError("cannot reverse " + plan.Instrument.Name + ": " + joinFieldErrors(errs))
	}
	return plan, nil
}

// planBreakeven checks a stop-loss at breakeven on the instrument's position.
func (s *Store) planBreakeven(plan CommandPlan) (CommandPlan, error) {
	b, errs := s.PlanBreakeven(plan.Instrument.Name)
	plan.Breakeven, plan.PositionTpsl = b, b.Tpsl
	if len(errs) > 0 {
		return plan, plan.Command.instrumentError(joinFieldErrors(errs))
	}
	return plan, nil
}

// planFlatten checks flatten all: its children take the client ids "<parent>-n" of one new
// parent id.
func (s *Store) planFlatten(plan CommandPlan, g Guard) (CommandPlan, error) {
	parent := NewCloid()
	f, err := s.PlanFlatten(g, func(i int) (string, error) { return fmt.Sprintf("%s-%d", parent, i), nil })
	f.CancelFirst = plan.Command.All
	plan.Flatten = f
	if err != nil {
		return plan, &CommandError{Msg: err.Error()}
	}
	if len(f.Closes) == 0 {
		return plan, &CommandError{Msg: "every position is skipped, nothing to send: " + strings.Join(f.Lines(), "; ")}
	}
	return plan, nil
}

// planCancel finds the open orders a cancel takes.
func (s *Store) planCancel(plan CommandPlan) (CommandPlan, error) {
	cmd := plan.Command
	open := s.Orders()
	if cmd.OrderID != 0 {
		for _, o := range open {
			if int64(o.OrderID) == cmd.OrderID {
				plan.Cancel = []api.OrderRecord{o}
				if in, ok := s.Instrument(o.Instrument); ok {
					plan.Instrument = in
				}
				return plan, nil
			}
		}
		return plan, &CommandError{Word: cmd.IDWord, Token: cmd.Words[cmd.IDWord-1], Msg: "no open order has this id; the orders pane lists them"}
	}
	for _, o := range open {
		if cmd.Instrument == "" && cmd.All || strings.EqualFold(o.Instrument, plan.Instrument.Name) {
			plan.Cancel = append(plan.Cancel, o)
		}
	}
	switch {
	case len(plan.Cancel) == 0 && cmd.Instrument == "" && cmd.All:
		return plan, &CommandError{Msg: "no open orders to cancel"}
	case len(plan.Cancel) == 0:
		return plan, cmd.instrumentError("no open orders on " + plan.Instrument.Name)
	case !cmd.All && len(plan.Cancel) > 1:
		return plan, cmd.instrumentError(fmt.Sprintf("%d orders are open on %s: cancel all %s, or cancel ORDER-ID",
			len(plan.Cancel), plan.Instrument.Name, strings.ToLower(cmd.instrumentWord(plan.Instrument))))
	}
	plan.Scope = s.CancelScope(plan.Cancel)
	return plan, nil
}

// planPositionTpsl checks a take-profit and stop-loss on the instrument's whole position.
func (s *Store) planPositionTpsl(plan CommandPlan) (CommandPlan, error) {
	cmd := plan.Command
	pt, errs := s.CheckPositionTpsl(plan.Instrument.Name, cmd.TPText(), cmd.SLText())
	plan.PositionTpsl = pt
	if len(errs) > 0 {
		return plan, orderCommandError(cmd, errs)
	}
	return plan, nil
}

// planLeverage checks a leverage change.
func (s *Store) planLeverage(plan CommandPlan) (CommandPlan, error) {
	cmd := plan.Command
	c, err := s.CheckLeverage(plan.Instrument.Name, cmd.Leverage)
	if err != nil {
		return plan, cmd.instrumentError(err.Error())
	}
	plan.Leverage = c
	switch {
	case c.Err != "" && plan.Instrument.Spot:
		return plan, cmd.instrumentError(c.Err)
	case c.Err != "":
		return plan, &CommandError{Word: cmd.LeverageWord, Token: cmd.Words[cmd.LeverageWord-1], Msg: c.Err}
	case c.New.Equal(c.Current):
		return plan, &CommandError{Word: cmd.LeverageWord, Token: cmd.Words[cmd.LeverageWord-1], Msg: "that is the leverage in force already"}
	}
	return plan, nil
}

// instrumentError is a problem about the command's instrument: its word when one was typed.
func (c Command) instrumentError(msg string) error {
	if c.InstrumentWord == 0 {
		return &CommandError{Msg: msg}
	}
	return &CommandError{Word: c.InstrumentWord, Token: c.Instrument, Msg: msg}
}

// instrumentWord is how the trader named the instrument (its name when it was the current one).
func (c Command) instrumentWord(in Instrument) string {
	if c.Instrument != "" {
		return c.Instrument
	}
	return in.Name
}

// orderCommandError points CheckOrder's problems at the words they are about: the first problem
// that has a word names it; the message holds every problem.
func orderCommandError(cmd Command, errs []FieldError) error {
	e := &CommandError{Msg: joinFieldErrors(errs)}
	for _, fe := range errs {
		w := 0
		switch fe.Field {
		case FieldPrice:
			w = cmd.PriceWord
		case FieldSize, FieldNotional:
			w = cmd.SizeWord
		case FieldInstrument:
			w = cmd.InstrumentWord
		case FieldTif:
			w = cmd.TifWord
		case FieldTakeProfit:
			w = cmd.TPWord
		case FieldStopLoss:
			w = cmd.SLWord
		}
		if w != 0 {
			e.Word, e.Token = w, cmd.Words[w-1]
			break
		}
	}
	return e
}

// joinFieldErrors is every problem's message, joined.
func joinFieldErrors(errs []FieldError) string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Msg
	}
	return strings.Join(msgs, "; ")
}
