package common_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTheKitLinksNoEngine: the kit, the core state package and the panes that only show what the
// feed holds depend on no engine package (algorithms, execution, risk, alerts, the journal, the
// profile) and not on SQLite: every pane's test binary links the kit, and linking the engine and
// SQLite into each made the suite's links take half its time. A pane that does use the engine
// imports it itself, and only then links it.
func TestTheKitLinksNoEngine(t *testing.T) {
	const mod = "github.com/tradedesk/tradedesk/"
	light := []string{"ui/common", "state", "state/feed", "ui/components/tape", "ui/components/chart",
		"ui/components/statusbar", "ui/components/messages", "ui/components/pagedlist", "ui/components/fills"}
	args := []string{"list", "-deps", "-f", "{{.ImportPath}} {{join .Deps \" \"}}"}
	for _, p := range light {
		args = append(args, mod+p)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	banned := []string{"modernc.org/sqlite", mod + "state/algo", mod + "state/exec", mod + "state/risk",
		mod + "state/alert", mod + "state/journal", mod + "state/profile"}
	want := map[string]bool{}
	for _, p := range light {
		want[mod+p] = true
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if !want[pkg] {
			continue
		}
		delete(want, pkg)
		for _, d := range strings.Fields(deps) {
			for _, b := range banned {
				if d == b || strings.HasPrefix(d, b+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
	if len(want) != 0 {
		t.Fatalf("go list did not list %v: %s", want, out)
	}
}
