// Package profiles is the profile switcher's list (the Profiles key's overlay): each profile with
// its mode and equity, the active one marked, the combined view and the vaults last. It is fed
// values (Values) the switcher builds; it reads nothing else.
package profiles

import (
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Row is one profile in the list.
type Row struct {
	// Label is the profile's name as the screen shows it (already sanitised).
	Label string
	// Mode is the profile's connection mode as text.
	Mode string
	// Loaded says the account has arrived; until then the equity shows as "…".
	Loaded bool
	// Equity is the account's total equity in USD, shown when Loaded.
	Equity decimal.Decimal
	// Active marks the profile the screen shows.
	Active bool
	// DialogOpen says the profile has a dialog open, so a switch back lands in it.
	DialogOpen bool
}

// Values are what the list shows.
type Values struct {
	// Rows are the profiles, in the set's order.
	Rows []Row
	// ActiveLabel is the active profile's label, named on the vaults row.
	ActiveLabel string
	// Cursor is the highlighted row: an index into Rows, then the combined row, then the vaults.
	Cursor int
	// Width and Height are the screen's size.
	Width, Height int
}

// View draws the list in a box with its keys in the foot.
func View(v Values, st *common.Styles, keys *common.KeyMap) string {
	head := []string{st.Accent.On("Profiles"), ""}
	var body []string
	for i, r := range v.Rows {
		mark := "  "
		if r.Active {
			mark = "• "
		}
		equity := "…"
		if r.Loaded {
			equity = common.FmtNum(r.Equity, 2) + " USD"
		}
		line := mark + common.Pad(r.Label, 12) + " " + common.Pad(r.Mode, 9) + " " + common.Fit(equity, 16, true)
		if r.DialogOpen {
			line += st.Warn.On("  dialog open")
		}
		body = append(body, row(st, v.Cursor, i, line))
	}
	n := len(v.Rows)
	body = append(body, row(st, v.Cursor, n, "  "+common.Pad("combined", 12)+" "+common.Pad("read-only", 9)),
		row(st, v.Cursor, n+1, "  "+common.Pad("vaults", 12)+" of "+v.ActiveLabel))
	foot := []string{"", st.Bold.On(common.KeyName(keys.Pick)) + " switch · " + st.Bold.On(common.KeyName(keys.Dismiss)) + " close"}
	scroll := 0
	return common.Box(st, keys, head, body, foot, min(v.Width-4, 64), v.Height-3, &scroll)
}

// row is a list row, highlighted under the cursor.
func row(st *common.Styles, cursor, i int, line string) string {
	if i == cursor {
		return st.Selected.On(line)
	}
	return line
}
