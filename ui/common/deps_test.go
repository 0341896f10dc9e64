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

// engineBound are the component packages whose production code still links SQLite (through
// state/journal): each starts, resumes or lists algorithms (state/algo), which keep their
// parameters and children in the journal. The list only shrinks: a
// package on it that no longer links SQLite fails TestComponentsLinkNoSQLite until it is taken
// off, and a package not on it that links SQLite fails it too.
var engineBound = map[string]bool{
	"ui/components/algos": true, "ui/components/live": true, "ui/components/guard": true,
}

// TestComponentsLinkNoSQLite: no component, dialog or the action package links SQLite or the
// simulator (api/sim) through its production imports, but for those on engineBound (none links
// api/sim). A pane that needs a journal's values imports state/record, what the executor is
// asked and answers state/send, and takes the journal or the executor as the narrow interface it
// calls (action.Executor, funds.Doer, alert.Book, report.Markets, reportcard.Journal,
// latency.RouteBook), so its test binary does not link SQLite, whose link was most of each
// binary's build.
func TestComponentsLinkNoSQLite(t *testing.T) {
	const mod = "github.com/tradedesk/tradedesk/"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Deps \" \"}}",
		mod+"ui/components/...", mod+"ui/dialogs/...", mod+"ui/action").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		name := strings.TrimPrefix(pkg, mod)
		if !strings.HasPrefix(name, "ui/components/") && !strings.HasPrefix(name, "ui/dialogs/") && name != "ui/action" {
			continue
		}
		checked++
		sqlite := false
		for _, d := range strings.Fields(deps) {
			switch {
			case d == "modernc.org/sqlite":
				sqlite = true
			case d == mod+"api/sim":
				t.Errorf("%s depends on the simulator (api/sim): only a test may", name)
			}
		}
		switch {
		case sqlite && !engineBound[name]:
			t.Errorf("%s links SQLite: take the journal's values from state/record and the journal as an interface", name)
		case !sqlite && engineBound[name]:
			t.Errorf("%s no longer links SQLite: take it off engineBound", name)
		}
	}
	if checked < 30 {
		t.Fatalf("only %d component packages listed: %s", checked, out)
	}
}
