package main

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/common"
)

// defaultKeys are the console's key bindings: action name to keys (Bubble Tea key names). The
// config file's [keys] table replaces an action's keys.
var defaultKeys = map[string][]string{
	"next_pane": {"tab"}, "prev_pane": {"shift+tab"}, "help": {"?"}, "quit": {"q", "ctrl+c"},
	"refresh": {"ctrl+r"}, "kill_switch": {"ctrl+k"}, "messages": {"!"}, "command_line": {":"}, "profiles": {"ctrl+a"},
	"focus_1": {"1"}, "focus_2": {"2"}, "focus_3": {"3"}, "focus_4": {"4"}, "focus_5": {"5"},
	"focus_6": {"6"}, "focus_7": {"7"}, "focus_8": {"8"}, "focus_9": {"9"},
	"up": {"up", "k"}, "down": {"down", "j"}, "page_up": {"pgup"}, "page_down": {"pgdown"},
	"top": {"home", "g"}, "bottom": {"end", "G"}, "alert": {"A"},
	"sort": {"o"}, "sort_reverse": {"O"}, "filter": {"/"}, "favourite": {"f"}, "watch_only": {"w"},
	"pick": {"enter"}, "buy": {"b"}, "sell": {"s"}, "buy_market": {"B"}, "sell_market": {"S"},
	"cancel": {"x", "delete"}, "cancel_instrument": {"X"}, "cancel_all": {"C"}, "amend": {"a"}, "send_live": {"L"},
	"close": {"x", "c"}, "leverage": {"L"}, "position_tpsl": {"t"},
	"reverse": {"R"}, "breakeven": {"B"}, "flatten": {"ctrl+x"}, "form_leverage": {"ctrl+l"},
	"broker_approve": {"a"}, "broker_revoke": {"x", "delete"},
	"field_next": {"tab", "down"}, "field_prev": {"shift+tab", "up"}, "toggle": {" ", "right"}, "toggle_prev": {"left"}, "submit": {"enter"},
	"fill_mark": {"m"}, "fill_bid": {"b"}, "fill_ask": {"a"}, "clear_form": {"ctrl+x"}, "use_suggestion": {"="},
	"confirm": {"enter"}, "dismiss": {"esc"},
	"text_submit": {"enter"}, "accept_completion": {"right"},
	"complete": {"tab"}, "history_prev": {"up"}, "history_next": {"down"},
	"prev_view": {"["}, "next_view": {"]"},
	"chart_finer": {","}, "chart_coarser": {"."}, "chart_type": {"t"},
	"fill_bell": {"B"}, "filter_instrument": {"i"}, "filter_state": {"s"}, "algo_stop": {"s"},
	"algo_pause": {"p"}, "algo_resume": {"r"}, "algo_flatten": {"f"},
	"export_csv": {"e"}, "export_json": {"E"}, "export_stop": {"esc"},
	"transfer": {"t"}, "withdraw": {"w"}, "transfer_max": {"ctrl+a"},
	"ladder_buy": {"b"}, "ladder_sell": {"s"}, "ladder_cancel": {"x", "delete"},
	"amend_up": {"shift+up", "K"}, "amend_down": {"shift+down", "J"}, "amend_price": {"p"},
	"group_coarser": {"+", "="}, "group_finer": {"-"}, "ladder_next_own": {"n"},
	"ladder_pick": {"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "close_mid": {"m"}, "close_best": {"b"}, "close_typed": {"p"},
	"close_25": {"1"}, "close_50": {"2"}, "close_75": {"3"}, "close_100": {"4"},
}

// buildKeyMap applies the config file's overrides to the defaults.
func buildKeyMap(overrides map[string][]string) (common.KeyMap, error) {
	keys := make(map[string][]string, len(defaultKeys))
	for k, v := range defaultKeys {
		keys[k] = v
	}
	for k, v := range overrides {
		name := strings.ToLower(strings.TrimSpace(k))
		if _, ok := defaultKeys[name]; !ok {
			return common.KeyMap{}, fmt.Errorf("config [keys]: unknown action %s; actions are: %s", text.Quote(k), strings.Join(common.KeyActionNames(), ", "))
		}
		if len(v) == 0 {
			return common.KeyMap{}, fmt.Errorf("config [keys]: %s has no keys; give at least one, e.g. %s = [%q]", name, name, defaultKeys[name][0])
		}
		keys[name] = v
	}
	return common.NewKeyMap(keys)
}
