package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/common"
)

// themes are the named palettes. Colours are adaptive where a terminal's background matters.
var themes = map[string]common.Theme{
	"dark": {
		Text: lipgloss.Color("252"), Muted: lipgloss.Color("245"), Accent: lipgloss.Color("39"),
		Border: lipgloss.Color("240"), BorderFocus: lipgloss.Color("39"),
		Buy: lipgloss.Color("42"), Sell: lipgloss.Color("203"), Up: lipgloss.Color("42"), Down: lipgloss.Color("203"),
		Warn: lipgloss.Color("214"), Danger: lipgloss.Color("196"), Good: lipgloss.Color("42"),
		SelectedFg: lipgloss.Color("231"), SelectedBg: lipgloss.Color("24"),
		FlashUp: lipgloss.Color("28"), FlashDown: lipgloss.Color("124"),
		BannerFg: lipgloss.Color("231"), DemoBg: lipgloss.Color("55"), ReadOnlyBg: lipgloss.Color("240"),
		LiveBg: lipgloss.Color("28"), MainnetBg: lipgloss.Color("160"),
	},
	"light": {
		Text: lipgloss.Color("235"), Muted: lipgloss.Color("242"), Accent: lipgloss.Color("25"),
		Border: lipgloss.Color("248"), BorderFocus: lipgloss.Color("25"),
		Buy: lipgloss.Color("28"), Sell: lipgloss.Color("160"), Up: lipgloss.Color("28"), Down: lipgloss.Color("160"),
		Warn: lipgloss.Color("130"), Danger: lipgloss.Color("160"), Good: lipgloss.Color("28"),
		SelectedFg: lipgloss.Color("16"), SelectedBg: lipgloss.Color("153"),
		FlashUp: lipgloss.Color("151"), FlashDown: lipgloss.Color("217"),
		BannerFg: lipgloss.Color("231"), DemoBg: lipgloss.Color("91"), ReadOnlyBg: lipgloss.Color("244"),
		LiveBg: lipgloss.Color("28"), MainnetBg: lipgloss.Color("160"),
	},
	// colourblind avoids red against green: blue for buy and up, orange for sell and down.
	"colorblind": {
		Text: lipgloss.AdaptiveColor{Light: "235", Dark: "252"}, Muted: lipgloss.AdaptiveColor{Light: "242", Dark: "245"},
		Accent: lipgloss.AdaptiveColor{Light: "25", Dark: "75"},
		Border: lipgloss.AdaptiveColor{Light: "248", Dark: "240"}, BorderFocus: lipgloss.AdaptiveColor{Light: "25", Dark: "75"},
		Buy: lipgloss.Color("33"), Sell: lipgloss.Color("208"), Up: lipgloss.Color("33"), Down: lipgloss.Color("208"),
		Warn: lipgloss.Color("220"), Danger: lipgloss.Color("208"), Good: lipgloss.Color("33"),
		SelectedFg: lipgloss.Color("231"), SelectedBg: lipgloss.Color("24"),
		FlashUp: lipgloss.Color("25"), FlashDown: lipgloss.Color("130"),
		BannerFg: lipgloss.Color("231"), DemoBg: lipgloss.Color("55"), ReadOnlyBg: lipgloss.Color("240"),
		LiveBg: lipgloss.Color("25"), MainnetBg: lipgloss.Color("130"),
	},
}

// themeAliases are other spellings accepted for theme names.
var themeAliases = map[string]string{"colourblind": "colorblind", "colour-blind": "colorblind", "color-blind": "colorblind", "cb": "colorblind"}

func themeNames() []string {
	return slices.Sorted(maps.Keys(themes))
}

// buildTheme returns the named theme; NO_COLOR (any non-empty value) keeps its name but drops
// every colour.
func buildTheme(name string) (common.Theme, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		n = "dark"
	}
	if a, ok := themeAliases[n]; ok {
		n = a
	}
	t, ok := themes[n]
	if !ok {
		return common.Theme{}, fmt.Errorf("unknown theme %s: use one of %s", text.Quote(name), strings.Join(themeNames(), ", "))
	}
	t.Name = n
	if os.Getenv("NO_COLOR") != "" {
		t.NoColor = true
	}
	return t, nil
}
