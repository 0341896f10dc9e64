package cmdline

import (
	"slices"
	"sort"
	"strings"

	"github.com/tradedesk/tradedesk/state"
)

// complete completes the last word of the line. One candidate: it is put in with a space after
// it. Several: their common beginning is put in and they are listed under the line; Tab again
// cycles through them.
func (m *Model) complete() {
	if len(m.cands) > 1 {
		m.candAt = (m.candAt + 1) % len(m.cands)
		m.input.SetValue(m.stem + m.cands[m.candAt])
		m.input.CursorEnd()
		return
	}
	v := m.input.Value()
	i := strings.LastIndex(v, " ") + 1
	stem, word := v[:i], v[i:]
	var cands []string
	lw, full := strings.ToLower(word), fullNames(m.store)
	for _, c := range Candidates(m.store, strings.Fields(stem)) {
		switch {
		case strings.HasPrefix(c, lw):
			cands = append(cands, c)
		case full[c] != "" && strings.HasPrefix(strings.ToLower(full[c]), lw):
			cands = append(cands, full[c]) // BTC-P is on its way to BTC-PERP: the full name it is
		}
	}
	switch len(cands) {
	case 0:
		return
	case 1:
		m.input.SetValue(stem + cands[0] + " ")
	default:
		m.cands, m.candAt, m.stem = cands, -1, stem
		m.input.SetValue(stem + commonPrefix(cands))
	}
	m.input.CursorEnd()
	m.errText = ""
}

// Candidates are the words that may come after before (the words typed so far) in the command
// grammar: the commands first; then instruments (as typed: btc, eth/usdc), the market word and
// the keywords after a price; for close the instruments with a position, for cancel those with
// open orders.
func Candidates(st *state.Store, before []string) []string {
	if len(before) == 0 {
		return append(slices.Clone(state.CommandVerbs), state.AlgoVerbs...)
	}
	verb, ok := state.CommandVerb(before[0])
	if !ok {
		return nil
	}
	n := len(before)
	switch verb {
	case state.VerbBuy, state.VerbSell:
		return orderCandidates(st, before)
	case state.VerbClose, state.VerbReverse, state.VerbBreakeven:
		if n == 1 {
			return positionNames(st)
		}
		if verb == state.VerbClose && n == 2 {
			return []string{"25%", "50%", "75%", "mid", "best"}
		}
	case state.VerbCancel:
		switch {
		case n == 1:
			return append([]string{"all"}, orderNames(st)...)
		case n == 2 && strings.EqualFold(before[1], "all"):
			return orderNames(st)
		}
	case state.VerbLeverage:
		if n == 1 {
			return instrumentNames(st, true)
		}
	case state.VerbTpsl:
		switch last := strings.ToLower(before[n-1]); {
		case n == 1:
			return append(positionNames(st), "tp", "sl")
		case last != "tp" && last != "sl":
			return []string{"tp", "sl"}
		}
	}
	return nil
}

// orderCandidates: after the size an instrument or mkt; after the instrument mkt; after the price
// the keywords (none right after tp or sl: a price comes there).
func orderCandidates(st *state.Store, before []string) []string {
	n := len(before)
	last := strings.ToLower(before[n-1])
	switch {
	case n == 1:
		return nil // the size
	case n == 2:
		return append([]string{"mkt"}, instrumentNames(st, false)...)
	case n == 3 && !state.IsCommandNumber(last) && !state.MarketWord(last):
		return []string{"mkt"}
	case last == "tp" || last == "sl":
		return nil
	}
	for _, w := range before[2:] {
		if state.MarketWord(strings.ToLower(w)) {
			return marketKeywords() // a market order cannot be post-only
		}
	}
	return state.CommandKeywords
}

// marketKeywords are the keywords a market order may take: all but post.
func marketKeywords() []string {
	var out []string
	for _, k := range state.CommandKeywords {
		if k != "post" {
			out = append(out, k)
		}
	}
	return out
}

// instrumentNames are every instrument as the command line types it (perpsOnly: perpetuals only).
func instrumentNames(st *state.Store, perpsOnly bool) []string {
	var out []string
	for _, in := range st.Instruments() {
		if !perpsOnly || !in.Spot {
			out = append(out, state.ShortInstrumentName(in.Name))
		}
	}
	sort.Strings(out)
	return out
}

// fullNames maps every instrument's command-line name (btc) to its full name (BTC-PERP).
func fullNames(st *state.Store) map[string]string {
	out := map[string]string{}
	for _, in := range st.Instruments() {
		out[state.ShortInstrumentName(in.Name)] = in.Name
	}
	return out
}

// positionNames are the instruments the account holds a position in.
func positionNames(st *state.Store) []string {
	var out []string
	for _, p := range st.Positions() {
		if !p.Size.IsZero() {
			out = append(out, state.ShortInstrumentName(p.Instrument))
		}
	}
	sort.Strings(out)
	return out
}

// orderNames are the instruments with open orders, each once.
func orderNames(st *state.Store) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range st.Orders() {
		if n := state.ShortInstrumentName(o.Instrument); !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func commonPrefix(ss []string) string {
	p := []rune(ss[0])
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, string(p)) {
			p = p[:len(p)-1]
		}
	}
	return string(p)
}
