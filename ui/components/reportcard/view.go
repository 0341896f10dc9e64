package reportcard

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/report"
	"github.com/tradedesk/tradedesk/ui/common"
)

// View is one report card over the panes; it takes the keys while open.
type View struct {
	st     *common.Styles
	keys   *common.KeyMap
	store  *state.Store
	title  string
	card   report.Card
	loaded bool
	err    error
	seq    uint64
	scroll int
}

// seqs numbers the cards asked for (on the console's one goroutine): a late answer for an
// earlier card is dropped.
var seqs uint64

// Open is the card msg asks for, loading, and the command that reads it.
func Open(src Source, st *common.Styles, keys *common.KeyMap, msg OpenMsg) (*View, tea.Cmd) {
	seqs++
	v := &View{st: st, keys: keys, store: src.Store, seq: seqs}
	switch {
	case msg.Order != nil:
		o := msg.Order
		v.title = "order " + strconv.FormatUint(uint64(o.OrderID), 10) + " · " + state.SideText(o.Side) + " " + text.Clean(o.Instrument)
	default:
		v.title = text.Clean(msg.Kind) + " " + text.Clean(msg.Algo)
	}
	return v, load(src, msg, v.seq)
}

// Update takes the card read.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(LoadedMsg); ok && m.seq == v.seq {
		v.card, v.err, v.loaded = m.Card, m.Err, true
	}
	return nil
}

// Card is the card shown (tests), and whether it has been read.
func (v *View) Card() (report.Card, bool) { return v.card, v.loaded && v.err == nil }

// Key handles a key: up and down scroll, dismiss (or quit, or Enter) closes; closed says so.
func (v *View) Key(msg tea.KeyMsg) (cmd tea.Cmd, closed bool) {
	k := v.keys
	switch {
	case key.Matches(msg, k.Dismiss, k.Quit, k.Pick):
		return nil, true
	case key.Matches(msg, k.Up):
		v.scroll = max(v.scroll-1, 0)
	case key.Matches(msg, k.Down):
		v.scroll++
	}
	return nil, false
}

// View draws the card in at most w x h cells.
func (v *View) View(w, h int) string {
	head := []string{v.st.Bold.On("REPORT CARD · " + v.title), ""}
	var body []string
	switch {
	case !v.loaded:
		body = []string{v.st.Muted.On("reading its fills…")}
	case errors.Is(v.err, ErrNoFills):
		body = []string{v.st.Muted.On(ErrNoFills.Error())}
	case v.err != nil:
		body = []string{v.st.Danger.On("not read: " + common.PlainError(v.err))}
	default:
		body = Lines(v.card, v.store)
	}
	foot := []string{"", v.st.Muted.On(common.KeyName(v.keys.Up) + "/" + common.KeyName(v.keys.Down) + " scroll · " +
		common.KeyName(v.keys.Dismiss) + " close")}
	return common.Box(v.st, v.keys, head, body, foot, w, h, &v.scroll)
}

// Lines are a card's lines: what each figure is, then its value.
func Lines(c report.Card, st *state.Store) []string {
	in, known := st.Instrument(c.Instrument)
	price := func(d decimal.Decimal) string {
		if known {
			return in.PriceText(d)
		}
		return d.String()
	}
	size := c.Size.String()
	if known {
		size = in.SizeText(c.Size)
	}
	out := []string{
		row("Filled", size+" "+text.Clean(c.Instrument)+" in "+fillsText(c.Fills)+", "+state.SideText(c.Side)),
		row("Average fill", price(c.AvgPrice)+" (volume-weighted)"),
		row("Arrival", arrivalText(c, price)),
		row("vs arrival mid", slipText(c.VsArrival, price)),
		row("vs preview", slipText(c.VsPreview, price)),
	}
	if m := c.Market; m != nil {
		out = append(out, row("vs market VWAP", slipText(m.VsVWAP, price)), row("Market", marketText(m, price)))
	}
	out = append(out,
		row("Fees", state.FormatUSDFee(c.Fee)+" USD · maker "+c.MakerShare.Shift(2).StringFixed(0)+"% of the size"),
		row("Time to fill", fillTimes(c)),
	)
	return append(out, latencyLines(c.Latency)...)
}

func row(label, value string) string { return common.Pad(label, 16) + value }

func arrivalText(c report.Card, price func(decimal.Decimal) string) string {
	a := c.Arrival
	if a.At.IsZero() {
		return "not recorded (not sent from here)"
	}
	var parts []string
	if a.Mid.IsPositive() {
		parts = append(parts, "mid "+price(a.Mid))
	}
	if a.Mark.IsPositive() {
		parts = append(parts, "mark "+price(a.Mark))
	}
	if a.Expected.IsPositive() {
		parts = append(parts, "preview average "+price(a.Expected))
	}
	return strings.Join(append(parts, "at "+state.TimeText(a.At, state.TimeFull)), " · ")
}

// slipText is a slippage in bp, ticks and USD, against the trader when positive.
func slipText(s report.Slip, price func(decimal.Decimal) string) string {
	if !s.Known {
		return "not known"
	}
	return state.FormatSigned(s.Bp, 2) + " bp · " + state.FormatSigned(s.Ticks, 1) + " ticks · " + state.FormatSigned(s.USD, 2) +
		" USD (from " + price(s.Ref) + ")"
}

func marketText(m *report.Market, price func(decimal.Decimal) string) string {
	s := "VWAP " + price(m.VWAP) + " of " + strconv.Itoa(m.Trades) + " trades, volume " + m.Volume.String()
	if m.Covered {
		return s + " · participation " + m.Participation.Shift(2).StringFixed(1) + "%"
	}
	return s + " · participation not known (the tape does not reach back to the start)"
}

func fillTimes(c report.Card) string {
	if c.Arrival.At.IsZero() {
		return "first " + state.TimeText(c.First, state.TimeFull) + " · last " + state.TimeText(c.Last, state.TimeFull)
	}
	return "first +" + ms(c.ToFirst) + " · last +" + ms(c.ToLast) + " after the send"
}

// latencyLines are the route's legs and its whole, or why there are none.
func latencyLines(l *report.RouteTimes) []string {
	if l == nil {
		return []string{row("Latency", "not recorded (not sent by a key here, or no stream)")}
	}
	out := []string{row("Latency", ms(l.Whole)+" from the keystroke to the screen")}
	for i, d := range l.Legs {
		out = append(out, row("", common.Pad(report.LegNames[i], 20)+ms(d)))
	}
	return out
}

// ms is a duration in milliseconds to the tenth ("12.3 ms").
func ms(d time.Duration) string {
	return decimal.NewFromInt(d.Microseconds()).Shift(-3).StringFixed(1) + " ms"
}

func fillsText(n int) string {
	if n == 1 {
		return "1 fill"
	}
	return strconv.Itoa(n) + " fills"
}
