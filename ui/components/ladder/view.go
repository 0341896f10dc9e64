package ladder

import (
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// columns are the ladder's column widths for a pane width.
type columns struct{ price, size, cum, bar, own int }

// layout fits the columns to w: marker (2), price, size, cumulative, bar, own; the bar takes
// what is left (up to 30), then the cumulative column goes on a narrow pane.
func (p *Pane) layout(w int) columns {
	pd := p.in.PriceDecimals()
	pw := 8
	if px := p.view.BestAsk; px.IsPositive() {
		pw = max(pw, common.TextWidth(common.FmtNum(px.Mul(decimal.NewFromInt(10)), pd)))
	}
	c := columns{price: pw, size: 9, cum: 9, own: 9}
	fixed := 2 + c.price + 1 + c.size + 1 + c.cum + 1 + 1 + c.own
	if fixed > w {
		c.cum = 0
		fixed -= 10
	}
	c.bar = min(max(w-fixed, 0), 30)
	return c
}

// View implements common.Pane: the rendered ladder, drawn again only when something changed.
func (p *Pane) View() string {
	if p.dirty {
		p.lines = p.render()
		p.dirty = false
	}
	return p.lines
}

func (p *Pane) render() string {
	st := p.Styles
	w := p.w
	var msg string
	switch {
	case p.symbol == "":
		msg = "no instrument yet"
	case !p.view.Loaded:
		msg = common.EmptyFor(p.Store, state.KindBook, "waiting for the book of "+p.symbol+"…")
		if msg == "loading book…" {
			msg = "loading the book of " + p.symbol + "…"
		}
	case p.view.Err != "":
		msg = "book not shown: " + p.view.Err
	}
	if msg != "" {
		lines := make([]string, p.h)
		lines[min(p.h/2, max(p.h-1, 0))] = st.Warn.On(common.Fit(msg, w, false))
		return common.FitLines(lines, w, p.h)
	}
	c := p.layout(w)
	asks, _ := p.halves()
	maxCum := decimal.Zero
	for _, r := range p.rows {
		if r.cu.GreaterThan(maxCum) {
			maxCum = r.cu
		}
	}
	lines := make([]string, 0, p.h)
	lines = append(lines, p.header(c))
	for i, r := range p.rows {
		if i == asks {
			lines = append(lines, p.midLine(w))
		}
		lines = append(lines, p.rowLine(i, r, c, maxCum))
	}
	if asks == len(p.rows) {
		lines = append(lines, p.midLine(w))
	}
	if p.typing {
		lines[len(lines)-1] = common.FitStyled(p.price.View(), w)
	}
	if len(p.choosing) > 0 {
		lines[len(lines)-1] = p.Styles.Warn.On(common.Fit(p.choiceLine(), w, false))
	}
	return common.FitLines(lines, w, p.h)
}

func (p *Pane) header(c columns) string {
	var b strings.Builder
	b.WriteString("  ")
	b.WriteString(common.Fit("Price", c.price, true))
	b.WriteString(" " + common.Fit("Size", c.size, true))
	if c.cum > 0 {
		b.WriteString(" " + common.Fit("Total", c.cum, true))
	}
	depth := "Depth"
	if c.bar < len(depth) {
		depth = ""
	}
	b.WriteString(" " + common.Fit(depth, c.bar, false))
	b.WriteString(" " + common.Fit("Mine", c.own, false))
	return p.Styles.Header.On(common.Pad(b.String(), p.w))
}

// midLine is the spread and mid between the asks and the bids.
func (p *Pane) midLine(w int) string {
	pd := p.in.PriceDecimals()
	v := p.view
	txt := "no bids or no asks"
	if mid := v.Mid(); mid.IsPositive() {
		ticks := state.TicksText(v.Spread().Div(p.tick()))
		txt = "mid " + common.FmtNum(mid, pd+1) + " · spread " + common.FmtNum(v.Spread(), pd) + " (" + ticks + ")"
	}
	if by := " · by " + common.FmtNum(p.groupSize(), p.in.PriceDecimals()); p.group > 0 && common.TextWidth(txt+by)+4 <= w {
		txt += by
	}
	if common.TextWidth(txt)+2 > w {
		txt = strings.Replace(txt, " · spread ", " · ", 1)
	}
	txt = " " + txt + " "
	left := max((w-common.TextWidth(txt))/2, 0)
	right := max(w-left-common.TextWidth(txt), 0)
	return p.Styles.Accent.On(common.Fit(strings.Repeat("─", left)+txt+strings.Repeat("─", right), w, false))
}

// cell is a piece of a row and its paint (dropped on the cursor row, which is drawn selected).
type cell struct {
	text  string
	paint common.Paint
}

// rowLine draws one level: cursor, change marker, price, size, cumulative, bar, own size.
func (p *Pane) rowLine(i int, r row, c columns, maxCum decimal.Decimal) string {
	st := p.Styles
	selected := i == p.cursor && p.focused
	cur := " "
	if selected {
		cur = "›"
	}
	if r.hint != "" {
		return st.Warn.On(common.Fit("  "+r.hint, p.w, false))
	}
	if r.blank {
		if selected {
			return st.Selected.On(common.Pad(cur, p.w))
		}
		return ""
	}
	pd, sd := p.in.PriceDecimals(), p.in.SizeDecimals()
	mark := " "
	if f, ok := p.flashes[sideKey(r.ask, r.price)]; ok {
		mark = f.mark
	}
	side := st.Buy
	if r.ask {
		side = st.Sell
	}
	own := ""
	if r.own.IsPositive() {
		own = "◆" + common.FmtNum(r.own, sd)
	}
	size, szPaint := p.sizeCell(r, mark)
	cells := []cell{{cur + mark, common.Paint{}}, {common.Fit(common.FmtNum(r.price, pd), c.price, true), side},
		{" " + common.Fit(size, c.size, true), szPaint}}
	if c.cum > 0 {
		cells = append(cells, cell{" " + common.Fit(common.FmtNum(r.cu, sd), c.cum, true), st.Muted})
	}
	cells = append(cells, cell{" " + common.Pad(bar(r.cu, maxCum, c.bar), c.bar), side}, cell{" " + common.Fit(own, c.own, false), st.Warn})
	var b strings.Builder
	for _, x := range cells {
		if selected {
			b.WriteString(x.text)
		} else {
			b.WriteString(x.paint.On(x.text))
		}
	}
	if selected {
		return st.Selected.On(common.Pad(b.String(), p.w))
	}
	return b.String()
}

// sizeCell is a level's size and its paint: flashed by the change marker mark, a dash when only
// the trader's order is there (no level in the book).
func (p *Pane) sizeCell(r row, mark string) (string, common.Paint) {
	st := p.Styles
	if r.ownOnly {
		return "—", st.Muted
	}
	switch mark {
	case "▼":
		return common.FmtNum(r.size, p.in.SizeDecimals()), st.FlashDown
	case "▲", "•":
		return common.FmtNum(r.size, p.in.SizeDecimals()), st.FlashUp
	}
	return common.FmtNum(r.size, p.in.SizeDecimals()), st.Text
}

// bar is a depth bar of width w for cum out of max, in eighths of a cell.
func bar(cum, max decimal.Decimal, w int) string {
	if w <= 0 || !max.IsPositive() {
		return ""
	}
	eighths := cum.Mul(decimal.NewFromInt(int64(w * 8))).Div(max).IntPart()
	full := int(eighths / 8)
	out := strings.Repeat("█", full)
	if rest := eighths % 8; rest > 0 && full < w {
		out += string([]rune("▏▎▍▌▋▊▉")[rest-1])
	}
	return out
}
