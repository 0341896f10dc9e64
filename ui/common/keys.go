package common

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is every key binding of the console, grouped by where it acts. The top level builds it
// with NewKeyMap from its defaults and the config file's overrides.
type KeyMap struct {
	// Global keys (after a focused text input, before the focused pane).
	NextPane, PrevPane, Help, Quit, Refresh key.Binding
	// KillSwitch cancels every open order (confirmed); it acts even while a text field has focus.
	KillSwitch key.Binding
	// Messages shows the full text of the last errors and notices, with their times.
	Messages key.Binding
	// CommandLine opens the `:` command line (ui/components/cmdline).
	CommandLine key.Binding
	// Profiles lists the config's profiles to switch the console to, and the combined view; it
	// acts in every place, a dialog too (the dialog stays with its profile), but where the
	// transfer form binds the same key (ctrl+a: the most).
	Profiles  key.Binding
	FocusPane [9]key.Binding

	// Lists (tickers, positions, orders).
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	// Alert opens the command line on an alert for the row: a ticker's mark, a position's
	// liquidation distance (ui/components/alerts).
	Alert key.Binding

	// Tickers pane.
	Sort, SortReverse, Filter, Favourite, WatchOnly, Pick, Buy, Sell, BuyMarket, SellMarket key.Binding

	// Open orders pane (Amend: change the selected order's price or size; SendLive: in shadow,
	// send the selected paper order's parameters to the live exchange, confirmed).
	Cancel, CancelInstrument, CancelAll, Amend, SendLive key.Binding

	// Positions pane (Tpsl: the command line opened on "tpsl SYM tp ", the position's own
	// take-profit and stop-loss).
	Close, Tpsl key.Binding
	// Reverse, Breakeven and Flatten are the positions pane's position keys (issue #35): the
	// selected position to the other side, its stop to breakeven, every position closed. Close
	// opens the close menu (its keys: Close25 to CloseTyped).
	Reverse, Breakeven, Flatten key.Binding
	// The close menu's keys, read while it is open: Close25, Close50, Close75 and Close100 close
	// that share of the position at market (Close again: all of it), CloseMid and CloseBest the
	// whole position as a limit at the mid or at the best price, CloseTyped types share and price
	// on the command line.
	Close25, Close50, Close75, Close100, CloseMid, CloseBest, CloseTyped key.Binding
	// Leverage opens the leverage dialog (positions: the row's instrument; the order form's:
	// LeverageForm, which works while typing).
	Leverage, LeverageForm key.Binding
	// BrokerApprove and BrokerRevoke give or withdraw a broker's fee approval (Brokers view).
	BrokerApprove, BrokerRevoke key.Binding

	// Order entry form (Toggle: the next choice of a choice field, TogglePrev the one before).
	FieldNext, FieldPrev, Toggle, TogglePrev, Submit, FillMark, FillBid, FillAsk, ClearForm key.Binding
	// UseSuggestion puts the value a problem offers (the price rounded to the tick...) in its field.
	UseSuggestion key.Binding

	// Dialogs.
	Confirm, Dismiss key.Binding

	// A line being typed (the command line, the tickers filter, an amend price, a broker
	// approval): TextSubmit enters it (Dismiss drops it); in the command line Complete completes
	// the word and HistoryPrev/HistoryNext walk the lines entered before; AcceptCompletion, at
	// the end of the order form's instrument, takes the instrument it suggests.
	TextSubmit, Complete, HistoryPrev, HistoryNext, AcceptCompletion key.Binding

	// Pane groups (Market, Activity, Funds): the view before and after the one shown.
	PrevView, NextView key.Binding
	// Chart pane: a finer or coarser candle resolution, and the next price type.
	ChartFiner, ChartCoarser, ChartType key.Binding
	// Fills pane: the bell on new fills.
	FillBell key.Binding
	// AlgoStop stops the Algos view's selected algorithm (one an earlier run left running: its
	// children cancelled); AlgoPause pauses or resumes it; AlgoResume resumes one an earlier run
	// left (running or paused); AlgoFlatten cancels such a one's children and closes what it opened.
	AlgoStop, AlgoPause, AlgoResume, AlgoFlatten key.Binding
	// History pane: filter by instrument and by state.
	FilterInstrument, FilterState key.Binding
	// Export of the fills and history panes: to CSV, to JSON, and stop one running.
	ExportCSV, ExportJSON, ExportStop key.Binding
	// Balances pane: open the transfer or the withdrawal form.
	Transfer, Withdraw key.Binding
	// Transfer form: the amount becomes the most that can be sent.
	TransferMax key.Binding
	// Ladder: buy or sell at the price under the cursor (the order form, prefilled), cancel the
	// trader's own order there, move it a tick up or down or to a typed price (amend), and group
	// price levels coarser or finer; go to the trader's next order on the ladder.
	LadderBuy, LadderSell, LadderCancel, AmendUp, AmendDown, AmendPrice, GroupCoarser, GroupFiner, LadderNextOwn key.Binding
	// LadderPick picks among the trader's orders on a grouped row LadderCancel was pressed on: its
	// nth key cancels the nth order listed (as many orders are offered as it has keys).
	LadderPick key.Binding
}

// keyAction describes one bindable action: its config name, its help text and where it lives
// (its scope, see places). When pair names another action, the help shows both actions' first
// keys ("[ ]", ", .") under this action's text.
type keyAction struct {
	name, help, scope string
	get               func(*KeyMap) *key.Binding
	pair              string
}

// keyActions is every bindable action, in the order the help lists them.
func keyActions() []keyAction {
	a := slices.Concat(globalKeyActions(), listKeyActions(), tradeKeyActions(), formKeyActions(), textKeyActions(), viewKeyActions(), ladderKeyActions(), menuKeyActions())
	for i := range 9 {
		n := i
		a = append(a, keyAction{fmt.Sprintf("focus_%d", n+1), fmt.Sprintf("focus pane %d", n+1), "global",
			func(k *KeyMap) *key.Binding { return &k.FocusPane[n] }, ""})
	}
	return a
}

// globalKeyActions are the keys that act in every pane (the kill switch anywhere).
func globalKeyActions() []keyAction {
	return []keyAction{
		{"next_pane", "next pane", "global", func(k *KeyMap) *key.Binding { return &k.NextPane }, ""},
		{"prev_pane", "previous pane", "global", func(k *KeyMap) *key.Binding { return &k.PrevPane }, ""},
		{"help", "help", "global", func(k *KeyMap) *key.Binding { return &k.Help }, ""},
		{"quit", "quit", "global", func(k *KeyMap) *key.Binding { return &k.Quit }, ""},
		{"refresh", "refresh now", "global", func(k *KeyMap) *key.Binding { return &k.Refresh }, ""},
		{"messages", "messages", "global", func(k *KeyMap) *key.Binding { return &k.Messages }, ""},
		{"kill_switch", "kill switch", "anywhere", func(k *KeyMap) *key.Binding { return &k.KillSwitch }, ""},
		{"command_line", "command line", "global", func(k *KeyMap) *key.Binding { return &k.CommandLine }, ""},
		{"profiles", "switch profile, combined view", "switch", func(k *KeyMap) *key.Binding { return &k.Profiles }, ""},
	}
}

// listKeyActions are moving in a list, and the tickers pane's keys.
func listKeyActions() []keyAction {
	return []keyAction{
		{"up", "up", "list", func(k *KeyMap) *key.Binding { return &k.Up }, ""},
		{"down", "down", "list", func(k *KeyMap) *key.Binding { return &k.Down }, ""},
		{"page_up", "page up", "list", func(k *KeyMap) *key.Binding { return &k.PageUp }, ""},
		{"page_down", "page down", "list", func(k *KeyMap) *key.Binding { return &k.PageDown }, ""},
		{"top", "first row", "list", func(k *KeyMap) *key.Binding { return &k.Top }, ""},
		{"bottom", "last row", "list", func(k *KeyMap) *key.Binding { return &k.Bottom }, ""},
		{"alert", "alert on this row", "list", func(k *KeyMap) *key.Binding { return &k.Alert }, ""},
		{"sort", "sort by next column", "tickers", func(k *KeyMap) *key.Binding { return &k.Sort }, ""},
		{"sort_reverse", "reverse sort", "tickers", func(k *KeyMap) *key.Binding { return &k.SortReverse }, ""},
		{"filter", "filter", "tickers", func(k *KeyMap) *key.Binding { return &k.Filter }, ""},
		{"favourite", "toggle favourite", "tickers", func(k *KeyMap) *key.Binding { return &k.Favourite }, ""},
		{"watch_only", "favourites only", "tickers", func(k *KeyMap) *key.Binding { return &k.WatchOnly }, ""},
		{"pick", "trade this", "tickers", func(k *KeyMap) *key.Binding { return &k.Pick }, ""},
		{"buy", "limit buy", "tickers", func(k *KeyMap) *key.Binding { return &k.Buy }, ""},
		{"sell", "limit sell", "tickers", func(k *KeyMap) *key.Binding { return &k.Sell }, ""},
		{"buy_market", "market buy", "tickers", func(k *KeyMap) *key.Binding { return &k.BuyMarket }, ""},
		{"sell_market", "market sell", "tickers", func(k *KeyMap) *key.Binding { return &k.SellMarket }, ""},
	}
}

// tradeKeyActions are the keys of the open orders, positions and brokers panes, and the order form's leverage key.
func tradeKeyActions() []keyAction {
	return []keyAction{
		{"cancel", "cancel order", "orders", func(k *KeyMap) *key.Binding { return &k.Cancel }, ""},
		{"cancel_instrument", "cancel all on instrument", "orders", func(k *KeyMap) *key.Binding { return &k.CancelInstrument }, ""},
		{"cancel_all", "cancel all orders", "orders", func(k *KeyMap) *key.Binding { return &k.CancelAll }, ""},
		{"amend", "change price or size", "orders", func(k *KeyMap) *key.Binding { return &k.Amend }, ""},
		{"send_live", "shadow: send this order or algorithm live", "orders", func(k *KeyMap) *key.Binding { return &k.SendLive }, ""},
		{"close", "close menu", "positions", func(k *KeyMap) *key.Binding { return &k.Close }, ""},
		{"leverage", "set leverage", "positions", func(k *KeyMap) *key.Binding { return &k.Leverage }, ""},
		{"position_tpsl", "set TP/SL", "positions", func(k *KeyMap) *key.Binding { return &k.Tpsl }, ""},
		{"reverse", "reverse position", "positions", func(k *KeyMap) *key.Binding { return &k.Reverse }, ""},
		{"breakeven", "stop to breakeven", "positions", func(k *KeyMap) *key.Binding { return &k.Breakeven }, ""},
		{"flatten", "flatten all positions", "positions", func(k *KeyMap) *key.Binding { return &k.Flatten }, ""},
		{"form_leverage", "set leverage", "form", func(k *KeyMap) *key.Binding { return &k.LeverageForm }, ""},
		{"broker_approve", "approve a broker", "brokers", func(k *KeyMap) *key.Binding { return &k.BrokerApprove }, ""},
		{"broker_revoke", "revoke the approval", "brokers", func(k *KeyMap) *key.Binding { return &k.BrokerRevoke }, ""},
	}
}

// formKeyActions are the keys of a form and of a dialog.
func formKeyActions() []keyAction {
	return []keyAction{
		{"field_next", "next field", "field", func(k *KeyMap) *key.Binding { return &k.FieldNext }, ""},
		{"field_prev", "previous field", "field", func(k *KeyMap) *key.Binding { return &k.FieldPrev }, ""},
		{"toggle", "change choice", "form", func(k *KeyMap) *key.Binding { return &k.Toggle }, ""},
		{"toggle_prev", "previous choice", "form", func(k *KeyMap) *key.Binding { return &k.TogglePrev }, ""},
		{"submit", "send or review", "form", func(k *KeyMap) *key.Binding { return &k.Submit }, ""},
		{"fill_mark", "price = mark", "form", func(k *KeyMap) *key.Binding { return &k.FillMark }, ""},
		{"fill_bid", "price = bid", "form", func(k *KeyMap) *key.Binding { return &k.FillBid }, ""},
		{"fill_ask", "price = ask", "form", func(k *KeyMap) *key.Binding { return &k.FillAsk }, ""},
		{"clear_form", "clear form", "form", func(k *KeyMap) *key.Binding { return &k.ClearForm }, ""},
		{"use_suggestion", "use the suggested value", "form", func(k *KeyMap) *key.Binding { return &k.UseSuggestion }, ""},
		{"confirm", "confirm", "dialog", func(k *KeyMap) *key.Binding { return &k.Confirm }, ""},
		{"dismiss", "back", "dialog", func(k *KeyMap) *key.Binding { return &k.Dismiss }, ""},
	}
}

// textKeyActions are the keys of a line being typed: they are read while the line has the keys,
// which it takes before every other key but the kill switch (scope "typing").
func textKeyActions() []keyAction {
	return []keyAction{
		{"text_submit", "enter the line", "typing", func(k *KeyMap) *key.Binding { return &k.TextSubmit }, ""},
		{"complete", "complete", "typing", func(k *KeyMap) *key.Binding { return &k.Complete }, ""},
		{"history_prev", "history", "typing", func(k *KeyMap) *key.Binding { return &k.HistoryPrev }, "history_next"},
		{"history_next", "next in history", "typing", func(k *KeyMap) *key.Binding { return &k.HistoryNext }, ""},
		{"accept_completion", "take the suggested instrument", "typing", func(k *KeyMap) *key.Binding { return &k.AcceptCompletion }, ""},
	}
}

// viewKeyActions are the keys of pane groups, the chart, fills, history, export and the funds panes.
func viewKeyActions() []keyAction {
	return []keyAction{
		{"prev_view", "switch view", "group", func(k *KeyMap) *key.Binding { return &k.PrevView }, "next_view"},
		{"next_view", "next view", "group", func(k *KeyMap) *key.Binding { return &k.NextView }, ""},
		{"chart_finer", "resolution", "chart", func(k *KeyMap) *key.Binding { return &k.ChartFiner }, "chart_coarser"},
		{"chart_coarser", "coarser resolution", "chart", func(k *KeyMap) *key.Binding { return &k.ChartCoarser }, ""},
		{"chart_type", "mark/index/last price", "chart", func(k *KeyMap) *key.Binding { return &k.ChartType }, ""},
		{"fill_bell", "bell on new fills on/off", "fills", func(k *KeyMap) *key.Binding { return &k.FillBell }, ""},
		{"algo_stop", "stop the algorithm", "algos", func(k *KeyMap) *key.Binding { return &k.AlgoStop }, ""},
		{"algo_pause", "pause / resume the algorithm", "algos", func(k *KeyMap) *key.Binding { return &k.AlgoPause }, ""},
		{"algo_resume", "resume one left by an earlier run", "algos", func(k *KeyMap) *key.Binding { return &k.AlgoResume }, ""},
		{"algo_flatten", "flatten one left by an earlier run", "algos", func(k *KeyMap) *key.Binding { return &k.AlgoFlatten }, ""},
		{"filter_instrument", "filter instrument", "history", func(k *KeyMap) *key.Binding { return &k.FilterInstrument }, ""},
		{"filter_state", "filter state", "history", func(k *KeyMap) *key.Binding { return &k.FilterState }, ""},
		{"export_csv", "export all to CSV", "export", func(k *KeyMap) *key.Binding { return &k.ExportCSV }, ""},
		{"export_json", "export all to JSON", "export", func(k *KeyMap) *key.Binding { return &k.ExportJSON }, ""},
		{"export_stop", "stop export", "export", func(k *KeyMap) *key.Binding { return &k.ExportStop }, ""},
		{"transfer", "transfer", "funds", func(k *KeyMap) *key.Binding { return &k.Transfer }, ""},
		{"withdraw", "withdraw", "funds", func(k *KeyMap) *key.Binding { return &k.Withdraw }, ""},
		{"transfer_max", "amount = the most (fee included)", "transfer", func(k *KeyMap) *key.Binding { return &k.TransferMax }, ""},
	}
}

// ladderKeyActions are the ladder's keys.
func ladderKeyActions() []keyAction {
	return []keyAction{
		{"ladder_buy", "buy at this price", "ladder", func(k *KeyMap) *key.Binding { return &k.LadderBuy }, ""},
		{"ladder_sell", "sell at this price", "ladder", func(k *KeyMap) *key.Binding { return &k.LadderSell }, ""},
		{"ladder_cancel", "cancel my order here", "ladder", func(k *KeyMap) *key.Binding { return &k.LadderCancel }, ""},
		{"amend_up", "move my order a tick", "ladder", func(k *KeyMap) *key.Binding { return &k.AmendUp }, "amend_down"},
		{"amend_down", "move my order a tick down", "ladder", func(k *KeyMap) *key.Binding { return &k.AmendDown }, ""},
		{"amend_price", "move my order to a price", "ladder", func(k *KeyMap) *key.Binding { return &k.AmendPrice }, ""},
		{"group_coarser", "group levels", "ladder", func(k *KeyMap) *key.Binding { return &k.GroupCoarser }, "group_finer"},
		{"group_finer", "group levels finer", "ladder", func(k *KeyMap) *key.Binding { return &k.GroupFiner }, ""},
		{"ladder_next_own", "go to my next order", "ladder", func(k *KeyMap) *key.Binding { return &k.LadderNextOwn }, ""},
	}
}

// menuKeyActions are the keys of a pane's pick among choices (the close menu, the ladder's pick of
// an order): read while the pick is open, which takes every key but the kill switch, the profiles
// key and the pane keys (scopes "closemenu" and "ladderpick").
func menuKeyActions() []keyAction {
	return []keyAction{
		{"close_25", "close 25 % at market", "closemenu", func(k *KeyMap) *key.Binding { return &k.Close25 }, ""},
		{"close_50", "close 50 % at market", "closemenu", func(k *KeyMap) *key.Binding { return &k.Close50 }, ""},
		{"close_75", "close 75 % at market", "closemenu", func(k *KeyMap) *key.Binding { return &k.Close75 }, ""},
		{"close_100", "close all at market", "closemenu", func(k *KeyMap) *key.Binding { return &k.Close100 }, ""},
		{"close_mid", "close all at the mid", "closemenu", func(k *KeyMap) *key.Binding { return &k.CloseMid }, ""},
		{"close_best", "close all at the best price", "closemenu", func(k *KeyMap) *key.Binding { return &k.CloseBest }, ""},
		{"close_typed", "type the share and price", "closemenu", func(k *KeyMap) *key.Binding { return &k.CloseTyped }, ""},
		{"ladder_pick", "cancel that one", "ladderpick", func(k *KeyMap) *key.Binding { return &k.LadderPick }, ""},
	}
}

// prettyKeys is every key of a binding as the help shows it, "/" between them.
func prettyKeys(ks []string) string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = PrettyKey(k)
	}
	return strings.Join(out, "/")
}

// KeyActionNames lists every action a config file may rebind, sorted.
func KeyActionNames() []string {
	var out []string
	for _, a := range keyActions() {
		out = append(out, a.name)
	}
	sort.Strings(out)
	return out
}

// NewKeyMap builds a KeyMap from action name to keys (tea key names such as "x", "ctrl+c",
// "shift+tab"). Every action must be present; an unknown action name, an empty key list, or two
// actions that can fire in the same place sharing a key is an error naming what to fix.
func NewKeyMap(keys map[string][]string) (KeyMap, error) {
	var km KeyMap
	known := map[string]bool{}
	for _, a := range keyActions() {
		known[a.name] = true
		ks, ok := keys[a.name]
		if !ok || len(ks) == 0 {
			return KeyMap{}, fmt.Errorf("key map: action %q has no key; give it at least one", a.name)
		}
		help := PrettyKey(ks[0])
		if pk := keys[a.pair]; a.pair != "" && len(pk) > 0 {
			// A pair is one help line that names every key of both halves ("S-↑/K S-↓/J"); the
			// second half's own line is dropped where the help is drawn.
			help = prettyKeys(ks) + " " + prettyKeys(pk)
		}
		*a.get(&km) = key.NewBinding(key.WithKeys(ks...), key.WithHelp(help, a.help))
	}
	for name := range keys {
		if !known[name] {
			return KeyMap{}, fmt.Errorf("key map: unknown action %q; known actions: %s", name, strings.Join(KeyActionNames(), ", "))
		}
	}
	if err := km.checkConflicts(); err != nil {
		return KeyMap{}, err
	}
	return km, nil
}

// places lists, for each place a key press can land (a pane, the order form, a dialog), the
// scopes of the keys it acts on. Global keys act everywhere but in a dialog.
//
// "field" is the scope of the keys that move between a form's fields: they are read while the
// trader is in a form, which takes every key before the global ones (as a dialog does), so they
// may share keys with global keys (Tab moves between fields in a form, between panes elsewhere).
// "anywhere" keys (the kill switch) act in every place but a dialog, in a form too. "typing" is
// the scope of the keys of a line being typed, which takes every key but the kill switch.
var places = [][]string{
	{"tickers", "list"}, {"orders", "list"}, {"positions", "list"}, {"form", "field"},
	{"chart", "group"}, {"group"}, // the Market group: chart, instrument
	{"fills", "list", "export", "group"}, {"history", "list", "export", "group"},
	{"algos", "list", "group"},
	// Funds: balances, transfer, brokers; t and w ("funds") open a transfer or withdrawal in each
	{"balances", "funds", "list", "group"}, {"transfer", "funds", "form", "field", "group"}, {"brokers", "funds", "list", "group"},
	{"ladder", "list", "group"}, // the Depth group: ladder, tape (a list)
	{"dialog"},
}

// alsoRead names, for the scopes of a pick, the other actions read while it is open: Close
// again is the whole position, Dismiss leaves the pick (the ladder's cancels none).
var alsoRead = map[string][]string{"closemenu": {"close", "dismiss"}, "ladderpick": {"dismiss"}}

// picks are the scopes of the keys read while a pick or a typed line takes every key: the global
// keys do not reach them.
var picks = []string{"field", "typing", "closemenu", "ladderpick"}

// scopesMeet reports whether keys of two scopes can both see one key press: the same scope, an
// "anywhere" key and any scope but a dialog's, a global key and any scope but a dialog's, a
// form's field keys or a typed line's, or two scopes of one place.
func scopesMeet(a, b string) bool {
	if a == b {
		return true
	}
	if a == "switch" || b == "switch" { // the profile switcher is above every place but the transfer form's
		return a != "transfer" && b != "transfer"
	}
	if a == "dialog" || b == "dialog" {
		return samePlace(a, b)
	}
	if a == "anywhere" || b == "anywhere" {
		return true
	}
	if a == "global" || b == "global" {
		return !slices.Contains(picks, a) && !slices.Contains(picks, b)
	}
	return samePlace(a, b)
}

// samePlace reports whether one of places holds scopes a and b.
func samePlace(a, b string) bool {
	for _, p := range places {
		if slices.Contains(p, a) && slices.Contains(p, b) {
			return true
		}
	}
	return false
}

func (k *KeyMap) checkConflicts() error {
	acts := keyActions()
	owner := map[string]keyAction{}
	var errs []string
	for _, a := range acts {
		for _, kk := range a.get(k).Keys() {
			if o, ok := owner[a.scope+"\x00"+kk]; ok {
				errs = append(errs, fmt.Sprintf("%q is bound to both %s and %s", kk, o.name, a.name))
			}
			owner[a.scope+"\x00"+kk] = a
		}
	}
	for i, a := range acts {
		for _, b := range acts[i+1:] {
			read := slices.Contains(alsoRead[a.scope], b.name) || slices.Contains(alsoRead[b.scope], a.name)
			if a.scope == b.scope || !read && !scopesMeet(a.scope, b.scope) {
				continue
			}
			for _, ka := range a.get(k).Keys() {
				for _, kb := range b.get(k).Keys() {
					if ka == kb {
						errs = append(errs, fmt.Sprintf("%q is bound to both %s and %s", ka, a.name, b.name))
					}
				}
			}
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("key map: %s; rebind one of each pair", strings.Join(errs, "; "))
	}
	return nil
}

// KeyName is how a hint names binding b: its first key, written as PrettyKey writes it.
func KeyName(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return PrettyKey(ks[0])
	}
	return ""
}

// Submits is the hint, while a line is typed, of the key that enters it (TextSubmit), saying what
// entering does there ("confirm").
func (k *KeyMap) Submits(what string) key.Binding {
	return key.NewBinding(key.WithKeys(k.TextSubmit.Keys()...), key.WithHelp(KeyName(k.TextSubmit), what))
}

// ToggleHint is the hint beside a choice field: the key to the previous choice and the key to the
// next ("←→" by default; space, also a next key, is named in the help).
func (k *KeyMap) ToggleHint() string {
	next := KeyName(k.Toggle)
	for _, kk := range k.Toggle.Keys() {
		if kk != " " {
			next = PrettyKey(kk)
			break
		}
	}
	return KeyName(k.TogglePrev) + next
}

// PrettyKey is how key k is written in hints and help: arrows as arrows.
func PrettyKey(k string) string {
	switch k {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	case "pgup":
		return "PgUp"
	case "pgdown":
		return "PgDn"
	case "enter":
		return "Enter"
	case "esc":
		return "Esc"
	case " ":
		return "space"
	case "tab":
		return "Tab"
	case "shift+tab":
		return "S-Tab"
	case "shift+up":
		return "S-↑"
	case "shift+down":
		return "S-↓"
	}
	return k
}
