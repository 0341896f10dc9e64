package profile

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
)

// OnRestart is the [on_restart] table: per kind of algorithm, what a start does without asking
// with one an earlier run left running (resume, cancel or flatten). A kind not set is asked
// about: the console lists it for the trader's choice, a headless command needs --on-restart
// (which overrides the table).
type OnRestart struct {
	Chase string `toml:"chase"`
	TWAP  string `toml:"twap"`
	Scale string `toml:"scale"`
	Trail string `toml:"trail"`
}

// Choices are the table's choices by kind (only those set); a value that is no choice says what
// to give.
func (o OnRestart) Choices() (map[string]string, error) {
	out := map[string]string{}
	for _, k := range []struct{ kind, v string }{{"chase", o.Chase}, {"twap", o.TWAP}, {"scale", o.Scale}, {"trail", o.Trail}} {
		v := strings.ToLower(strings.TrimSpace(k.v))
		if v == "" {
			continue
		}
		switch v {
		case algo.OnRestartResume, algo.OnRestartCancel, algo.OnRestartFlatten:
			out[k.kind] = v
		default:
			return nil, fmt.Errorf("config [on_restart] %s = %s: give %s", k.kind, text.Quote(k.v), strings.Join(algo.OnRestartChoices, ", "))
		}
	}
	return out, nil
}
