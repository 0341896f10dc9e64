// Package commontest gives the tests of every pane package the console's real key table, a
// theme with colours and a Common to build a pane on, so a pane is tested on the keys a trader
// gets without a copy of the table that could drift.
package commontest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// DefaultKeys is the top level's default key table, read from keymap.go itself (package main
// cannot be imported).
func DefaultKeys() map[string][]string {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		panic("commontest: no caller information to find keymap.go")
	}
	return readDefaultKeys(filepath.Join(filepath.Dir(here), "..", "..", "..", "keymap.go"))
}

// Keys is the key map a trader gets with no [keys] overrides.
func Keys(t testing.TB) common.KeyMap {
	t.Helper()
	k, err := common.NewKeyMap(DefaultKeys())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Rebound is the key map of a config file whose [keys] table gives the actions of overrides
// these keys (the rest keep their defaults).
func Rebound(t testing.TB, overrides map[string][]string) common.KeyMap {
	t.Helper()
	keys := DefaultKeys()
	for name, ks := range overrides {
		keys[name] = ks
	}
	k, err := common.NewKeyMap(keys)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Theme has colours, so styles are exercised; under the ASCII profile they render none.
var Theme = common.Theme{
	Name: "test", Text: lipgloss.Color("252"), Muted: lipgloss.Color("245"), Accent: lipgloss.Color("39"),
	Border: lipgloss.Color("240"), BorderFocus: lipgloss.Color("39"), Buy: lipgloss.Color("42"),
	Sell: lipgloss.Color("203"), Up: lipgloss.Color("42"), Down: lipgloss.Color("203"),
	Warn: lipgloss.Color("214"), Danger: lipgloss.Color("196"), Good: lipgloss.Color("42"),
	SelectedFg: lipgloss.Color("231"), SelectedBg: lipgloss.Color("24"), FlashUp: lipgloss.Color("28"),
	FlashDown: lipgloss.Color("124"), BannerFg: lipgloss.Color("231"), DemoBg: lipgloss.Color("55"),
	ReadOnlyBg: lipgloss.Color("240"), LiveBg: lipgloss.Color("28"), MainnetBg: lipgloss.Color("160"),
}

// NewCommon is a Common on store with the real keys, the test theme and clock, and a feed whose
// timers run only when a test steps its clock.
func NewCommon(t testing.TB, store *state.Store, clock func() time.Time) *common.Common {
	t.Helper()
	keys := Keys(t)
	return &common.Common{Store: store, Styles: common.NewStyles(Theme), Keys: &keys, Clock: clock,
		Guard: state.DefaultGuard(), Feed: feed.New(feed.WithNow(feed.NewFakeClock(clock()), clock), 10*time.Second, 2*time.Minute)}
}

// readDefaultKeys parses the defaultKeys map literal of the Go file at path.
func readDefaultKeys(path string) map[string][]string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		panic(err)
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Names) == 1 && vs.Names[0].Name == "defaultKeys" && len(vs.Values) == 1 {
				return keyTable(vs.Values[0])
			}
		}
	}
	panic(path + " declares no defaultKeys")
}

// keyTable reads a map[string][]string literal of string constants.
func keyTable(e ast.Expr) map[string][]string {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		panic(fmt.Sprintf("defaultKeys is a %T, not a map literal", e))
	}
	out := map[string][]string{}
	for _, el := range lit.Elts {
		kv := el.(*ast.KeyValueExpr)
		name := stringLit(kv.Key)
		for _, k := range kv.Value.(*ast.CompositeLit).Elts {
			out[name] = append(out[name], stringLit(k))
		}
	}
	return out
}

func stringLit(e ast.Expr) string {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		panic(fmt.Sprintf("defaultKeys holds a %T where a string literal belongs", e))
	}
	s, err := strconv.Unquote(b.Value)
	if err != nil {
		panic(err)
	}
	return s
}
