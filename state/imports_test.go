package state_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTheEngineImportsNoScreen: imports point one way (main -> ui -> state -> api, api/sim ->
// api). No package under state or api depends, even indirectly, on Bubble Tea, lipgloss or
// package ui, so the headless commands and the guard run the engine without a screen.
func TestTheEngineImportsNoScreen(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Deps \" \"}}",
		"github.com/tradedesk/tradedesk/state/...", "github.com/tradedesk/tradedesk/api/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	banned := []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss",
		"github.com/charmbracelet/bubbles", "github.com/tradedesk/tradedesk/ui"}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(pkg, "github.com/tradedesk/tradedesk/state") && !strings.HasPrefix(pkg, "github.com/tradedesk/tradedesk/api") {
			continue
		}
		checked++
		for _, d := range strings.Fields(deps) {
			for _, b := range banned {
				if d == b || strings.HasPrefix(d, b+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d engine packages listed: %s", checked, out)
	}
}
