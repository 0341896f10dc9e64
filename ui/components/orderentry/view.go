package orderentry

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// View implements common.Pane. The form is small; it is drawn again only after something changed.
func (p *Pane) View() string {
	fly := p.inFlight != nil && *p.inFlight
	if p.drawn && fly == p.drawnFly {
		return p.view
	}
	p.view, p.drawn, p.drawnFly = p.draw(), true, fly
	return p.view
}

// draw draws the form. When the preview is cut (the pane is too short for it), Enter reviews the
// order whatever the policy, so the figures not shown are seen before anything is sent; the
// button says so, and is drawn again when that changes.
func (p *Pane) draw() string {
	s, cut := p.drawLines()
	if cut != p.previewCut {
		p.previewCut = cut
		s, _ = p.drawLines()
	}
	return s
}

func (p *Pane) drawLines() (string, bool) {
	st := p.Styles
	lines := make([]string, 0, p.height)
	for f := range fieldCount {
		if p.hidden(f) {
			continue
		}
		if !p.joined(f) {
			lines = append(lines, p.fieldLine(f))
		}
		for _, l := range p.errorLines(p.fieldErrors(f)) {
			lines = append(lines, st.FieldErr.On(l))
		}
	}
	for _, l := range p.errorLines(p.orderErrors()) {
		lines = append(lines, st.FieldErr.On(l))
	}
	lines = append(lines, st.Border.On(strings.Repeat("─", p.width)))
	lines = append(lines, p.previewLines()...)
	for i := range lines {
		lines[i] = fitLine(lines[i], p.width)
	}
	for len(lines) < p.height {
		lines = append(lines, strings.Repeat(" ", p.width))
	}
	cut := len(lines) > p.height && p.height > 1
	if cut {
		// What does not fit is said to be there, never silently cut: the confirmation shows it all.
		more := len(lines) - p.height + 1
		lines = append(lines[:p.height-1], common.FitStyled(st.Muted.On("  … "+strconv.Itoa(more)+" more lines: the review shows them all"), p.width))
	}
	return strings.Join(lines[:p.height], "\n"), cut
}

// fitLine fits a line to w cells; a line whose overflow is only blank (a field's padding after
// its value) loses the blanks, not its end to an ellipsis.
func fitLine(l string, w int) string {
	if ansi.StringWidth(l) > w && ansi.StringWidth(strings.TrimRight(ansi.Strip(l), " ")) <= w {
		l = ansi.Truncate(l, w, "")
	}
	return common.FitStyled(l, w)
}

// errorLines wraps each problem to the form's width, so the rounded value offered is never cut.
func (p *Pane) errorLines(errs []state.FieldError) []string {
	var out []string
	w := max(p.width-4, 10)
	useKey := p.Keys.UseSuggestion.Help().Key
	for _, e := range errs {
		f, mapped := fieldOfError[e.Field]
		usable := mapped && p.inputs[f] != nil
		for i, l := range strings.Split(ansi.Wordwrap(errText(e, usable, useKey), w, " "), "\n") {
			prefix := "  ! "
			if i > 0 {
				prefix = "    "
			}
			out = append(out, common.Pad(prefix+l, p.width))
		}
	}
	return out
}

// errText is a problem in words; usable says the field takes the suggested value with a key.
func errText(e state.FieldError, usable bool, useKey string) string {
	s := e.Msg
	if e.Suggest != "" && !strings.Contains(e.Msg, e.Suggest) {
		s += " (try " + e.Suggest + ")"
	}
	if e.Suggest != "" && usable {
		s += " · " + useKey + " uses " + e.Suggest
	}
	return s
}

func (p *Pane) fieldLine(f int) string {
	st := p.Styles
	cur := p.focused && p.field == f && (p.editing || f == FieldSubmit) // Enter reviews from outside too
	next := f+1 < fieldCount && p.joined(f+1) && !p.hidden(f+1)
	curNext := next && p.focused && p.editing && p.field == f+1
	marker := "  "
	label := st.FieldLabel
	if cur || curNext {
		marker, label = "▸ ", st.FieldFocus
	}
	if f == FieldSubmit {
		return common.Pad("", common.LabelWidth+2) + p.submitButton(cur)
	}
	var value, arrows string
	if cur {
		arrows = " " + p.Keys.ToggleHint()
	}
	switch f {
	case FieldSide:
		value = choice(st, []string{"BUY", "SELL"}, map[bool]int{true: 0, false: 1}[p.side == api.SideBuy], arrows, common.SidePaint(st, p.side))
	case FieldType:
		value = choiceFit(st, typeChoices, p.typ, arrows, st.Accent, p.width-2-common.LabelWidth)
	case FieldTif:
		value = choice(st, tifChoices, p.tif, arrows, st.Accent)
	case FieldReduce:
		value = checkbox(p.reduce)
		if next { // post-only on the same line
			name := st.FieldLabel
			if curNext {
				name = st.FieldFocus
			}
			value += "  " + name.On("Post-only") + " " + checkbox(p.post)
		}
	case FieldTP:
		value = p.inputs[FieldTP].View() + st.Muted.On(" / ") + p.inputs[FieldSL].View()
	case FieldInstrument:
		value = p.instrumentValue()
	case FieldSize: // the notional in USD on the same line: two ways to say one thing
		value = p.sizeValue(cur, curNext)
	default:
		value = p.inputs[f].View()
	}
	return marker + label.On(common.Pad(fieldLabels[f], common.LabelWidth)) + value
}

// instrumentValue is the instrument field with the completion it offers, dimmed after it.
func (p *Pane) instrumentValue() string {
	st := p.Styles
	value := p.inputs[FieldInstrument].View()
	if c, n := p.completion(); c != "" && c != p.inputs[FieldInstrument].Value() {
		rest := c[min(len(p.inputs[FieldInstrument].Value()), len(c)):]
		value = strings.TrimRight(value, " ") + st.Muted.On(rest+" "+common.KeyName(p.Keys.AcceptCompletion))
		if n > 1 {
			value += st.Muted.On(" (" + strconv.Itoa(n) + ")")
		}
	}
	return value
}

// sizeValue is the size field and, on its line, the notional in USD, the size the notional comes
// to, and the most the account can afford (maxHint).
func (p *Pane) sizeValue(cur, curNext bool) string {
	st := p.Styles
	usd := p.inputs[FieldUSD]
	name := st.FieldLabel
	if curNext {
		name = st.FieldFocus
	}
	if p.algoType() {
		return p.inputs[FieldSize].View() // an algorithm's size is in base units only
	}
	value := p.inputs[FieldSize].View() + " " + name.On("or USD") + " " + usd.View()
	if usd.Value() != "" && p.checked.Size.IsPositive() {
		value = strings.TrimRight(value, " ") + st.Muted.On(" = "+common.FmtNum(p.checked.Size, p.checked.Instrument.SizeDecimals()))
	}
	if h := p.maxHint(cur); h != "" {
		value = strings.TrimRight(value, " ") + h
	}
	return value
}

func (p *Pane) submitButton(cur bool) string {
	st := p.Styles
	switch {
	case p.ReadOnly != "":
		return st.Muted.On("[ read-only: trading off ]")
	case p.inFlight != nil && *p.inFlight:
		return st.Muted.On("[ sending… ]")
	case cur:
		return st.ButtonFocus.On(" " + p.submitWord() + " ⏎ ")
	}
	return st.Button.On(" " + p.submitWord() + " ")
}

// submitWord is what Enter does with the order as typed: review it when the guard's policy asks
// for a confirmation (a market order, a warning) or the preview is cut, send it when it does not
// (a limit order that rests, its whole preview on screen).
func (p *Pane) submitWord() string {
	if p.algoType() {
		return "Review " + typeChoices[p.typ]
	}
	asks := p.checked.NeedsConfirm
	if len(p.bracket.Wires) > 0 {
		asks = p.bracket.NeedsConfirm
	}
	if asks || p.previewCut || len(p.errs) > 0 {
		return "Review order"
	}
	return "Send order"
}

// choice draws a choice field's options, the selected one in brackets, then arrows (the toggle
// keys' hint when the cursor is on the field, else "").
func choice(st *common.Styles, opts []string, sel int, arrows string, on common.Paint) string {
	var b strings.Builder
	for i, o := range opts {
		if i > 0 {
			b.WriteByte(' ')
		}
		if i == sel {
			b.WriteString(on.On("[" + strings.ToUpper(o) + "]"))
		} else {
			b.WriteString(st.Muted.On(" " + o + " "))
		}
	}
	if arrows != "" {
		b.WriteString(st.Muted.On(arrows))
	}
	return b.String()
}

// choiceFit is choice within width cells: when every option does not fit, the options around
// the selected one that do, with ‹ and › where the others are (the toggle keys reach them).
func choiceFit(st *common.Styles, opts []string, sel int, arrows string, on common.Paint, width int) string {
	full := choice(st, opts, sel, arrows, on)
	if width <= 0 || ansi.StringWidth(full) <= width {
		return full
	}
	window := func(lo, hi int) string {
		s := choice(st, opts[lo:hi], sel-lo, "", on)
		if lo > 0 {
			s = st.Muted.On("‹ ") + s
		}
		if hi < len(opts) {
			s += st.Muted.On(" ›")
		}
		return s + st.Muted.On(arrows)
	}
	fits := func(lo, hi int) bool { return ansi.StringWidth(window(lo, hi)) <= width }
	lo, hi := sel, sel+1
	for grew := true; grew; {
		grew = false
		if hi < len(opts) && fits(lo, hi+1) {
			hi, grew = hi+1, true
		}
		if lo > 0 && fits(lo-1, hi) {
			lo, grew = lo-1, true
		}
	}
	return window(lo, hi)
}

func checkbox(on bool) string {
	if on {
		return "[x]"
	}
	return "[ ]"
}

// previewLines are the preview (notional, fee, margin, utilization after) and the market.
func (p *Pane) previewLines() []string {
	st := p.Styles
	var out []string
	sym := p.instrument()
	if t, ok := p.Store.Ticker(sym); ok {
		in, _ := p.Store.Instrument(t.Symbol)
		d := in.PriceDecimals()
		line := "  mark " + common.FmtNum(t.MarkPrice, d) + "  bid " + st.Buy.On(common.FmtNum(t.BestBidPrice, d)) +
			"  ask " + st.Sell.On(common.FmtNum(t.BestAskPrice, d))
		// The prices are said to be old here too, where orders are made, when the stale-price
		// guard will ask about them (the same measure): the marker first, so a narrow form never
		// cuts it off (issue #31: at 120 columns old prices looked live), and the quote dimmed.
		if f := p.Store.PricesFreshness(p.checked.Wire.IsMarket); f.Loaded() && f.Stale {
			line = "  " + st.Warn.On("stale "+common.FmtAge(f.Age)) + st.Muted.On(" mark "+common.FmtNum(t.MarkPrice, d)+
				"  bid "+common.FmtNum(t.BestBidPrice, d)+"  ask "+common.FmtNum(t.BestAskPrice, d))
		}
		out = append(out, line)
	}
	if p.algoType() {
		return append(out, p.algoPreview()...)
	}
	c := p.checked
	rows := c.PreviewRows()
	if len(rows) == 0 {
		return append(out, common.Wrapped(st.Muted, "preview appears when price and size are valid", "  ", p.width)...)
	}
	for _, r := range rows {
		out = append(out, p.rowLines(r)...)
	}
	out = append(out, p.bracketLines()...)
	for _, w := range c.Warnings {
		out = append(out, common.Wrapped(st.Warn, "! "+w, "  ", p.width)...) // wrapped, never cut (#24)
	}
	return out
}

// rowLines is one figure of the preview (state.PreviewRows, the rows the confirmation shows too):
// its label, then its value wrapped under itself, never cut.
func (p *Pane) rowLines(r state.PreviewRow) []string {
	const indent = 2 + previewLabel
	var paint common.Paint // no codes
	if r.Label == state.RowUtilization {
		paint = common.UtilPaint(p.Styles, r.Pct)
	}
	lines := common.Wrapped(paint, r.Value, strings.Repeat(" ", indent), p.width)
	lines[0] = "  " + common.Pad(r.Label, previewLabel) + strings.TrimLeft(lines[0], " ")
	return lines
}

// previewLabel is the width of the preview's labels.
const previewLabel = 12

// bracketLines are the bracket's legs in the preview: what the take-profit would gain and the
// stop-loss lose at their triggers (fees left out), and the reward/risk. Like the rows above,
// what does not fit wraps under itself, a figure never split from its label nor cut.
func (p *Pane) bracketLines() []string {
	b := p.bracket
	if len(b.Wires) == 0 {
		return nil
	}
	st := p.Styles
	var parts []string
	if b.TP.IsPositive() {
		parts = append(parts, "TP "+st.Buy.On("+"+common.FmtNum(b.Reward, 2)))
	}
	if b.SL.IsPositive() {
		parts = append(parts, "SL "+st.Sell.On("-"+common.FmtNum(b.Risk, 2)))
	}
	if rr := b.RewardRisk(); rr.IsPositive() {
		parts = append(parts, "R/R "+rr.StringFixed(2))
	}
	return flow(parts, "  "+common.Pad("Bracket", previewLabel), p.width)
}

// flow lays parts out after head, two spaces apart, starting a line under the first part when
// the next does not fit in width.
func flow(parts []string, head string, width int) []string {
	indent := strings.Repeat(" ", ansi.StringWidth(head))
	lines := []string{head}
	n := 0 // parts on the current line
	for _, part := range parts {
		cur := &lines[len(lines)-1]
		sep := "  "
		if n == 0 {
			sep = ""
		}
		if n > 0 && ansi.StringWidth(*cur+sep+part) > width {
			lines = append(lines, indent)
			cur, sep, n = &lines[len(lines)-1], "", 0
		}
		*cur += sep + part
		n++
	}
	return lines
}
